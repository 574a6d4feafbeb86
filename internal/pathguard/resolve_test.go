// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"errors"
	"os"
	"os/user"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

func TestResolve(t *testing.T) {
	tr := newTree(t)
	root, home, proj := tr.root, tr.home, tr.project
	lookup := func(name string) (string, error) {
		if name == "bob" {
			return root + "/home/bob", nil
		}
		return "", errors.New("unknown user")
	}
	// p builds the expected Path of a read.
	p := func(raw, lexical, resolved, sensitive string) action.Path {
		return action.Path{Raw: raw, Lexical: lexical, Resolved: resolved, Checked: true, Sensitive: sensitive}
	}
	for _, tt := range []struct {
		name    string
		raw     string
		access  action.Access
		want    action.Path
		wantErr string // substring of Err; Err is then cleared before the diff
	}{
		{name: "absolute file", raw: proj + "/notes.txt",
			want: p(proj+"/notes.txt", proj+"/notes.txt", proj+"/notes.txt", "")},
		{name: "relative file", raw: "notes.txt",
			want: p("notes.txt", proj+"/notes.txt", proj+"/notes.txt", "")},
		{name: "relative with dot and slashes", raw: "./a//b/./c/f",
			want: p("./a//b/./c/f", proj+"/a/b/c/f", proj+"/a/b/c/f", "")},
		{name: "dotdot without links", raw: "a/b/../b/c/f",
			want: p("a/b/../b/c/f", proj+"/a/b/c/f", proj+"/a/b/c/f", "")},
		{name: "tilde", raw: "~",
			want: p("~", home, home, "")},
		{name: "tilde slash", raw: "~/notes",
			want: p("~/notes", home+"/notes", home+"/notes", "")},
		{name: "tilde user", raw: "~bob/x",
			want: p("~bob/x", root+"/home/bob/x", root+"/home/bob/x", "")},
		{name: "tilde unknown user", raw: "~mallory/x", wantErr: `expanding "~mallory": unknown user`,
			want: p("~mallory/x", "", "", "")},
		{name: "$HOME", raw: "$HOME/x",
			want: p("$HOME/x", home+"/x", home+"/x", "")},
		{name: "${HOME}", raw: "${HOME}/x",
			want: p("${HOME}/x", home+"/x", home+"/x", "")},
		{name: "$HOME alone", raw: "$HOME",
			want: p("$HOME", home, home, "")},
		{name: "$HOMEX is literal", raw: "$HOMEX/y",
			want: p("$HOMEX/y", proj+"/$HOMEX/y", proj+"/$HOMEX/y", "")},
		{name: "other variables are literal", raw: "$USER/x",
			want: p("$USER/x", proj+"/$USER/x", proj+"/$USER/x", "")},
		{name: "$HOME in the middle is literal", raw: "a/$HOME/x",
			want: p("a/$HOME/x", proj+"/a/$HOME/x", proj+"/a/$HOME/x", "")},
		{name: "tilde not at start is literal", raw: "a/~/x",
			want: p("a/~/x", proj+"/a/~/x", proj+"/a/~/x", "")},

		// Links.
		{name: "relative link", raw: "link-abc/f",
			want: p("link-abc/f", proj+"/link-abc/f", proj+"/a/b/c/f", "")},
		{name: "absolute link", raw: "abs-abc/f",
			want: p("abs-abc/f", proj+"/abs-abc/f", proj+"/a/b/c/f", "")},
		{name: "three deep chain", raw: "chain1/f",
			want: p("chain1/f", proj+"/chain1/f", proj+"/a/b/c/f", "")},
		{name: "dotdot after link is the target's parent", raw: "link-abc/..",
			want: p("link-abc/..", proj, proj+"/a/b", "")},
		{name: "dotdot after absolute link", raw: "abs-abc/../../x",
			want: p("abs-abc/../../x", root+"/x", proj+"/a/x", "")},
		{name: "dotdot after chain", raw: "chain1/../c/f",
			want: p("chain1/../c/f", proj+"/c/f", proj+"/a/b/c/f", "")},
		{name: "dangling relative link", raw: "dangling",
			want: p("dangling", proj+"/dangling", root+"/outside/new.txt", "")},
		{name: "dangling absolute link", raw: "dangling-abs",
			want: p("dangling-abs", proj+"/dangling-abs", home+"/.bashrc", "")},
		{name: "dangling link into a missing directory", raw: "dangling-deep",
			want: p("dangling-deep", proj+"/dangling-deep", root+"/outside/newdir/new.txt", "")},
		{name: "missing tail", raw: "new/dir/file.go",
			want: p("new/dir/file.go", proj+"/new/dir/file.go", proj+"/new/dir/file.go", "")},
		{name: "missing then dotdot resumes the walk", raw: "new/../link-abc/f",
			want: p("new/../link-abc/f", proj+"/link-abc/f", proj+"/a/b/c/f", "")},
		{name: "file used as a directory", raw: "file.txt/x",
			want: p("file.txt/x", proj+"/file.txt/x", proj+"/file.txt/x", "")},
		{name: "trailing slash on a link", raw: "link-abc/",
			want: p("link-abc/", proj+"/link-abc", proj+"/a/b/c", "")},
		{name: "project-evil is not the project", raw: "evil/x",
			want: p("evil/x", proj+"/evil/x", root+"/project-evil/x", "")},

		// The floor.
		{name: "link to a private key", raw: "key",
			want: p("key", proj+"/key", home+"/.ssh/id_rsa", ".ssh/")},
		{name: "link named .env to an innocent file", raw: "sub/.env",
			want: p("sub/.env", proj+"/sub/.env", proj+"/notes.txt", ".env")},
		{name: "delete a link named .env", raw: "sub/.env", access: action.Delete,
			want: action.Path{Raw: "sub/.env", Lexical: proj + "/sub/.env", Resolved: proj + "/notes.txt",
				Access: action.Delete, Checked: true, Sensitive: ".env"}},
		{name: "delete a dangling link that lives in .ssh", raw: "sshlink/pointer", access: action.Delete,
			want: action.Path{Raw: "sshlink/pointer", Lexical: proj + "/sshlink/pointer", Resolved: root + "/outside/gone",
				Access: action.Delete, Checked: true, Sensitive: ".ssh/"}},
		{name: "through a link to .ssh", raw: "sshlink/config",
			want: p("sshlink/config", proj+"/sshlink/config", home+"/.ssh/config", ".ssh/")},
		{name: "dotdot out of .ssh", raw: "sshlink/../notes",
			want: p("sshlink/../notes", proj+"/notes", home+"/notes", "")},
		{name: "proc self root", raw: "/proc/self/root" + home + "/.ssh/id_rsa",
			want: p("/proc/self/root"+home+"/.ssh/id_rsa", "/proc/self/root"+home+"/.ssh/id_rsa", home+"/.ssh/id_rsa", ".ssh/")},
		{name: "proc thread-self root", raw: "/proc/thread-self/root" + proj + "/notes.txt",
			want: p("/proc/thread-self/root"+proj+"/notes.txt", "/proc/thread-self/root"+proj+"/notes.txt", proj+"/notes.txt", "")},
		{name: "proc self task root", raw: "/proc/self/task/1/root/" + proj + "/link-abc",
			want: p("/proc/self/task/1/root/"+proj+"/link-abc", "/proc/self/task/1/root"+proj+"/link-abc", proj+"/a/b/c", "")},
		{name: "proc self cwd is the agent's cwd", raw: "/proc/self/cwd/.env",
			want: p("/proc/self/cwd/.env", "/proc/self/cwd/.env", proj+"/.env", ".env")},
		{name: "proc self cwd dotdot", raw: "/proc/self/cwd/../outside/plain.txt",
			want: p("/proc/self/cwd/../outside/plain.txt", "/proc/self/outside/plain.txt", root+"/outside/plain.txt", "")},
		{name: "proc agent pid cwd", raw: "/proc/4242/cwd/notes.txt",
			want: p("/proc/4242/cwd/notes.txt", "/proc/4242/cwd/notes.txt", proj+"/notes.txt", "")},
		{name: "proc self fd stays unknowable", raw: "/proc/self/fd/3",
			want: p("/proc/self/fd/3", "/proc/self/fd/3", "/proc/self/fd/3", "")},
		{name: "proc self environ", raw: "/proc/self/environ",
			want: p("/proc/self/environ", "/proc/self/environ", "/proc/self/environ", "/proc/*/environ")},
		{name: "proc thread-self environ", raw: "/proc/thread-self/environ",
			want: p("/proc/thread-self/environ", "/proc/thread-self/environ", "/proc/thread-self/environ", "/proc/*/environ")},
		{name: "proc pid environ", raw: "/proc/1234/environ",
			want: p("/proc/1234/environ", "/proc/1234/environ", "/proc/1234/environ", "/proc/*/environ")},
		{name: "upper-case ssh key", raw: "~/.SSH/ID_RSA",
			want: p("~/.SSH/ID_RSA", home+"/.SSH/ID_RSA", home+"/.SSH/ID_RSA", ".ssh/")},
		{name: "upper-case .ENV", raw: ".ENV",
			want: p(".ENV", proj+"/.ENV", proj+"/.ENV", ".env")},
		{name: ".env", raw: ".env",
			want: p(".env", proj+"/.env", proj+"/.env", ".env")},
		{name: ".env.local", raw: ".env.local",
			want: p(".env.local", proj+"/.env.local", proj+"/.env.local", ".env.*")},
		{name: ".env.example is not sensitive", raw: ".env.example",
			want: p(".env.example", proj+"/.env.example", proj+"/.env.example", "")},
		{name: ".envrc is not sensitive", raw: ".envrc",
			want: p(".envrc", proj+"/.envrc", proj+"/.envrc", "")},
		{name: "prod.env is not sensitive", raw: "prod.env",
			want: p("prod.env", proj+"/prod.env", proj+"/prod.env", "")},
		{name: "public key outside .ssh", raw: "id_rsa.pub",
			want: p("id_rsa.pub", proj+"/id_rsa.pub", proj+"/id_rsa.pub", "")},
		{name: "public key inside .ssh", raw: "~/.ssh/id_rsa.pub",
			want: p("~/.ssh/id_rsa.pub", home+"/.ssh/id_rsa.pub", home+"/.ssh/id_rsa.pub", ".ssh/")},
		{name: "private key copy outside .ssh", raw: "backup/id_ed25519_deploy",
			want: p("backup/id_ed25519_deploy", proj+"/backup/id_ed25519_deploy", proj+"/backup/id_ed25519_deploy", "id_ed25519*")},
		{name: "aws credentials", raw: "~/.aws/credentials",
			want: p("~/.aws/credentials", home+"/.aws/credentials", home+"/.aws/credentials", ".aws/credentials")},
		{name: "hard link to a private key", raw: "hardkey",
			want: p("hardkey", proj+"/hardkey", proj+"/hardkey", hardLinkEntry("hard link to ~/.ssh/id_rsa"))},
		{name: "hard link to an ordinary file", raw: "hardnote",
			want: p("hardnote", proj+"/hardnote", proj+"/hardnote", "")},
		{name: "write through a link to a private key", raw: "key", access: action.Write,
			want: action.Path{Raw: "key", Lexical: proj + "/key", Resolved: home + "/.ssh/id_rsa",
				Access: action.Write, Checked: true, Sensitive: ".ssh/"}},

		// Errors.
		{name: "loop", raw: "loop1/x", wantErr: "too many levels of symbolic links",
			want: p("loop1/x", proj+"/loop1/x", "", "")},
		{name: "self loop", raw: "self", wantErr: "too many levels of symbolic links",
			want: p("self", proj+"/self", "", "")},
		{name: "NUL byte", raw: "notes\x00.txt", wantErr: "NUL byte",
			want: p("notes\x00.txt", proj+"/notes\x00.txt", "", "")},
		{name: "NUL byte after a secret", raw: "~/.ssh/id_rsa\x00", wantErr: "NUL byte",
			want: p("~/.ssh/id_rsa\x00", home+"/.ssh/id_rsa\x00", "", ".ssh/")},
		{name: "empty", raw: "", wantErr: "empty path",
			want: p("", "", "", "")},
		{name: "name too long", raw: strings.Repeat("n", 256), wantErr: "file name too long",
			want: p(strings.Repeat("n", 256), proj+"/"+strings.Repeat("n", 256), "", "")},
		{name: "path too long", raw: strings.Repeat("a/", 2048), wantErr: "file name too long",
			want: p(strings.Repeat("a/", 2048), proj+"/"+strings.Repeat("a/", 2047)+"a", "", "")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &pathguard.Resolver{Home: home, Cwd: proj, PID: 4242, LookupHome: lookup}
			got := r.Resolve(tt.raw, tt.access)
			if tt.wantErr != "" {
				if !strings.Contains(got.Err, tt.wantErr) {
					t.Errorf("Resolve(%q).Err = %q, want it to contain %q", tt.raw, got.Err, tt.wantErr)
				}
				got.Err = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve(%q) mismatch (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

// hardLinkEntry is what a hard link to a secret reports on this OS.
func hardLinkEntry(s string) string {
	if pathguard.DetectsHardLinks {
		return s
	}
	return ""
}

func TestResolveContainment(t *testing.T) {
	tr := newTree(t)
	r := pathguard.NewResolver(tr.home, tr.project)
	for _, tt := range []struct {
		raw  string
		want bool
	}{
		{"notes.txt", true},
		{"link-abc/f", true},
		{"new/file", true},
		{"evil/x", false},
		{"../project-evil/x", false},
		{"dangling", false},
		{"key", false},
		{"link-abc/../../..", true},
		{"link-abc/../../../..", false},
	} {
		got := r.Resolve(tt.raw, action.Write)
		if got.Err != "" {
			t.Fatalf("Resolve(%q).Err = %q", tt.raw, got.Err)
		}
		if w := action.Within(tr.project, got.Resolved); w != tt.want {
			t.Errorf("Within(%q, Resolve(%q).Resolved = %q) = %v, want %v", tr.project, tt.raw, got.Resolved, w, tt.want)
		}
	}
}

func TestResolveExtra(t *testing.T) {
	tr := newTree(t)
	token := filepath.Join(tr.home, ".acme-token")
	if err := os.WriteFile(token, []byte("t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(token, filepath.Join(tr.project, "harmless")); err != nil {
		t.Fatal(err)
	}
	r := &pathguard.Resolver{Home: tr.home, Cwd: tr.project,
		Extra: []string{"~/.acme-token", "*.pem", "secrets/", "key-??.json", "/etc/*shadow*"}}
	for _, tt := range []struct {
		raw  string
		want string
	}{
		{"~/.acme-token", "~/.acme-token"},
		{"~/sub/.acme-token", ""},
		{"harmless", hardLinkEntry("hard link to ~/.acme-token")},
		{"certs/server.PEM", "*.pem"},
		{"Secrets/db/password", "secrets/"},
		{"key-01.json", "key-??.json"},
		{"key-001.json", ""},
		{"/etc/gshadow-", "/etc/*shadow*"},
		{"/etc/passwd", ""},
		{"notes.txt", ""},
		{"key", ".ssh/"}, // the built-in set still applies
	} {
		if got := r.Resolve(tt.raw, action.Read); got.Sensitive != tt.want || got.Err != "" {
			t.Errorf("Resolve(%q) = Sensitive %q, Err %q; want %q", tt.raw, got.Sensitive, got.Err, tt.want)
		}
	}

	bad := &pathguard.Resolver{Home: tr.home, Cwd: tr.project, Extra: []string{"[abc]"}}
	if got := bad.Resolve("notes.txt", action.Read); !strings.Contains(got.Err, "reserved") {
		t.Errorf("with an invalid Extra pattern, Resolve(notes.txt).Err = %q, want a reserved-character error", got.Err)
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		r       *pathguard.Resolver
		raw     string
		wantErr string
	}{
		{"relative without cwd", &pathguard.Resolver{}, "x", "no absolute working directory"},
		{"relative cwd", &pathguard.Resolver{Cwd: "rel"}, "x", "no absolute working directory"},
		{"tilde without home", &pathguard.Resolver{Cwd: "/"}, "~/x", "home directory unknown"},
		{"$HOME without home", &pathguard.Resolver{Cwd: "/"}, "$HOME/x", "home directory unknown"},
		{"relative home", &pathguard.Resolver{Home: "h", Cwd: "/"}, "~/x", "not absolute"},
		{"proc self cwd without cwd", &pathguard.Resolver{}, "/proc/self/cwd/x", "no absolute working directory"},
		{"empty home from lookup", &pathguard.Resolver{Cwd: "/", LookupHome: func(string) (string, error) { return "", nil }},
			"~nobody/x", "no home directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Resolve(tt.raw, action.Read)
			if !strings.Contains(got.Err, tt.wantErr) || got.Resolved != "" || !got.Checked {
				t.Errorf("Resolve(%q) = %+v, want Err containing %q, no Resolved, Checked", tt.raw, got, tt.wantErr)
			}
		})
	}
}

func TestResolveLinkLimit(t *testing.T) {
	tr := newTree(t)
	dir := filepath.Join(tr.root, "chains")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(tr.project, "notes.txt")
	r := pathguard.NewResolver(tr.home, dir)
	for _, n := range []int{40, 41} {
		first := chain(t, dir, "l"+strconv.Itoa(n)+"-", n, target)
		got := r.Resolve(first, action.Read)
		_, kerr := os.Stat(first)
		if (got.Err != "") != (kerr != nil) {
			t.Errorf("chain of %d links: Resolve Err = %q, kernel says %v", n, got.Err, kerr)
		}
		if n == 40 && got.Resolved != target {
			t.Errorf("chain of 40 links: Resolved = %q, want %q", got.Resolved, target)
		}
	}
}

func TestResolveLookupHomeDefault(t *testing.T) {
	// With no LookupHome, ~user is found in the user database.
	u, err := user.Current()
	if err != nil {
		t.Skipf("requires a user database entry for the current user: %v", err)
	}
	r := &pathguard.Resolver{Cwd: "/"}
	got := r.Resolve("~"+u.Username+"/x", action.Read)
	if want := path.Clean(u.HomeDir + "/x"); got.Lexical != want || got.Err != "" {
		t.Errorf("Resolve(~%s/x) = Lexical %q, Err %q; want Lexical %q", u.Username, got.Lexical, got.Err, want)
	}
}

func BenchmarkResolve(b *testing.B) {
	tr := newTree(b)
	// project/a/b/c/d/e/f with project/a/b/link -> c: six components
	// below the project, one link.
	if err := os.MkdirAll(filepath.Join(tr.project, "a/b/c/d/e"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tr.project, "a/b/c/d/e/f"), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink("c", filepath.Join(tr.project, "a/b/link")); err != nil {
		b.Fatal(err)
	}
	r := pathguard.NewResolver(tr.home, tr.project)
	want := filepath.Join(tr.project, "a/b/c/d/e/f")
	if got := r.Resolve("a/b/link/d/e/f", action.Read); got.Resolved != want || got.Err != "" {
		b.Fatalf("Resolve = %+v, want Resolved %q", got, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Resolve("a/b/link/d/e/f", action.Read)
	}
}

func TestResolveConcurrent(t *testing.T) {
	tr := newTree(t)
	r := pathguard.NewResolver(tr.home, tr.project)
	raws := []string{"hardkey", "key", "notes.txt", "chain1/f", "loop1", "~/.aws/credentials"}
	want := make([]action.Path, len(raws))
	for i, raw := range raws {
		want[i] = pathguard.NewResolver(tr.home, tr.project).Resolve(raw, action.Read)
	}
	done := make(chan error)
	for range 8 {
		go func() {
			for i, raw := range raws {
				if got := r.Resolve(raw, action.Read); !cmp.Equal(want[i], got) {
					done <- errors.New(cmp.Diff(want[i], got))
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Errorf("concurrent Resolve mismatch (-want +got):\n%v", err)
		}
	}
}

// TestResolveHardLinkAttack makes the hard link after the Resolver has
// loaded its secrets, checks that the link really yields the key, and that
// it is caught under an innocent name, in a nested directory.
func TestResolveHardLinkAttack(t *testing.T) {
	if !pathguard.DetectsHardLinks {
		t.Skip("requires device and inode checks, which this OS build does not have")
	}
	tr := newTree(t)
	r := pathguard.NewResolver(tr.home, tr.project)
	if got := r.Resolve("docs/notes.md", action.Read); got.Sensitive != "" || got.Err != "" {
		t.Fatalf("before the link, Resolve(docs/notes.md) = %+v", got)
	}
	if err := os.Mkdir(filepath.Join(tr.project, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(tr.home, ".ssh/id_rsa")
	link := filepath.Join(tr.project, "docs/notes.md")
	if err := os.Link(key, link); err != nil {
		t.Fatal(err)
	}
	secret, _ := os.ReadFile(key)
	if got, err := os.ReadFile(link); err != nil || string(got) != string(secret) {
		t.Fatalf("reading the hard link = %q, %v; want the key", got, err)
	}
	for _, acc := range []action.Access{action.Read, action.Write, action.Delete} {
		if got := r.Resolve("docs/notes.md", acc); got.Sensitive != "hard link to ~/.ssh/id_rsa" {
			t.Errorf("Resolve(docs/notes.md, %v).Sensitive = %q, want hard link to ~/.ssh/id_rsa", acc, got.Sensitive)
		}
		// Through a symlink to the hard link, too.
		if got := r.Resolve("link-abc/../../../docs/notes.md", acc); got.Sensitive != "hard link to ~/.ssh/id_rsa" {
			t.Errorf("Resolve(link-abc/../../../docs/notes.md, %v).Sensitive = %q, want hard link to ~/.ssh/id_rsa", acc, got.Sensitive)
		}
	}
}

// TestResolveHomeAnchored checks that the Resolver anchors the built-in ~/
// entries at its Home: the caller's ~/.npmrc is the floor, a project's own
// .npmrc is not, and a link from the project to ~/.npmrc is.
func TestResolveHomeAnchored(t *testing.T) {
	tr := newTree(t)
	if err := os.Symlink(filepath.Join(tr.home, ".npmrc"), filepath.Join(tr.project, "registry")); err != nil {
		t.Fatal(err)
	}
	r := &pathguard.Resolver{Home: tr.home, Cwd: tr.project}
	for _, tt := range []struct {
		raw  string
		want string
	}{
		{"~/.npmrc", "~/.npmrc"},
		{"$HOME/.docker/contexts/meta/x", "~/.docker/"},
		{".npmrc", ""},
		{".docker/compose.yml", ""},
		{"registry", "~/.npmrc"},
		{"~/backup/id_rsa.bak", "id_rsa*"},
		{".bash_history", ".bash_history"},
	} {
		if got := r.Resolve(tt.raw, action.Read); got.Sensitive != tt.want || got.Err != "" {
			t.Errorf("Resolve(%q) = Sensitive %q, Err %q; want %q", tt.raw, got.Sensitive, got.Err, tt.want)
		}
	}
}
