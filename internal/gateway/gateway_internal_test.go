// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
)

func defaultPolicy(t *testing.T) *config.Policy {
	t.Helper()
	lp, err := config.Load("", config.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

// TestNewName: the server's name is --name, else the declaration's
// server, else the command's base name without its extension, else
// "upstream"; a name that would make tool names ambiguous is refused.
func TestNewName(t *testing.T) {
	lp := defaultPolicy(t)
	for _, tt := range []struct {
		name, tools, flag string
		command           []string
		want, wantErr     string
	}{
		{name: "flag", flag: "fs", command: []string{"srv"}, want: "fs"},
		{name: "declaration", tools: "filesystem", command: []string{"srv"}, want: "filesystem"},
		{name: "built-in by command", command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/p"}, want: "filesystem"},
		{name: "command", command: []string{"/usr/bin/my-server.py", "--stdio"}, want: "my-server"},
		{name: "upstream", want: "upstream"},
		{name: "slash", flag: "a/b", wantErr: `--name "a/b" must not hold '/', ':' or white space`},
		{name: "space", flag: "a b", wantErr: `--name "a b" must not hold '/', ':' or white space`},
		{name: "unknown built-in", tools: "nope", wantErr: `--tools: no built-in declaration "nope" (built in: filesystem; a file name needs a '.' or '/')`},
		{name: "missing file", tools: "./missing.yaml", wantErr: "--tools: open ./missing.yaml: no such file or directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(Options{Policy: lp, Tools: tt.tools, Name: tt.flag, Command: tt.command, Project: "/p", Dir: "/p"})
			var ge *Error
			switch {
			case tt.wantErr != "":
				if !errors.As(err, &ge) || err.Error() != tt.wantErr {
					t.Errorf("New = %#v, want *Error %q", err, tt.wantErr)
				}
			case err != nil:
				t.Errorf("New: %v", err)
			case g.gate.Server != tt.want:
				t.Errorf("server name = %q, want %q", g.gate.Server, tt.want)
			}
		})
	}
}

// TestRunStdioExit: the gateway's exit is the server's, 128+signal when
// a signal killed it.
func TestRunStdioExit(t *testing.T) {
	g, err := New(Options{Policy: defaultPolicy(t), Command: []string{"sh"}, Project: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		script string
		want   int
	}{
		{"exit 0", 0},
		{"exit 3", 3},
		{"kill -TERM $$", 128 + 15},
	} {
		var stdout, stderr bytes.Buffer
		err := g.RunStdio(context.Background(), []string{"sh", "-c", tt.script}, strings.NewReader(""), &stdout, &stderr)
		got := 0
		var ee *ExitError
		if errors.As(err, &ee) {
			got = ee.Status
		} else if err != nil {
			t.Fatalf("RunStdio(%q): %v", tt.script, err)
		}
		if got != tt.want {
			t.Errorf("RunStdio(%q) exits %d, want %d", tt.script, got, tt.want)
		}
	}
	if err := g.RunStdio(context.Background(), []string{filepath.Join(t.TempDir(), "missing")}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.HasPrefix(err.Error(), "starting the server: ") {
		t.Errorf("RunStdio(missing) = %v, want an error starting the server", err)
	}
}

// TestRecorderWarnsOnce: a record that cannot be written is warned about
// once, through the caller's function, and the gateway goes on.
func TestRecorderWarnsOnce(t *testing.T) {
	var warnings []string
	r, err := openRecorder(filepath.Join(t.TempDir(), "audit.jsonl"), nil, func(msg string) { warnings = append(warnings, msg) })
	if err != nil {
		t.Fatal(err)
	}
	r.close() // every write fails from now on
	r.record([]audit.MCPCall{{Server: "fs", Tool: "mcp:fs/a"}, {Server: "fs", Tool: "mcp:fs/b"}})
	r.record([]audit.MCPCall{{Server: "fs", Tool: "mcp:fs/c"}})
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "--audit-json: ") || !strings.HasSuffix(warnings[0], " (later records are lost too)") {
		t.Errorf("warnings = %q, want one about --audit-json", warnings)
	}
	if _, err := openRecorder(filepath.Join(t.TempDir(), "no", "audit.jsonl"), nil, nil); err == nil || !strings.HasPrefix(err.Error(), "--audit-json: ") {
		t.Errorf("openRecorder(missing dir) = %v, want an --audit-json error", err)
	}
}
