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
var pure = []string{"internal/action", "internal/policy", "internal/shellparse", "internal/netpolicy", "internal/yamldoc", "internal/governance", "internal/config/openshell"}

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
// their own: package hook runs the pipeline around them (state, the
// walk below a recursive read). Resolution through package request is theirs to call, so only
// their own imports and calls are checked.
func TestAdaptersDoNoIO(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir("internal/adapter", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasSuffix(d.Name(), "test")) {
			// Test data, and test helpers (adaptertest), which run
			// adapters rather than being one.
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

// imports returns the Warden packages that the non-test files of dir
// import, without the module prefix.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, f := range parseDir(t, dir, parser.ImportsOnly) {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, module+"/"); ok && !slices.Contains(out, rest) {
				out = append(out, rest)
			}
		}
	}
	return out
}

// packages lists every package directory of the module but testdata.
func packages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, root := range []string{"cmd", "internal", "bench"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() {
				if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
					dirs = append(dirs, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestLayers: the import graph's rules that keep the house in order.
//   - Only cmd/warden imports internal/cli: cli is wiring, and nothing
//     below it reaches back up.
//   - internal/audit is a leaf: every package that produces a record can
//     import it, so it imports no Warden package but internal/jsonw,
//     which imports none.
//   - Test helpers (a package named …test) are imported by tests only.
//   - The engine and the file format below the wiring (hook, config,
//     egress) import no cli.
func TestLayers(t *testing.T) {
	for _, dir := range packages(t) {
		for _, imp := range imports(t, dir) {
			if imp == "internal/cli" && dir != "cmd/warden" {
				t.Errorf("%s imports internal/cli: only cmd/warden may", dir)
			}
			if strings.HasSuffix(imp, "test") && !strings.HasSuffix(dir, "test") {
				t.Errorf("%s imports the test helper %s outside its tests", dir, imp)
			}
		}
	}
	if got := imports(t, "internal/audit"); len(got) > 1 || len(got) == 1 && got[0] != "internal/jsonw" {
		t.Errorf("internal/audit imports %v: the record is a leaf every producer can import", got)
	}
	if got := imports(t, "internal/jsonw"); len(got) > 0 {
		t.Errorf("internal/jsonw imports %v: the record's encoder imports no Warden package", got)
	}
}

// egressNot are the Warden packages the egress (a run's proxy, DNS stub
// and CA) may not reach, directly or through another Warden package: it
// takes its policy compiled and its paths from its caller, and returns
// plain errors that cli maps to exit statuses.
var egressNot = []string{"internal/cli", "internal/policyfile"}

// TestEgressImportsNoCLI: package egress stands below the CLI, not beside
// it.
func TestEgressImportsNoCLI(t *testing.T) {
	seen := map[string]bool{}
	var visit func(dir, via string)
	visit = func(dir, via string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		for _, f := range parseDir(t, dir, 0) {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rest, ok := strings.CutPrefix(path, module+"/")
				if !ok {
					continue
				}
				if slices.Contains(egressNot, rest) {
					t.Errorf("%s imports %s (via %s): the egress takes plain inputs from the CLI", dir, rest, via)
				}
				visit(rest, via+" → "+rest)
			}
		}
	}
	visit("internal/egress", "internal/egress")
	if !seen["internal/netpolicy"] || !seen["internal/proxy"] {
		t.Errorf("internal/egress reaches %v: want netpolicy and proxy among them", seen)
	}
}

// TestPublicAPIImportsNoCLI: package warden, the Go API at the module
// root, stands beside the CLI, not on it: it reaches no internal/cli (so
// no flags, no exit statuses, no printing of errors), directly or through
// another Warden package, and no test helper. It does I/O (resolving
// paths, running the sandbox), so it is not in the pure list; the engine
// it decides with is.
func TestPublicAPIImportsNoCLI(t *testing.T) {
	seen := map[string]bool{}
	var visit func(dir, via string)
	visit = func(dir, via string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		for _, imp := range imports(t, dir) {
			if imp == "internal/cli" || strings.HasSuffix(imp, "test") {
				t.Errorf("%s imports %s (via %s): the Go API does not reach the CLI or a test helper", dir, imp, via)
			}
			visit(imp, via+" → "+imp)
		}
	}
	visit(".", "warden")
	for _, want := range []string{"internal/policy", "internal/shellparse", "internal/contain"} {
		if !seen[want] {
			t.Errorf("package warden does not reach %s: want the one engine, shell analysis and sandbox behind the CLI", want)
		}
	}
}
