// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProject checks which project a run takes, and what it refuses:
// the home, the root and an ancestor of the home, named or not, each
// with status 2 and a hint.
func TestProject(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	for _, d := range []string{"home/notes", "home/src/app/.git/objects", "home/src/app/pkg/deep"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "home/src/app/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.Symlink(filepath.Join(root, "home/notes"), filepath.Join(root, "notes-link"))
	app := filepath.Join(home, "src/app")
	for _, tt := range []struct {
		name, project, dir string
		want, wantDir      string
		refused            string
	}{
		{name: "in a work tree's subdirectory", dir: filepath.Join(app, "pkg/deep"), want: app, wantDir: filepath.Join(app, "pkg/deep")},
		{name: "a directory of the home", dir: filepath.Join(home, "notes"), want: filepath.Join(home, "notes"), wantDir: filepath.Join(home, "notes")},
		{name: "through a link", dir: filepath.Join(root, "notes-link"), want: filepath.Join(home, "notes"), wantDir: filepath.Join(home, "notes")},
		{name: "named, started outside", project: app, dir: filepath.Join(home, "notes"), want: app, wantDir: app},
		{name: "named, started inside", project: app, dir: filepath.Join(app, "pkg"), want: app, wantDir: filepath.Join(app, "pkg")},
		{name: "the home", dir: home, refused: "your home directory, which is never a project"},
		{name: "the root", dir: "/", refused: "/, the root, which is never a project"},
		{name: "an ancestor of the home", dir: root, refused: "an ancestor of your home directory, which is never a project"},
		{name: "named: the home", project: home, dir: app, refused: "your home directory is never a project"},
		{name: "named: the root", project: "/", dir: app, refused: "--project /: the root is never a project"},
		{name: "named: not a directory", project: filepath.Join(root, "nowhere"), dir: app, refused: "is not a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Project(tt.project, tt.dir, home)
			if tt.refused != "" {
				var ex *Exit
				if !errors.As(err, &ex) || ex.Status != StatusBadInput || !strings.Contains(ex.Msg, tt.refused) || len(ex.Hints) == 0 {
					t.Fatalf("Project(%q, %q) = %q, %v; want status 2 saying %q, with a hint", tt.project, tt.dir, got, err, tt.refused)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Project(%q, %q) = %q, %v; want %q", tt.project, tt.dir, got, err, tt.want)
			}
			if d := workDir(tt.dir, got); d != tt.wantDir {
				t.Errorf("workDir(%q, %q) = %q, want %q", tt.dir, got, d, tt.wantDir)
			}
		})
	}
}
