// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"errors"
	"os"
	"path"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

// FuzzResolve resolves arbitrary strings in the fixed tree of newTree, with
// the project as working directory. Properties:
//
//   - it never panics, and always reports Checked, Raw and Access;
//   - it is deterministic;
//   - a NUL byte, or an error the kernel gives for the same path (a loop,
//     a name too long), sets Err, so the engine denies;
//   - without Err, Lexical and Resolved are absolute and clean; with Err,
//     Resolved is empty;
//   - when Lexical or Resolved names a sensitive entry, Sensitive is set;
//   - for a path that exists inside the tree, Resolved is the file the
//     kernel opens;
//   - InLexical and InResolved, when set, are absolute, clean and inside
//     the project, and name the same file as Lexical and Resolved (the
//     tree of aliasTree has links to the project and into it).
func FuzzResolve(f *testing.F) {
	tr := aliasTree(f)
	for _, seed := range []string{
		"notes.txt", "./a//b/./c/f", "a/b/../b/c/f", "~", "~/x", "~bob/x", "~nobody/x",
		"$HOME/.ssh/id_rsa", "${HOME}/x", "$HOMEX/y", "$USER/x",
		"link-abc/f", "abs-abc/../../x", "chain1/../c/f", "link-abc/..", "link-abc/../../../..",
		"dangling", "dangling-abs", "dangling-deep", "new/../link-abc/f", "file.txt/x/..",
		"key", "sub/.env", "sshlink/pointer", "sshlink/../notes", "hardkey", "hardnote", "evil/x",
		"/proc/self/root/tmp", "/proc/self/cwd/.env", "/proc/thread-self/cwd/../x",
		"/proc/self/task/1/root/etc", "/proc/self/fd/3", "/proc/1234/environ", "/proc/self/environ",
		"/proc/self/..", "/proc/self/cwd/loop1",
		"loop1", "self/x", "notes\x00.txt", "", "/", "//", "/..", "..", "...", ".",
		".SSH/ID_RSA", ".ENV", ".env.example", ".envrc", "prod.env", "id_rsa.pub", "id_ed25519_old",
		strings.Repeat("n", 256), strings.Repeat("a/", 100), strings.Repeat("../", 40) + "x",
		"/dev/stdout", "/dev/fd/1", "\u212A",
		"../links/proj/notes.txt", "../links/src/project/new/x", "../links/inside/c/f", "../links/chain1/.env",
		"../links/round/a", "../links/out/x", "../links/twin/x", "../links/proj/../outside/plain.txt",
		"../links/proj/sshlink/config", "../links/inside/../x", "/proc/self/cwd/../links/proj/x",
		"/proc/self/root/../links/proj", "//links//proj//notes.txt",
	} {
		for _, acc := range []action.Access{action.Read, action.Write, action.Delete} {
			f.Add(seed, uint8(acc))
		}
	}
	lookup := func(name string) (string, error) {
		if name == "bob" {
			return tr.root + "/home/bob", nil
		}
		return "", errors.New("unknown user")
	}
	r := &pathguard.Resolver{Home: tr.home, Cwd: tr.project, LookupHome: lookup, Project: tr.project}

	f.Fuzz(func(t *testing.T, raw string, a uint8) {
		acc := action.Access(a % 3)
		got := r.Resolve(raw, acc)

		if !got.Checked || got.Raw != raw || got.Access != acc {
			t.Fatalf("Resolve(%q) = %+v, want Checked, Raw and Access set", raw, got)
		}
		if again := r.Resolve(raw, acc); !cmp.Equal(got, again) {
			t.Fatalf("Resolve(%q) is not deterministic (-first +second):\n%s", raw, cmp.Diff(got, again))
		}
		if strings.IndexByte(raw, 0) >= 0 && got.Err == "" {
			t.Fatalf("Resolve(%q) has a NUL byte but no Err", raw)
		}
		if got.Err == "" {
			for name, p := range map[string]string{"Lexical": got.Lexical, "Resolved": got.Resolved} {
				if !path.IsAbs(p) || path.Clean(p) != p {
					t.Fatalf("Resolve(%q).%s = %q, want an absolute clean path", raw, name, p)
				}
			}
		} else if got.Resolved != "" {
			t.Fatalf("Resolve(%q) = Err %q with Resolved %q, want no Resolved", raw, got.Err, got.Resolved)
		}
		for name, p := range map[string]string{"InLexical": got.InLexical, "InResolved": got.InResolved} {
			if p != "" && (path.Clean(p) != p || !action.Within(tr.project, p)) {
				t.Fatalf("Resolve(%q).%s = %q, want a clean path inside %s", raw, name, p, tr.project)
			}
		}
		if (got.InLexical != "" || got.InResolved != "") && got.Err != "" {
			t.Fatalf("Resolve(%q) = %+v: an alias with an error", raw, got)
		}
		// Outside /proc, where this process is not the agent, an alias
		// names the same file as the form it re-spells.
		for _, pair := range [][2]string{{got.Lexical, got.InLexical}, {got.Resolved, got.InResolved}} {
			if pair[1] == "" || strings.HasPrefix(pair[0], "/proc/") {
				continue
			}
			a, errA := os.Stat(pair[0])
			b, errB := os.Stat(pair[1])
			if errA == nil && (errB != nil || !os.SameFile(a, b)) {
				t.Fatalf("Resolve(%q): %s and its alias %s are not the same file (%v)", raw, pair[0], pair[1], errB)
			}
		}
		for name, p := range map[string]string{"Lexical": got.Lexical, "Resolved": got.Resolved, "InLexical": got.InLexical, "InResolved": got.InResolved} {
			if e, ok := pathguard.Sensitive(p); ok && got.Sensitive == "" {
				t.Fatalf("Resolve(%q).%s = %q matches %q, but Sensitive is empty", raw, name, p, e)
			}
		}

		// The kernel's view, for paths that need no expansion and stay
		// out of /proc (where the fuzzing process is not the agent).
		if raw == "" || strings.HasPrefix(raw, "~") || strings.HasPrefix(raw, "$") ||
			strings.IndexByte(raw, 0) >= 0 {
			return
		}
		kpath := raw
		if !path.IsAbs(kpath) {
			kpath = tr.project + "/" + raw
		}
		if strings.Contains(kpath, "/proc") || strings.Contains(kpath, "/dev/") || strings.HasPrefix(got.Resolved, "/proc/") {
			return
		}
		kernel, err := kernelResolve(kpath)
		switch {
		case errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENAMETOOLONG):
			if got.Err == "" {
				t.Fatalf("kernel: %s: %v; Resolve = %+v, want Err", kpath, err, got)
			}
		case err == nil && action.Within(tr.root, kernel):
			if got.Err != "" || got.Resolved != kernel {
				t.Fatalf("kernel opens %q for %q; Resolve = %+v", kernel, kpath, got)
			}
		}
	})
}
