// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package server_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/server"
	"warden.dev/warden/internal/store"
)

const token = "0123456789abcdef0123456789abcdef"

// env is a store with one pending approval and a server over it,
// listening on a Unix socket and on loopback.
type env struct {
	sock, addr string
	s          *store.SQLite
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	s, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := time.Now()
	if err := s.CreateApproval(ctx, store.Approval{ID: "a1", Created: now, Expires: now.Add(time.Hour),
		Request: store.ApprovalRequest{Surface: "hook codex", Tool: "Bash", Subject: "git push"}}); err != nil {
		t.Fatal(err)
	}
	h := (&server.Server{Store: s, Token: token}).Handler()
	e := &env{sock: filepath.Join(dir, "warden.sock"), s: s}
	us, uln, err := server.ListenUnix(ctx, e.sock, h)
	if err != nil {
		t.Fatal(err)
	}
	go us.Serve(uln)
	t.Cleanup(func() { us.Close() })
	ts, tln, err := server.ListenLoopback(ctx, "127.0.0.1:0", h)
	if err != nil {
		t.Fatal(err)
	}
	go ts.Serve(tln)
	t.Cleanup(func() { ts.Close() })
	e.addr = tln.Addr().String()
	return e
}

func (e *env) unixClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", e.sock)
	}}}
}

func do(t *testing.T, c *http.Client, method, url, tok, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAuth: the Unix socket's peer reads without the token; loopback
// needs it for everything; an answer needs it everywhere; a refused
// request changes nothing.
func TestAuth(t *testing.T) {
	e := newEnv(t)
	uc, lc := e.unixClient(), http.DefaultClient
	loop := "http://" + e.addr
	for _, tt := range []struct {
		name       string
		c          *http.Client
		method, u  string
		tok, body  string
		want       int
		wantInBody string
	}{
		{"socket reads", uc, "GET", "http://w/v1/approvals", "", "", 200, `"id": "a1"`},
		{"socket health", uc, "GET", "http://w/healthz", "", "", 200, "ok"},
		{"loopback without the token", lc, "GET", loop + "/v1/approvals", "", "", 401, "bearer token"},
		{"loopback with a wrong token", lc, "GET", loop + "/v1/audit", "nope", "", 401, "bearer token"},
		{"loopback with the token", lc, "GET", loop + "/v1/approvals", token, "", 200, `"id": "a1"`},
		{"socket answer without the token", uc, "POST", "http://w/v1/approvals/a1", "", `{"answer":"allow"}`, 401, "bearer token"},
		{"answer with an unknown field", uc, "POST", "http://w/v1/approvals/a1", token, `{"answer":"allow","by":"me"}`, 400, "unknown field"},
		{"answer that is none", uc, "POST", "http://w/v1/approvals/a1", token, `{"answer":"sure"}`, 400, "want allow, deny or remember"},
		{"remember without a scope", uc, "POST", "http://w/v1/approvals/a1", token, `{"answer":"remember","ttl":"1h"}`, 400, "scope"},
		{"no such approval", uc, "POST", "http://w/v1/approvals/zz", token, `{"answer":"allow"}`, 404, "no approval"},
		{"a bad audit query", uc, "GET", "http://w/v1/audit?since=yesterday", "", "", 400, "neither a duration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, body := do(t, tt.c, tt.method, tt.u, tt.tok, tt.body)
			if code != tt.want || !strings.Contains(body, tt.wantInBody) {
				t.Errorf("%s %s: %d %s, want %d with %q", tt.method, tt.u, code, body, tt.want, tt.wantInBody)
			}
		})
	}
	// Nothing refused changed the approval.
	a, err := e.s.Approval(context.Background(), "a1", time.Now())
	if err != nil || a.State != store.Pending {
		t.Fatalf("after the refused requests: %+v %v", a, err)
	}
	code, body := do(t, uc, "POST", "http://w/v1/approvals/a1", token, `{"answer":"deny","reason":"no"}`)
	if code != 200 || !strings.Contains(body, `"state": "denied"`) {
		t.Fatalf("deny: %d %s", code, body)
	}
	code, body = do(t, lc, "POST", loop+"/v1/approvals/a1", token, `{"answer":"allow"}`)
	if code != 409 || !strings.Contains(body, "is denied") {
		t.Errorf("a second answer: %d %s, want 409", code, body)
	}
}

func TestListenOnlyLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:7000", ":7000", "localhost:7000"} {
		if _, _, err := server.ListenLoopback(context.Background(), addr, http.NotFoundHandler()); err == nil {
			t.Errorf("--listen %s was taken", addr)
		}
	}
}

// TestSocketMode: the socket is the user's alone, and a second server on
// the same state directory is refused.
func TestSocketMode(t *testing.T) {
	e := newEnv(t)
	out, err := exec.Command("stat", "-c", "%a", e.sock).Output()
	if err == nil && strings.TrimSpace(string(out)) != "600" {
		t.Errorf("the socket has mode %s, want 600", out)
	}
	if _, _, err := server.ListenUnix(context.Background(), e.sock, http.NotFoundHandler()); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second server on the socket: %v", err)
	}
}

// TestEvents: a new event reaches a follower of /v1/events.
func TestEvents(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://w/v1/events", nil)
	resp, err := e.unixClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := e.s.Append(ctx, approvalEvent()); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	var got bytes.Buffer
	for !strings.Contains(got.String(), "\n\n") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if !strings.Contains(got.String(), "data: {\"seq\":1,") || !strings.Contains(got.String(), `"surface":"approval a1"`) {
		t.Errorf("the stream said %q", got.String())
	}
}

func approvalEvent() audit.Event {
	a := store.Approval{ID: "a1", State: store.Denied, Request: store.ApprovalRequest{Tool: "Bash", Subject: "git push"},
		Answer: &store.ApprovalAnswer{Answer: "deny", Reason: "no"}}
	return server.ApprovalEvent(a, time.Now())
}
