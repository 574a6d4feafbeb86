// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Architecture tests, in the style of tailscale's deptest: the decision
// engine stays free of I/O and clocks, every package has one package doc,
// and every Go file carries the licence header.
package warden_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "warden.dev/warden"

// pure lists the packages that must stay pure: no file, process, network,
// database or clock access, directly or through another Warden package.
var pure = []string{"internal/action", "internal/policy", "internal/shellparse", "internal/netpolicy"}

// ioImports are standard and third-party packages that perform I/O.
var ioImports = []string{
	"os", "os/exec", "os/user", "os/signal", "net", "net/http", "net/rpc",
	"database/sql", "io/ioutil", "syscall", "path/filepath", "embed",
	"golang.org/x/sys/unix", "log", "log/slog", "plugin", "runtime/cgo",
}

// parseDir parses the non-test Go files of one directory.
func parseDir(t *testing.T, dir string, mode parser.Mode) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func TestPurePackagesDoNoIO(t *testing.T) {
	for _, root := range pure {
		seen := map[string]bool{}
		var visit func(dir, via string)
		visit = func(dir, via string) {
			if seen[dir] {
				return
			}
			seen[dir] = true
			for _, f := range parseDir(t, dir, parser.ParseComments) {
				for _, imp := range f.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					if slices.Contains(ioImports, path) {
						t.Errorf("%s imports %s (via %s): the decision engine must not do I/O", dir, path, via)
					}
					if rest, ok := strings.CutPrefix(path, module+"/"); ok {
						visit(rest, via+" → "+rest)
					}
				}
				// Determinism: the engine is given the time, it never
				// reads the clock.
				ast.Inspect(f, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since") {
							t.Errorf("%s calls time.%s: decisions must not depend on the clock", dir, sel.Sel.Name)
						}
						if id, ok := sel.X.(*ast.Ident); ok && id.Name == "rand" {
							t.Errorf("%s uses rand: decisions must be deterministic", dir)
						}
					}
					return true
				})
			}
		}
		visit(root, root)
	}
}

// adapterIO are the Warden packages an adapter may not import: they act
// on the system (run, sandbox, proxy, serve) rather than describe it.
var adapterIO = []string{"internal/cli", "internal/sandbox", "internal/proxy", "internal/credential", "internal/dnsstub"}

// TestAdaptersDoNoIO: the agent adapters (internal/adapter and the
// packages below it) translate payloads and decisions and do no I/O of
// their own: package cli reads stdin, walks directories and writes the
// answer. Resolution through package request is theirs to call, so only
// their own imports and calls are checked.
func TestAdaptersDoNoIO(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir("internal/adapter", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 5 {
		t.Fatalf("found %d adapter packages (%v), want adapter, claudecode, codex, gemini and mcp", len(dirs), dirs)
	}
	for _, dir := range dirs {
		for _, f := range parseDir(t, dir, 0) {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if slices.Contains(ioImports, path) {
					t.Errorf("%s imports %s: an adapter does no I/O", dir, path)
				}
				if rest, ok := strings.CutPrefix(path, module+"/"); ok && slices.Contains(adapterIO, rest) {
					t.Errorf("%s imports %s: an adapter does not act on the system", dir, rest)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since") {
						t.Errorf("%s calls time.%s: the caller gives an adapter the time", dir, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}

// TestHelpersOnlyInTests: the test-helper packages (goldentest,
// proxytest, sandboxtest: a name ending in "test") import package
// testing and register flags such as -update, so only test files and
// other helpers may import them; a binary never does.
func TestHelpersOnlyInTests(t *testing.T) {
	isHelper := func(dir string) bool { return strings.HasSuffix(filepath.Base(dir), "test") }
	for _, dir := range goDirs(t) {
		if isHelper(dir) {
			continue
		}
		for _, f := range parseDir(t, dir, parser.ImportsOnly) {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if rest, ok := strings.CutPrefix(path, module+"/"); ok && isHelper(rest) {
					t.Errorf("%s imports the test helper %s outside a test", dir, rest)
				}
			}
		}
	}
}
