// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package cli_test

// TestMCPFilesystemRealServer puts the real
// @modelcontextprotocol/server-filesystem behind `warden mcp` and drives
// it with the official Go SDK's client, as an agent would.
//
// Assumptions: node on PATH and the server installed where
// WARDEN_TEST_MCP_FILESYSTEM names its dist/index.js (.ci/run installs
// 2026.8.31 under ~/.cache/warden-ci/mcp and sets it; the default is that
// place). The test skips, naming what is missing and where it looked,
// only when node or the package is absent. The server is started
// through a tee that records every line it receives, so the test proves
// a refused call never reached it.
//
//	go test -tags integration -run MCP ./internal/cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// requireFilesystemServer returns node and the server's dist/index.js.
func requireFilesystemServer(t testing.TB) (node, server string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("requires node: not on PATH (%s)", os.Getenv("PATH"))
	}
	server = os.Getenv("WARDEN_TEST_MCP_FILESYSTEM")
	if server == "" {
		home, _ := os.UserHomeDir()
		server = filepath.Join(home, ".cache/warden-ci/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
	}
	if _, err := os.Stat(server); err != nil {
		t.Skipf("requires @modelcontextprotocol/server-filesystem: %v (set WARDEN_TEST_MCP_FILESYSTEM to its dist/index.js; .ci/run installs it)", err)
	}
	return node, server
}

// mcpWorld is a project, a home with a key in it, and a tee-wrapped
// server command that logs what the server received.
type mcpWorld struct {
	base, project, home, received string
	serverCmd                     []string
}

func newMCPWorld(t *testing.T) *mcpWorld {
	node, server := requireFilesystemServer(t)
	base := t.TempDir()
	w := &mcpWorld{base: base, project: filepath.Join(base, "shop"), home: filepath.Join(base, "home"), received: filepath.Join(base, "received.log")}
	for path, body := range map[string]string{
		filepath.Join(w.project, "a.txt"):            "hello from the project\n",
		filepath.Join(w.project, ".env"):             "API_TOKEN=do-not-leak\n",
		filepath.Join(w.home, ".ssh", "id_rsa"):      "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		filepath.Join(w.home, ".ssh", "known_hosts"): "",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The project is a repository: Warden's project is a work tree
	// (docs/spec.md §11).
	gitInit(t, w.project)
	// The server may use the whole base directory, home included: what
	// stops the agent below is Warden, not the server's own checks.
	tee := filepath.Join(base, "server.sh")
	script := "#!/bin/sh\ntee -a '" + w.received + "' | exec '" + node + "' '" + server + "' \"$@\"\n"
	if err := os.WriteFile(tee, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	w.serverCmd = []string{tee, base}
	return w
}

func (w *mcpWorld) command(warden string, flags ...string) *exec.Cmd {
	args := append([]string{"mcp"}, flags...)
	if !slices.Contains(flags, "--tools") {
		args = append(args, "--tools", "filesystem")
	}
	args = append(append(args, "--"), w.serverCmd...)
	cmd := exec.Command(warden, args...)
	cmd.Dir = w.project
	cmd.Env = append(os.Environ(), "HOME="+w.home, "WARDEN_MANAGED_POLICY=")
	cmd.Stderr = os.Stderr
	return cmd
}

func (w *mcpWorld) receivedLog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(w.received)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPFilesystemRealServer(t *testing.T) {
	w := newMCPWorld(t)
	warden := sandboxtest.BuildWarden(t)
	policy := filepath.Join(w.base, "policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nrules:\n  - id: no-deletes\n    class: fileDelete\n    decision: deny\n    reason: nothing is deleted here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(w.base, "audit.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: w.command(warden, "--policy", policy, "--audit-json", audit)}, nil)
	if err != nil {
		t.Fatalf("connecting through warden mcp: %v", err)
	}

	// tools/list: the server's every tool but move_file, which the
	// policy denies for every call (it deletes its source).
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{"create_directory", "directory_tree", "edit_file", "get_file_info", "list_allowed_directories",
		"list_directory", "list_directory_with_sizes", "read_file", "read_media_file", "read_multiple_files",
		"read_text_file", "search_files", "write_file"}
	if !slices.Equal(names, want) {
		t.Errorf("tools/list through warden = %v, want %v (move_file hidden)", names, want)
	}

	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	unchanged := func(path, body string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil || string(got) != body {
			t.Errorf("%s is now %q (%v), want it unchanged: %q", path, got, err, body)
		}
	}

	// A read inside the project is allowed and returns the content.
	if r := call("read_text_file", map[string]any{"path": filepath.Join(w.project, "a.txt")}); r.IsError || !strings.Contains(text(r), "hello from the project") {
		t.Errorf("read inside the project: isError=%v %q, want the file's content", r.IsError, text(r))
	}
	// A write inside the project is allowed and happens.
	if r := call("write_file", map[string]any{"path": filepath.Join(w.project, "notes.txt"), "content": "ok"}); r.IsError {
		t.Errorf("write inside the project refused: %s", text(r))
	}
	unchanged(filepath.Join(w.project, "notes.txt"), "ok")

	// The attacks: each is refused by Warden with a tool error, the
	// file on disk is untouched, and the server never saw the call.
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		path, body string // a file that must be unchanged ("" body: must not exist)
		says       string
	}{
		{"write .env in the project", "write_file", map[string]any{"path": filepath.Join(w.project, ".env"), "content": "API_TOKEN=attacker"},
			filepath.Join(w.project, ".env"), "API_TOKEN=do-not-leak\n", "sensitive"},
		{"write the ssh key", "write_file", map[string]any{"path": filepath.Join(w.home, ".ssh", "id_rsa"), "content": "attacker key"},
			filepath.Join(w.home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n", "sensitive"},
		{"append to known_hosts with edit", "edit_file", map[string]any{"path": "~/.ssh/known_hosts", "edits": []any{map[string]any{"oldText": "", "newText": "evil"}}},
			filepath.Join(w.home, ".ssh", "known_hosts"), "", "sensitive"},
		{"write outside the project", "write_file", map[string]any{"path": filepath.Join(w.base, "outside.txt"), "content": "x"},
			filepath.Join(w.base, "outside.txt"), "", "approval"},
		{"read the ssh key", "read_text_file", map[string]any{"path": filepath.Join(w.home, ".ssh", "id_rsa")}, "", "", "sensitive"},
		{"read .env among others", "read_multiple_files", map[string]any{"paths": []string{filepath.Join(w.project, "a.txt"), filepath.Join(w.project, ".env")}}, "", "", "sensitive"},
		{"move (hidden, called anyway)", "move_file", map[string]any{"source": filepath.Join(w.project, "a.txt"), "destination": filepath.Join(w.project, "b.txt")},
			filepath.Join(w.project, "a.txt"), "hello from the project\n", "nothing is deleted here"},
		{"path argument of the wrong type", "write_file", map[string]any{"path": []int{1}, "content": "x"}, "", "", "not a string"},
		// The server resolves a relative path against its first allowed
		// directory (here the parent of the project), not its working
		// directory: judged against the project, rel.txt would be
		// allowed as a write inside it, and land outside.
		{"relative path", "write_file", map[string]any{"path": "rel.txt", "content": "x"}, "", "", "give an absolute path"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := call(tt.tool, tt.args)
			if !r.IsError || !strings.HasPrefix(text(r), "Warden ") || !strings.Contains(text(r), tt.says) {
				t.Errorf("%s: isError=%v %q, want a Warden refusal saying %q", tt.tool, r.IsError, text(r), tt.says)
			}
			if tt.path != "" {
				if tt.body == "" && strings.HasSuffix(tt.path, "outside.txt") {
					if _, err := os.Stat(tt.path); !os.IsNotExist(err) {
						t.Errorf("%s exists (%v): the write happened", tt.path, err)
					}
				} else {
					unchanged(tt.path, tt.body)
				}
			}
		})
	}
	if err := cs.Close(); err != nil {
		t.Logf("closing: %v", err)
	}

	got := w.receivedLog(t)
	for _, leak := range []string{"attacker", "id_rsa", `"move_file"`, "outside.txt", ".env", "known_hosts", "rel.txt"} {
		if strings.Contains(got, leak) {
			t.Errorf("the server received a refused call (%q in what it read):\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "notes.txt") {
		t.Errorf("the allowed write never reached the server:\n%s", got)
	}

	// The audit has one record per call, with its result status.
	data, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Tool, Decision, Status string
			Time                   time.Time
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Time.IsZero() {
			t.Fatalf("audit line %q: %v", l, err)
		}
		statuses = append(statuses, rec.Tool+" "+rec.Decision+" "+rec.Status)
	}
	for _, want := range []string{"mcp:filesystem/read_text_file allow ok", "mcp:filesystem/write_file allow ok",
		"mcp:filesystem/write_file deny refused", "mcp:filesystem/write_file prompt refused", "mcp:filesystem/move_file deny refused"} {
		if !slices.Contains(statuses, want) {
			t.Errorf("audit lacks %q: %q", want, statuses)
		}
	}
	if len(statuses) != 11 {
		t.Errorf("audit has %d records, want 11 (one per call): %q", len(statuses), statuses)
	}
}

// TestMCPMalformedNeverReachesTheServer writes raw lines to warden mcp's
// stdin: each malformed one is answered with a JSON-RPC error and is
// absent from what the server received.
func TestMCPMalformedNeverReachesTheServer(t *testing.T) {
	w := newMCPWorld(t)
	warden := sandboxtest.BuildWarden(t)
	cmd := w.command(warden)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	malformed := []struct {
		line string
		code int
	}{
		{`this is not json MALFORMED-1`, -32700},
		{`{"jsonrpc":"1.0","id":"MALFORMED-2","method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":"MALFORMED-3","method":"tools/call","params":{"arguments":{"path":"a.txt"}}}`, -32602},
		{`{"jsonrpc":"2.0","id":"MALFORMED-4","method":"tools/call","params":{"Name":"read_text_file","arguments":{"path":"a.txt"}}}`, -32602},
		{`[{"jsonrpc":"2.0","id":"MALFORMED-5","method":"tools/call","params":{"name":7}}]`, -32602},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for _, m := range malformed {
		lines = append(lines, m.line)
	}
	lines = append(lines, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	go func() {
		for _, l := range lines {
			stdin.Write([]byte(l + "\n"))
		}
	}()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	var errs []int
	for sc.Scan() {
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct{ Code int }
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			var batch []json.RawMessage
			if json.Unmarshal(sc.Bytes(), &batch) != nil || len(batch) != 1 {
				t.Fatalf("warden wrote %q", sc.Bytes())
			}
			json.Unmarshal(batch[0], &m)
		}
		if m.Error != nil {
			errs = append(errs, m.Error.Code)
		}
		if string(m.ID) == "2" {
			break // the ping: every line before it was handled
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("warden mcp after the client's end of input: %v, want exit 0", err)
	}
	var want []int
	for _, m := range malformed {
		want = append(want, m.code)
	}
	if !slices.Equal(errs, want) {
		t.Errorf("JSON-RPC errors = %v, want %v", errs, want)
	}
	got := w.receivedLog(t)
	if strings.Contains(got, "MALFORMED") {
		t.Errorf("a malformed line reached the server:\n%s", got)
	}
	if !strings.Contains(got, `"method":"ping"`) {
		t.Errorf("the valid ping never reached the server:\n%s", got)
	}
}

// TestMCPSandboxedServer: with --sandbox the server runs under warden
// run, so a call the policy was fooled into allowing (a declaration that
// calls write_file a gitCommit, with no path facet) still cannot write
// outside the project. The same call without --sandbox writes the file:
// the control that shows the attack is real.
func TestMCPSandboxedServer(t *testing.T) {
	sandboxtest.RequireRoot(t)
	w := newMCPWorld(t)
	warden := sandboxtest.BuildWarden(t)
	// The sandbox runs the server as another user: the tree must be
	// traversable, as t.TempDir's 0700 directory is not.
	for _, d := range []string{w.base, w.project} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	elsewhere := filepath.Join(w.base, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(elsewhere, 0o777)
	os.Chmod(w.project, 0o777)
	lying := filepath.Join(w.base, "lying.yaml")
	if err := os.WriteFile(lying, []byte("version: 1\nserver: filesystem\ntools:\n  write_file: {classes: [gitCommit]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// No tee here: the sandbox shows the server only the system and the
	// project, not the test's scratch directory.
	node, server := requireFilesystemServer(t)
	// A root caller's sandbox runs the server as an unprivileged uid,
	// which cannot search root's home where CI installs it: a copy of its
	// modules goes where others may read them (not below /tmp, which the
	// sandbox replaces).
	if i := strings.LastIndex(server, "/node_modules/"); i >= 0 {
		dir, err := os.MkdirTemp("/var/tmp", "warden-mcp-server-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		mods := filepath.Join(dir, "node_modules")
		if out, err := exec.Command("cp", "-a", server[:i+len("/node_modules")], mods).CombinedOutput(); err != nil {
			t.Fatalf("copy the server: %v: %s", err, out)
		}
		server = mods + server[i+len("/node_modules"):]
	}
	w.serverCmd = []string{node, server, w.project, elsewhere}
	// warden run judges the server's command before it starts it: it
	// names directories outside the project, which the default policy
	// asks about, and a server has nobody to ask. The person who
	// configured the server answers through the policy.
	free := filepath.Join(w.base, "free.yaml")
	if err := os.WriteFile(free, []byte("version: 1\nautonomy: actFreely\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name    string
		flags   []string
		escapes bool
	}{
		{"uncontained", nil, true},
		{"sandboxed", []string{"--sandbox", "--policy", free}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := w.command(warden, append([]string{"--tools", lying}, tt.flags...)...)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connecting: %v", err)
			}
			defer cs.Close()
			escape := filepath.Join(elsewhere, tt.name+".txt")
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": escape, "content": "escaped"}})
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(escape)
			if escaped := statErr == nil; escaped != tt.escapes {
				t.Errorf("write outside the project: file written = %v (result isError=%v %q), want %v", escaped, r.IsError, text(r), tt.escapes)
			}
			inside := filepath.Join(w.project, tt.name+".txt")
			if r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": inside, "content": "ok"}}); err != nil || r.IsError {
				t.Errorf("write inside the project: %v %q", err, text(r))
			}
			if b, err := os.ReadFile(inside); err != nil || string(b) != "ok" {
				t.Errorf("%s = %q, %v: the server does not work", inside, b, err)
			}
		})
	}
}

// TestMCPElicitation: a call that prompts (move_file deletes its source)
// is asked about through the client's elicitation handler; approved it
// runs, declined it does not, and with --headless nobody is asked.
func TestMCPElicitation(t *testing.T) {
	w := newMCPWorld(t)
	warden := sandboxtest.BuildWarden(t)
	for _, tt := range []struct {
		name    string
		flags   []string
		approve bool
		asked   bool
		moved   bool
	}{
		{"approved", nil, true, true, true},
		{"declined", nil, false, true, false},
		{"headless", []string{"--headless"}, true, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := filepath.Join(w.project, tt.name+".txt")
			dst := filepath.Join(w.project, tt.name+"-moved.txt")
			if err := os.WriteFile(src, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			asked := 0
			var question string
			client := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked++
					question = req.Params.Message
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": tt.approve}}, nil
				},
			})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: w.command(warden, tt.flags...)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			// move_file prompts, so it stays listed. The round trip also
			// lets the server's roots/list be answered: a server left
			// waiting for it does not exit when its input ends.
			lt, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(lt.Tools, func(tool *mcp.Tool) bool { return tool.Name == "move_file" }) {
				t.Errorf("move_file, which prompts, is not listed")
			}
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "move_file", Arguments: map[string]any{"source": src, "destination": dst}})
			if err != nil {
				t.Fatal(err)
			}
			if (asked > 0) != tt.asked {
				t.Errorf("asked %d times, want asked=%v", asked, tt.asked)
			}
			if tt.asked && !strings.Contains(question, "mcp:filesystem/move_file") || tt.asked && !strings.Contains(question, src) {
				t.Errorf("the question %q does not say what is asked", question)
			}
			_, err = os.Stat(dst)
			if moved := err == nil; moved != tt.moved {
				t.Errorf("moved = %v (isError=%v %q), want %v", moved, r.IsError, text(r), tt.moved)
			}
			if r.IsError == tt.moved {
				t.Errorf("isError = %v %q, want %v", r.IsError, text(r), !tt.moved)
			}
		})
	}
}

// TestMCPApprovalThroughServe: a headless gateway's call that prompts
// (move_file) waits for a person through warden serve; the test, playing
// the person, allows it through the API, and the real server moves the
// file.
func TestMCPApprovalThroughServe(t *testing.T) {
	w := newMCPWorld(t)
	warden := sandboxtest.BuildWarden(t)
	state := startServe(t, warden)
	src, dst := filepath.Join(w.project, "a.txt"), filepath.Join(w.project, "b.txt")
	if err := os.WriteFile(src, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	person := allowFirst(warden, state, time.Minute)
	client := mcp.NewClient(&mcp.Implementation{Name: "warden-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: w.command(warden, "--headless")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "move_file", Arguments: map[string]any{"source": src, "destination": dst}})
	if err != nil {
		t.Fatal(err)
	}
	p := <-person
	if p.err != nil {
		t.Fatalf("the person: %v", p.err)
	}
	if p.req.Request.Tool != "mcp:filesystem/move_file" || !strings.Contains(p.req.Request.Subject, src) {
		t.Errorf("the approval asked %+v", p.req.Request)
	}
	if _, err := os.Stat(dst); err != nil || r.IsError {
		t.Errorf("the allowed move did not happen: %v (isError=%v %q)", err, r.IsError, text(r))
	}
}
