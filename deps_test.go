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

// TestAdaptersDoNoIO: the adapters under internal/adapter translate and
// do no I/O themselves; package cli does it for them. Their own imports
// are checked (package request, which they build requests with, resolves
// paths only when cli asks it to).
func TestAdaptersDoNoIO(t *testing.T) {
	dirs := []string{"internal/adapter"}
	entries, err := os.ReadDir("internal/adapter")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, filepath.Join("internal/adapter", e.Name()))
		}
	}
	for _, dir := range dirs {
		for _, f := range parseDir(t, dir, parser.ImportsOnly) {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if slices.Contains(ioImports, path) {
					t.Errorf("%s imports %s: adapters must not do I/O (package cli does it)", dir, path)
				}
				if rest, ok := strings.CutPrefix(path, module+"/"); ok && slices.Contains(adapterIO, rest) {
					t.Errorf("%s imports %s: adapters must not act on the system", dir, rest)
				}
			}
		}
	}
}
