// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/pathguard"
)

func TestSensitiveUnder(t *testing.T) {
	tr := newTree(t)
	for _, f := range []string{"project/.npmrc", "project/a/.git-credentials"} {
		if err := os.WriteFile(filepath.Join(tr.root, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		dir  string // under the tree's root
		home string // "home/u", or "" for none
		dirs bool
		want []string // under the tree's root
	}{
		{name: "project", dir: "project", home: "home/u", want: []string{
			"project/.env",               // by name
			"project/a/.git-credentials", // by name, below
			"project/hardkey",            // two links: a hard link to ~/.ssh/id_rsa
			"project/hardnote",           // two links, to notes.txt: resolution clears it
			"project/notes.txt",
			"project/sub/.env", // a link named .env, by its name
		}},
		{name: "project with its directories", dir: "project", home: "home/u", dirs: true, want: []string{
			"project", "project/.env", "project/a", "project/a/.git-credentials", "project/a/b", "project/a/b/c",
			"project/hardkey", "project/hardnote", "project/notes.txt", "project/sub", "project/sub/.env",
		}},
		// Without a home, entries anchored at it (~/.npmrc) match at
		// any depth.
		{name: "no home", dir: "project", want: []string{
			"project/.env", "project/.npmrc", "project/a/.git-credentials",
			"project/hardkey", "project/hardnote", "project/notes.txt", "project/sub/.env",
		}},
		// A sensitive directory is returned, not entered.
		{name: "home", dir: "home/u", home: "home/u", want: []string{"home/u/.aws/credentials", "home/u/.ssh"}},
		{name: "home with its directories", dir: "home/u", home: "home/u", dirs: true, want: []string{
			"home/u", "home/u/.aws", "home/u/.aws/credentials", "home/u/.ssh",
		}},
		{name: "a sensitive directory itself", dir: "home/u/.ssh", home: "home/u", dirs: true, want: []string{"home/u/.ssh"}},
		// Symbolic links are not followed: sshlink leads to ~/.ssh, and
		// the walk does not enter it.
		{name: "links not followed", dir: "project/a", home: "home/u", want: []string{"project/a/.git-credentials"}},
		{name: "nothing", dir: "project/a/b", home: "home/u", dirs: false, want: nil},
		{name: "a file", dir: "project/.env", home: "home/u", dirs: true, want: nil},
		// Nor is dir when it is a link: the caller resolves it first.
		{name: "a link to a directory", dir: "project/link-abc", home: "home/u", dirs: true, want: nil},
		{name: "missing", dir: "project/none", home: "home/u", dirs: true, want: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := ""
			if tt.home != "" {
				home = filepath.Join(tr.root, tt.home)
			}
			got := pathguard.SensitiveUnder(filepath.Join(tr.root, tt.dir), home, tt.dirs)
			for i, p := range got {
				got[i] = strings.TrimPrefix(p, tr.root+"/")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SensitiveUnder(%s, %q, %v) (-want +got):\n%s", tt.dir, tt.home, tt.dirs, diff)
			}
		})
	}
}

// TestSensitiveUnderTooMany walks a tree of exactly MaxWalk entries, the
// directory included, and then one more: the walk stops, and the last
// path is one that no resolution accepts.
func TestSensitiveUnderTooMany(t *testing.T) {
	if testing.Short() {
		t.Skipf("creates %d files", pathguard.MaxWalk)
	}
	dir := t.TempDir()
	write := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".env")
	for i := 2; i < pathguard.MaxWalk; i++ {
		write(fmt.Sprintf("f%05d", i))
	}
	if diff := cmp.Diff([]string{dir + "/.env"}, pathguard.SensitiveUnder(dir, "", false)); diff != "" {
		t.Errorf("SensitiveUnder of %d entries (-want +got):\n%s", pathguard.MaxWalk, diff)
	}
	write("f99999")
	want := []string{dir + "/.env", dir + "\x00(holds more than 20000 entries to check for secrets)"}
	if diff := cmp.Diff(want, pathguard.SensitiveUnder(dir, "", false)); diff != "" {
		t.Errorf("SensitiveUnder of %d entries (-want +got):\n%s", pathguard.MaxWalk+1, diff)
	}
}
