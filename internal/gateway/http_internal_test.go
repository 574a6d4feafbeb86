// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"warden.dev/warden/internal/config"
)

type pathArgs struct {
	Path        string `json:"path,omitempty"`
	Content     string `json:"content,omitempty"`
	Source      string `json:"source,omitempty"`
	Destination string `json:"destination,omitempty"`
}

// TestMCPHTTPGateway puts warden's streamable-HTTP gateway between the Go
// SDK's client and an SDK server: tools/list filtered, refused calls
// answered without reaching the server's tool, allowed ones run, a
// malformed body answered and never forwarded, a foreign Origin refused.
func TestMCPHTTPGateway(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "shop")
	os.MkdirAll(project, 0o755)
	policyPath := filepath.Join(dir, "policy.yaml")
	os.WriteFile(policyPath, []byte("version: 1\nrules: [{id: no-deletes, class: fileDelete, decision: deny}]\n"), 0o600)

	// The upstream: an SDK server whose tools only count their calls.
	var mu sync.Mutex
	ran := map[string]int{}
	var bodies []string
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	for _, name := range []string{"read_text_file", "write_file", "move_file"} {
		mcp.AddTool(s, &mcp.Tool{Name: name}, func(ctx context.Context, req *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			ran[name]++
			mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + name + " " + in.Path}}}, nil, nil
		})
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		sdk.ServeHTTP(w, r)
	}))
	defer upstream.Close()

	lp, err := config.Load(policyPath, config.Options{Home: filepath.Join(dir, "home")})
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(Options{Policy: lp, Tools: "filesystem", Name: "fs", Project: project, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	auditPath := filepath.Join(dir, "audit.jsonl")
	rec, err := openRecorder(auditPath, nil, func(msg string) { t.Errorf("warning: %s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer rec.close()
	up, _ := url.Parse(upstream.URL)
	gw := httptest.NewServer(g.handler(rec, up, upstream.Client()))
	defer gw.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: gw.URL}, nil)
	if err != nil {
		t.Fatalf("connecting through the gateway: %v", err)
	}
	defer cs.Close()

	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"read_text_file", "write_file"}; !slices.Equal(names, want) {
		t.Errorf("tools/list = %v, want %v (move_file denied by policy)", names, want)
	}

	call := func(name string, args pathArgs) *mcp.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	textOf := func(r *mcp.CallToolResult) string {
		if len(r.Content) == 0 {
			return ""
		}
		tc, _ := r.Content[0].(*mcp.TextContent)
		if tc == nil {
			return ""
		}
		return tc.Text
	}
	if r := call("read_text_file", pathArgs{Path: filepath.Join(project, "a.txt")}); r.IsError || !strings.HasPrefix(textOf(r), "ran read_text_file") {
		t.Errorf("allowed read: isError=%v %q", r.IsError, textOf(r))
	}
	for _, tt := range []struct {
		tool string
		args pathArgs
		says string
	}{
		{"write_file", pathArgs{Path: filepath.Join(project, ".env"), Content: "x"}, "sensitive"},
		{"write_file", pathArgs{Path: filepath.Join(dir, "outside"), Content: "x"}, "approval"},
		{"move_file", pathArgs{Source: filepath.Join(project, "a"), Destination: filepath.Join(project, "b")}, "no-deletes"},
	} {
		if r := call(tt.tool, tt.args); !r.IsError || !strings.Contains(textOf(r), tt.says) {
			t.Errorf("%s %+v: isError=%v %q, want a refusal saying %q", tt.tool, tt.args, r.IsError, textOf(r), tt.says)
		}
	}
	mu.Lock()
	if ran["write_file"] != 0 || ran["move_file"] != 0 || ran["read_text_file"] != 1 {
		t.Errorf("the upstream's tools ran %v, want read_text_file once and nothing else", ran)
	}
	mu.Unlock()

	// Raw requests: a malformed body is answered by warden and never
	// forwarded; a foreign Origin is refused before anything.
	post := func(body, origin string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, gw.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(`{"jsonrpc":"2.0","id":"MALFORMED","method":"tools/call","params":{}}`, ""); code != 200 || !strings.Contains(body, "-32602") {
		t.Errorf("malformed POST: %d %s, want a -32602 error", code, body)
	}
	if code, body := post(`not json MALFORMED`, ""); code != 200 || !strings.Contains(body, "-32700") {
		t.Errorf("malformed POST: %d %s, want a -32700 error", code, body)
	}
	if code, _ := post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("POST from a foreign Origin: %d, want 403", code)
	}
	if code, _ := post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "http://localhost:3000"); code == http.StatusForbidden {
		t.Errorf("POST from a loopback Origin refused")
	}
	mu.Lock()
	for _, b := range bodies {
		if strings.Contains(b, "MALFORMED") || strings.Contains(b, ".env") || strings.Contains(b, "move_file") {
			t.Errorf("the upstream received %s", b)
		}
	}
	mu.Unlock()

	cs.Close()
	data, _ := os.ReadFile(auditPath)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Tool, Decision, Status string }
		json.Unmarshal([]byte(l), &rec)
		got = append(got, rec.Tool+" "+rec.Decision+" "+rec.Status)
	}
	want := []string{"mcp:fs/read_text_file allow ok", "mcp:fs/write_file deny refused", "mcp:fs/write_file prompt refused", "mcp:fs/move_file deny refused"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("audit = %q, want %q", got, want)
	}
}

func TestLoopbackChecks(t *testing.T) {
	for _, tt := range []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"[::1]", true}, {"::1", true}, {"localhost", true}, {"LOCALHOST.", true}, {"127.9.9.9", true},
		{"", false}, {"0.0.0.0", false}, {"10.0.0.1", false}, {"localhost.evil.example", false}, {"evil.example", false},
	} {
		if got := loopbackHost(tt.host); got != tt.want {
			t.Errorf("loopbackHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
	for _, tt := range []struct {
		origin string
		want   bool
	}{
		{"", true}, {"http://localhost:6274", true}, {"https://127.0.0.1", true},
		{"null", false}, {"http://evil.example", false}, {"file://localhost", false}, {"http://127.0.0.1.evil.example", false},
	} {
		if got := loopbackOrigin(tt.origin); got != tt.want {
			t.Errorf("loopbackOrigin(%q) = %v, want %v", tt.origin, got, tt.want)
		}
	}
}
