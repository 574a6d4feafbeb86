// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/request"
)

func TestParseDeclaration(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      *mcp.Declaration
		err       string
	}{
		{name: "full", src: "version: 1\nserver: fs\ntools:\n  read: {as: read_file, paths: [path, more]}\n  fetch: {as: web_fetch, url: url}\n  issue: {classes: [vendorSyncWrite]}\n",
			want: &mcp.Declaration{Server: "fs", Tools: map[string]mcp.Tool{
				"read":  {As: "read_file", Paths: []string{"path", "more"}},
				"fetch": {As: "web_fetch", URL: "url"},
				"issue": {Classes: []string{"vendorSyncWrite"}},
			}}},
		{name: "no tools", src: "version: 1\n", want: &mcp.Declaration{Tools: map[string]mcp.Tool{}}},
		{name: "relative deny", src: "version: 1\nrelative: deny\n", want: &mcp.Declaration{Tools: map[string]mcp.Tool{}, DenyRelative: true}},
		{name: "relative cwd", src: "version: 1\nrelative: cwd\n", want: &mcp.Declaration{Tools: map[string]mcp.Tool{}}},
		{name: "relative other", src: "version: 1\nrelative: roots\n", err: `t.yaml:2:11: relative must be cwd or deny, not "roots"`},
		{name: "null tools", src: "version: 1\ntools:\n", want: &mcp.Declaration{Tools: map[string]mcp.Tool{}}},
		{name: "empty", src: "", err: "t.yaml:1:1: missing version (want version: 1)"},
		{name: "no version", src: "tools: {}\n", err: "t.yaml:1:1: missing version (want version: 1)"},
		{name: "bad version", src: "version: 2\n", err: `t.yaml:1:10: unsupported version "2" (want version: 1)`},
		{name: "unknown key", src: "version: 1\nservers: x\n", err: `t.yaml:2:1: unknown key "servers" in declaration file (want version, server, relative, tools)`},
		{name: "unknown tool key", src: "version: 1\ntools:\n  x: {as: read_file, path: [p]}\n", err: `t.yaml:3:22: unknown key "path" in tool "x" (want as, classes, paths, url)`},
		{name: "duplicate tool", src: "version: 1\ntools:\n  x: {}\n  x: {}\n", err: `t.yaml:4:3: duplicate key "x" in tools (first at 3:3)`},
		{name: "unknown as", src: "version: 1\ntools:\n  x: {as: reed_file}\n", err: `t.yaml:3:11: tool "x": as names "reed_file", not a Warden tool`},
		{name: "as bash", src: "version: 1\ntools:\n  x: {as: bash}\n", err: `t.yaml:3:11: tool "x": as names "bash", not a Warden tool`},
		{name: "unknown class", src: "version: 1\ntools:\n  x: {classes: [gitPsh]}\n", err: `t.yaml:3:17: tool "x": unknown class "gitPsh"`},
		{name: "paths without as", src: "version: 1\ntools:\n  x: {paths: [p]}\n", err: `t.yaml:3:6: tool "x": paths need as`},
		{name: "paths not a list", src: "version: 1\ntools:\n  x: {as: read_file, paths: p}\n", err: `t.yaml:3:29: tool "x": paths must be a list of strings, not a string`},
		{name: "path twice", src: "version: 1\ntools:\n  x: {as: read_file, paths: [p, p]}\n", err: `t.yaml:3:33: tool "x": paths lists "p" twice`},
		{name: "url number", src: "version: 1\ntools:\n  x: {as: web_fetch, url: 7}\n", err: `t.yaml:3:27: tool "x": url must be a string, not an integer`},
		{name: "server slash", src: "version: 1\nserver: a/b\n", err: `t.yaml:2:9: server "a/b" must not hold '/', ':' or white space`},
		{name: "two documents", src: "version: 1\n---\nversion: 1\n", err: "t.yaml:2:1: declaration file holds more than one YAML document"},
		{name: "not a mapping", src: "- 1\n", err: "t.yaml:1:1: declaration file must be a mapping, not a list"},
		{name: "malformed", src: "version: 1\ntools: {x: [}\n", err: "t.yaml:1:1: malformed YAML: did not find expected node content"},
		{name: "not UTF-8", src: "version: 1\nserver: \xff\n", err: "t.yaml:2:9: declaration file is not valid UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcp.ParseDeclaration("t.yaml", []byte(tt.src))
			if tt.err != "" {
				if err == nil || !startsWith(err.Error(), tt.err) {
					t.Fatalf("ParseDeclaration(%q) = %v, want an error starting %q", tt.src, err, tt.err)
				}
				if got != nil {
					t.Errorf("ParseDeclaration(%q) returned a declaration with its error", tt.src)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseDeclaration(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// filesystemTools is the tools/list of
// @modelcontextprotocol/server-filesystem 2026.8.31, the version .ci/run
// installs; the integration test checks it against the server itself.
var filesystemTools = []string{
	"read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file", "edit_file",
	"create_directory", "list_directory", "list_directory_with_sizes", "directory_tree", "move_file",
	"search_files", "get_file_info", "list_allowed_directories",
}

func TestBuiltinFilesystemCoversTheServer(t *testing.T) {
	d, ok := mcp.Builtin("filesystem")
	if !ok {
		t.Fatal(`Builtin("filesystem") is missing`)
	}
	var names []string
	for n := range d.Tools {
		names = append(names, n)
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(filesystemTools)), slices.Sorted(slices.Values(names))); diff != "" {
		t.Errorf("built-in filesystem declaration (-server's tools +declared):\n%s", diff)
	}
	if _, ok := mcp.Builtin("nope"); ok {
		t.Error(`Builtin("nope") found something`)
	}
}

func TestBuiltinFor(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/p"}, "filesystem"},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/p"}, "filesystem"},
		{[]string{"node", "/x/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "/p"}, "filesystem"},
		{[]string{"mcp-server-filesystem", "/p"}, "filesystem"},
		{[]string{"node", "server.js"}, ""},
	} {
		if got, _ := mcp.BuiltinFor(tt.argv); got != tt.want {
			t.Errorf("BuiltinFor(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}

func TestRequest(t *testing.T) {
	decl, _ := mcp.Builtin("filesystem")
	for _, tt := range []struct {
		tool, args string
		want       *request.Request
		err        string
	}{
		{tool: "read_text_file", args: `{"path":"/p/a.txt","head":3}`, want: &request.Request{Tool: "read_file", Paths: []string{"/p/a.txt"}}},
		{tool: "read_multiple_files", args: `{"paths":["/p/a","~/b"]}`, want: &request.Request{Tool: "read_file", Paths: []string{"/p/a", "~/b"}}},
		{tool: "move_file", args: `{"source":"/p/a","destination":"/p/b"}`, want: &request.Request{Tool: "write_file", Classes: []string{"fileDelete"}, Paths: []string{"/p/a", "/p/b"}}},
		{tool: "write_file", args: `{"path":"notes.txt"}`, err: `path "notes.txt" is relative, and this server resolves relative paths against its own directories, which Warden cannot see: give an absolute path`},
		{tool: "read_multiple_files", args: `{"paths":["/p/a","~root/.ssh/id_rsa"]}`, err: `path "~root/.ssh/id_rsa" is relative, and this server resolves relative paths against its own directories, which Warden cannot see: give an absolute path`},
		{tool: "list_allowed_directories", args: `{}`, want: &request.Request{Tool: "list_dir"}},
		{tool: "unknown", args: `{"path":"/etc/passwd"}`, want: &request.Request{Tool: "mcp:filesystem/unknown"}},
		{tool: "move_file", args: `{"source":"/p/a"}`, err: `argument "destination", which the declaration says holds a path, is missing`},
		{tool: "write_file", args: `{"path":null}`, err: `argument "path", which the declaration says holds a path, is missing`},
		{tool: "write_file", args: `{"path":{"p":"a"}}`, err: `argument "path", which the declaration says holds a path, is not a string or a list of strings`},
		{tool: "read_multiple_files", args: `{"paths":["/p/a",""]}`, err: `argument "paths", which the declaration says holds paths, holds an empty path`},
	} {
		var args map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
			t.Fatal(err)
		}
		got, err := decl.Request("filesystem", tt.tool, args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Request(%s, %s) = %v, want error %q", tt.tool, tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Request(%s, %s): %v", tt.tool, tt.args, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Request(%s, %s) (-want +got):\n%s", tt.tool, tt.args, diff)
		}
	}
	web := &mcp.Declaration{Tools: map[string]mcp.Tool{"fetch": {As: "web_fetch", URL: "url"}}}
	got, err := web.Request("web", "fetch", map[string]json.RawMessage{"url": json.RawMessage(`"https://example.com/x"`)})
	if err != nil || got.URL != "https://example.com/x" || got.Tool != "web_fetch" {
		t.Errorf("Request(fetch) = %+v, %v", got, err)
	}
	if _, err := web.Request("web", "fetch", map[string]json.RawMessage{"url": json.RawMessage(`7`)}); err == nil {
		t.Error("Request(fetch, url 7) succeeded")
	}
	var none *mcp.Declaration
	if got, err := none.Request("s", "t", nil); err != nil || got.Tool != "mcp:s/t" {
		t.Errorf("nil declaration: Request = %+v, %v", got, err)
	}
}
