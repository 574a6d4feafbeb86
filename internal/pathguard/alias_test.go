// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

// aliasTree is newTree plus aliases of the project outside it:
//
//	root/links/proj   -> root/project             a link to the project
//	root/links/src    -> root                     a link to its parent (~/src -> /data/src)
//	root/links/inside -> root/project/a/b         a link into the project
//	root/links/chain1 -> chain2 -> root/project   a chain of links
//	root/links/round  -> root/outside/../project  out and back in
//	root/links/out    -> root/project/evil        through the project and out
//	root/links/twin   -> root/project-evil        a look-alike
func aliasTree(t testing.TB) tree {
	t.Helper()
	tr := newTree(t)
	links := filepath.Join(tr.root, "links")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ name, target string }{
		{"proj", tr.project},
		{"src", tr.root},
		{"inside", tr.project + "/a/b"},
		{"chain1", "chain2"},
		{"chain2", tr.project},
		{"round", tr.root + "/outside/../project"},
		{"out", tr.project + "/evil"},
		{"twin", tr.root + "/project-evil"},
	} {
		if err := os.Symlink(l.target, filepath.Join(links, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// TestResolveAlias checks, with real links, that a path reaching the
// project through an alias is spelt under the project (InLexical,
// InResolved), and so inside it as the engine judges, while a path that
// only looks inside, or leaves the project again, stays outside or
// sensitive.
func TestResolveAlias(t *testing.T) {
	tr := aliasTree(t)
	root, home, proj := tr.root, tr.home, tr.project
	l := root + "/links"
	for _, tt := range []struct {
		name     string
		raw      string
		wantLex  string
		wantRes  string
		inside   bool
		wantSens string
	}{
		// Aliases.
		{name: "link to the project", raw: l + "/proj/notes.txt",
			wantLex: proj + "/notes.txt", inside: true},
		{name: "link to the project's parent", raw: l + "/src/project/new/file.go",
			wantLex: proj + "/new/file.go", inside: true},
		{name: "link into the project", raw: l + "/inside/c/f",
			wantLex: proj + "/a/b/c/f", inside: true},
		{name: "chain of links to the project", raw: l + "/chain1/a/b/c/f",
			wantLex: proj + "/a/b/c/f", inside: true},
		{name: "link out and back in", raw: l + "/round/notes.txt",
			wantLex: proj + "/notes.txt", inside: true},
		{name: "the project itself through a link", raw: l + "/proj",
			wantLex: proj, inside: true},
		{name: "link to the project, then a link inside it", raw: l + "/proj/link-abc/f",
			wantLex: proj + "/link-abc/f", inside: true},
		{name: "proc self root", raw: "/proc/self/root" + proj + "/notes.txt",
			wantLex: proj + "/notes.txt", inside: true},
		{name: "proc thread-self root", raw: "/proc/thread-self/root" + proj + "/new.go",
			wantLex: proj + "/new.go", inside: true},
		{name: "root of the agent's pid", raw: "/proc/4242/root" + proj + "/notes.txt",
			wantLex: proj + "/notes.txt", inside: true},
		{name: "proc self root through a link", raw: "/proc/self/root" + l + "/proj/notes.txt",
			wantLex: proj + "/notes.txt", inside: true},

		// The agent's working directory is resolved to Cwd for the
		// floor, but it is never an alias: the process that opens the
		// path may not be where Cwd says (a cd before it in a shell
		// command, an agent CLI whose own cwd is not the tool call's).
		{name: "proc self cwd", raw: "/proc/self/cwd/notes.txt"},
		{name: "proc thread-self cwd", raw: "/proc/thread-self/cwd/new.go"},
		{name: "cwd of the agent's pid", raw: "/proc/4242/cwd/notes.txt"},
		{name: "proc self root, then proc self cwd", raw: "/proc/self/root/proc/self/cwd/notes.txt"},
		{name: "proc self cwd and .env", raw: "/proc/self/cwd/.env", wantSens: ".env"},
		{name: "double slashes", raw: "/" + root + "//project//notes.txt", inside: true},
		{name: "dir/../project", raw: root + "/outside/../project/notes.txt", inside: true},

		// What looks inside and is not.
		{name: "alias, then a link out of the project", raw: l + "/proj/evil/x",
			wantLex: proj + "/evil/x"},
		{name: "alias, then a link to .ssh", raw: l + "/proj/sshlink/config",
			wantLex: proj + "/sshlink/config", wantSens: ".ssh/"},
		{name: "alias, then a link to a key", raw: l + "/proj/key",
			wantLex: proj + "/key", wantSens: ".ssh/"},
		{name: "alias, then a dangling link out", raw: l + "/proj/dangling-abs",
			wantLex: proj + "/dangling-abs"},
		{name: "alias, then dotdot out", raw: l + "/proj/../outside/plain.txt"},
		{name: "alias of the parent, then dotdot out", raw: l + "/src/project/../outside/plain.txt"},
		{name: "through the project and out", raw: l + "/out/x"},
		{name: "look-alike", raw: l + "/twin/x"},
		{name: "proc self cwd dotdot", raw: "/proc/self/cwd/../outside/plain.txt"},
		{name: "proc self cwd and a link to .ssh", raw: "/proc/self/cwd/sshlink/config",
			wantSens: ".ssh/"},
		{name: "proc self fd", raw: "/proc/self/fd/3"},
		{name: "dotdot after a link into the project", raw: l + "/inside/../x"},
		{name: ".env through an alias", raw: l + "/proj/.env",
			wantLex: proj + "/.env", inside: true, wantSens: ".env"},
		{name: "home is not the project", raw: home + "/notes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &pathguard.Resolver{Home: home, Cwd: proj, PID: 4242, Project: proj}
			got := r.Resolve(tt.raw, action.Write)
			if got.Err != "" {
				t.Fatalf("Resolve(%q).Err = %q", tt.raw, got.Err)
			}
			type forms struct{ InLexical, InResolved, Sensitive string }
			if diff := cmp.Diff(forms{tt.wantLex, tt.wantRes, tt.wantSens}, forms{got.InLexical, got.InResolved, got.Sensitive}); diff != "" {
				t.Errorf("Resolve(%q) = %+v\nmismatch (-want +got):\n%s", tt.raw, got, diff)
			}
			lex, res := got.InProject()
			if in := action.Within(proj, lex) && action.Within(proj, res); in != tt.inside {
				t.Errorf("Resolve(%q) = %+v: inside the project = %v, want %v", tt.raw, got, in, tt.inside)
			}
		})
	}
}

// TestResolveAliasProject checks that the project may itself be given
// through an alias: it is resolved, and what reaches it is spelt under
// its real path. A Resolver without a project spells nothing.
func TestResolveAliasProject(t *testing.T) {
	tr := aliasTree(t)
	link := tr.root + "/links/proj"
	r := &pathguard.Resolver{Home: tr.home, Cwd: link, Project: link}
	got := r.Resolve("notes.txt", action.Write)
	if got.Lexical != link+"/notes.txt" || got.InLexical != tr.project+"/notes.txt" || got.Resolved != tr.project+"/notes.txt" {
		t.Errorf("Resolve(notes.txt) in %s = %+v, want InLexical and Resolved under %s", link, got, tr.project)
	}
	none := &pathguard.Resolver{Home: tr.home, Cwd: link}
	if got := none.Resolve("notes.txt", action.Write); got.InLexical != "" || got.InResolved != "" {
		t.Errorf("without a project, Resolve(notes.txt) = %+v, want no InLexical or InResolved", got)
	}
	missing := &pathguard.Resolver{Home: tr.home, Cwd: link, Project: tr.root + "/nonexistent"}
	if got := missing.Resolve("notes.txt", action.Write); got.InLexical != "" || got.InResolved != "" {
		t.Errorf("with a missing project, Resolve(notes.txt) = %+v, want no InLexical or InResolved", got)
	}
}

// TestResolveAliasCwd opens the project through a link as the test's own
// working directory, and checks that relative paths and /proc/self/cwd
// lead where the kernel leads them; relative paths are the project's,
// while /proc/self/cwd, and /proc/<pid>/cwd of a process other than the
// agent (here: this test, with no PID given, read like any link), are not
// aliases of it.
func TestResolveAliasCwd(t *testing.T) {
	tr := aliasTree(t)
	link := tr.root + "/links/proj"
	t.Chdir(link)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r := &pathguard.Resolver{Home: tr.home, Cwd: wd, Project: tr.project}
	for _, tt := range []struct {
		raw    string
		inside bool
	}{
		{"notes.txt", true},
		{"./a/b/c/f", true},
		{"/proc/self/cwd/notes.txt", false},
	} {
		raw := tt.raw
		got := r.Resolve(raw, action.Write)
		abs := raw
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wd, raw)
		}
		// This process is the agent here: its /proc/self is the
		// agent's.
		kernel, err := filepath.EvalSymlinks(abs)
		if err != nil {
			t.Fatal(err)
		}
		lex, res := got.InProject()
		inside := action.Within(tr.project, lex) && action.Within(tr.project, res)
		if got.Resolved != kernel || inside != tt.inside {
			t.Errorf("Resolve(%q) in %s = %+v; the kernel opens %s, want inside %s = %v", raw, wd, got, kernel, tr.project, tt.inside)
		}
	}
	other := "/proc/" + strconv.Itoa(os.Getpid()) + "/cwd/notes.txt"
	got := r.Resolve(other, action.Write)
	if got.Resolved != tr.project+"/notes.txt" || got.InLexical != "" {
		t.Errorf("Resolve(%q) = %+v, want Resolved %s/notes.txt and no InLexical", other, got, tr.project)
	}
}
