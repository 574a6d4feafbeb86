// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/gitindex"
)

// git runs the real git in dir with a configuration of its own, so the
// tests do not depend on the user's.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Warden", "-c", "user.email=warden@example.com",
		"-c", "init.defaultBranch=main", "-c", "core.fsmonitor=false", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

func write(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// committed are the files newRepo commits: similar names (for v4 prefix
// compression), nested directories, spaces, non-ASCII, a long name.
var committed = []string{
	"tracked.go", "README.md", "a b/c d.txt", "dir/sub/file1.go", "dir/sub/file2.go",
	"dir/sub/file10.go", "dir/other.go", "café/naïve.txt", strings.Repeat("long", 50) + ".txt",
	"z/deep/er/and/deeper/still.txt",
}

// newRepo makes a repository with committed files, a file added but not
// committed, an untracked file and a file added with intent to add (an
// extended flag, so the index is version 3). args are given to git init.
func newRepo(t testing.TB, args ...string) string {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	git(t, dir, append([]string{"init", "-q"}, args...)...)
	for _, f := range committed {
		write(t, dir, f, "content of "+f+"\n")
	}
	git(t, dir, "add", "--", ".")
	git(t, dir, "commit", "-qm", "initial")
	write(t, dir, "staged.go", "package staged\n")
	git(t, dir, "add", "staged.go")
	write(t, dir, "untracked.txt", "not added\n")
	write(t, dir, "intent.txt", "intent to add\n")
	git(t, dir, "add", "-N", "intent.txt")
	return dir
}

// lsFiles is what git says the index holds.
func lsFiles(t testing.TB, dir string) []string {
	t.Helper()
	out := git(t, dir, "ls-files", "-z")
	return strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
}

func readIndex(t testing.TB, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseMatchesGit(t *testing.T) {
	for _, tt := range []struct {
		name    string
		init    []string
		version string // for git update-index --index-version
		format  gitindex.Format
	}{
		{name: "v3 (intent to add)", version: "", format: gitindex.SHA1},
		{name: "v2", version: "2", format: gitindex.SHA1},
		{name: "v4", version: "4", format: gitindex.SHA1},
		{name: "sha256 v3", init: []string{"--object-format=sha256"}, format: gitindex.SHA256},
		{name: "sha256 v4", init: []string{"--object-format=sha256"}, version: "4", format: gitindex.SHA256},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := newRepo(t, tt.init...)
			if tt.version == "2" {
				// An intent-to-add entry needs version 3.
				git(t, dir, "rm", "-q", "--cached", "intent.txt")
			}
			if tt.version != "" {
				git(t, dir, "update-index", "--index-version", tt.version)
			}
			data := readIndex(t, dir)
			ix, err := gitindex.Parse(data, tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(lsFiles(t, dir), ix.Entries); diff != "" {
				t.Errorf("entries differ from git ls-files (-git +parsed):\n%s", diff)
			}
			want := map[string]uint32{"": 3, "2": 2, "4": 4}[tt.version]
			if ix.Version != want {
				t.Errorf("version %d, want %d", ix.Version, want)
			}
			for _, f := range append([]string{"staged.go"}, committed...) {
				if !ix.Has(f) {
					t.Errorf("Has(%q) = false", f)
				}
			}
			for _, f := range []string{"untracked.txt", "new.txt", "dir", "dir/sub", "tracked", "tracked.go/x"} {
				if ix.Has(f) {
					t.Errorf("Has(%q) = true", f)
				}
			}
			seed(t, tt.name, data)
		})
	}
}

func TestParseSplitIndex(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "update-index", "--split-index")
	write(t, dir, "later.go", "package later\n")
	git(t, dir, "add", "later.go")
	data := readIndex(t, dir)
	ix, err := gitindex.Parse(data, gitindex.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Split {
		t.Fatal("a split index is not reported as split")
	}
	// The shared part is not read: anything may be tracked.
	for _, f := range []string{"tracked.go", "untracked.txt"} {
		if !ix.Has(f) {
			t.Errorf("Has(%q) = false in a split index", f)
		}
	}
	seed(t, "split", data)
}

// fixChecksum rewrites the trailing SHA-1 of an index.
func fixChecksum(data []byte) []byte {
	body := data[:len(data)-sha1.Size]
	sum := sha1.Sum(body)
	return append(bytes.Clone(body), sum[:]...)
}

func TestParseRejects(t *testing.T) {
	dir := newRepo(t)
	good := readIndex(t, dir)
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tt := range []struct {
		name   string
		data   []byte
		format gitindex.Format
		want   string
	}{
		{name: "empty", data: nil, want: "shorter"},
		{name: "bad checksum", data: mutate(func(b []byte) []byte { b[20] ^= 1; return b }), want: gitindex.ErrChecksum.Error()},
		{name: "wrong format", data: good, format: gitindex.SHA256, want: gitindex.ErrChecksum.Error()},
		{name: "no signature", data: mutate(func(b []byte) []byte { b[0] = 'X'; return fixChecksum(b) }), want: "no DIRC"},
		{name: "version 1", data: mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[4:], 1); return fixChecksum(b) }), want: "unknown version 1"},
		{name: "version 5", data: mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[4:], 5); return fixChecksum(b) }), want: "unknown version 5"},
		{name: "too many entries", data: mutate(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[8:], gitindex.MaxEntries+1)
			return fixChecksum(b)
		}), want: gitindex.ErrTooLarge.Error()},
		{name: "more entries than bytes", data: mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], 100000); return fixChecksum(b) }), want: "do not fit"},
		{name: "one entry more", data: mutate(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[8:], binary.BigEndian.Uint32(b[8:])+1)
			return fixChecksum(b)
		}), want: "index:"},
		{name: "too large", data: make([]byte, gitindex.MaxSize+1), want: gitindex.ErrTooLarge.Error()},
		{name: "unknown required extension", data: func() []byte {
			b := good[:len(good)-sha1.Size]
			b = append(bytes.Clone(b), "zzzz\x00\x00\x00\x00"...)
			return fixChecksum(append(b, make([]byte, sha1.Size)...))
		}(), want: `unknown required extension "zzzz"`},
		{name: "extension past the end", data: func() []byte {
			b := good[:len(good)-sha1.Size]
			b = append(bytes.Clone(b), "ABCD\x00\x00\x01\x00"...)
			return fixChecksum(append(b, make([]byte, sha1.Size)...))
		}(), want: "runs past the end"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := gitindex.Parse(tt.data, tt.format)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v, %v; want an error with %q", ix, err, tt.want)
			}
		})
	}
	// An optional extension git does not know is skipped; a zero
	// checksum (index.skipHash) is accepted.
	b := append(bytes.Clone(good[:len(good)-sha1.Size]), "ABCD\x00\x00\x00\x02xy"...)
	ext := fixChecksum(append(b, make([]byte, sha1.Size)...))
	zero := append(bytes.Clone(good[:len(good)-sha1.Size]), make([]byte, sha1.Size)...)
	for name, data := range map[string][]byte{"optional extension": ext, "zero checksum": zero} {
		ix, err := gitindex.Parse(data, gitindex.SHA1)
		if err != nil || !ix.Has("tracked.go") {
			t.Errorf("%s: Parse = %v, %v", name, ix, err)
		}
	}
	var pe *gitindex.ParseError
	if _, err := gitindex.Parse(mutate(func(b []byte) []byte { b[0] = 'X'; return fixChecksum(b) }), gitindex.SHA1); !errors.As(err, &pe) {
		t.Errorf("a malformed index gives %T, want *ParseError", err)
	}
}

func TestParseFormat(t *testing.T) {
	for _, tt := range []struct {
		cfg  string
		want string
		ok   bool
	}{
		{cfg: "[core]\n\tbare = false\n", want: "", ok: true},
		{cfg: "[extensions]\n\tobjectformat = sha256\n", want: "sha256", ok: true},
		{cfg: "[Extensions]\n\tObjectFormat=SHA256 ; comment\n", want: "SHA256", ok: true},
		{cfg: "[extensions]\n\tobjectFormat = \"sha1\"\n", want: "sha1", ok: true},
		{cfg: "[core]\n\tobjectformat = sha256\n", want: "", ok: true},
		{cfg: "[extensions]\n\tobjectformat = blake3\n", want: "blake3", ok: false},
	} {
		got := gitindex.ObjectFormat([]byte(tt.cfg))
		_, ok := gitindex.ParseFormat(got)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ObjectFormat(%q) = %q (known %v), want %q (known %v)", tt.cfg, got, ok, tt.want, tt.ok)
		}
	}
}

// seed writes an index file made by git into the fuzz corpus, when
// WARDEN_GITINDEX_SEED is set (go test -run . with it set refreshes them).
func seed(t testing.TB, name string, data []byte) {
	if os.Getenv("WARDEN_GITINDEX_SEED") == "" {
		return
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzIndex")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name = "git-" + strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name)
	content := "go test fuzz v1\n[]byte(" + quoteBytes(data) + ")\nbool(false)\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// quoteBytes spells data as a Go string literal the fuzz corpus reads.
func quoteBytes(data []byte) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range data {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestParseSparseIndex: a sparse index holds a directory outside the cone
// as one entry ending in "/"; every path under it is tracked.
func TestParseSparseIndex(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "config", "index.sparse", "true")
	git(t, dir, "sparse-checkout", "set", "--cone", "dir")
	data := readIndex(t, dir)
	ix, err := gitindex.Parse(data, gitindex.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	out := git(t, dir, "ls-files", "--sparse", "-z")
	want := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	if diff := cmp.Diff(want, ix.Entries); diff != "" {
		t.Errorf("entries differ from git ls-files --sparse (-git +parsed):\n%s", diff)
	}
	if !slices.Contains(ix.Entries, "z/") {
		t.Fatalf("no sparse directory entry for z/ in %q", ix.Entries)
	}
	for _, f := range []string{"z/deep/er/and/deeper/still.txt", "dir/sub/file1.go", "tracked.go"} {
		if !ix.Has(f) {
			t.Errorf("Has(%q) = false", f)
		}
	}
	for _, f := range []string{"zz/x", "untracked.txt"} {
		if ix.Has(f) {
			t.Errorf("Has(%q) = true", f)
		}
	}
	seed(t, "sparse", data)
}
