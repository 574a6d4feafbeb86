// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
)

func TestBlocks(t *testing.T) {
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".git/hooks"), 0o755)
	os.MkdirAll(filepath.Join(project, "build"), 0o755)
	stderr := func(s string) Output { return Output{Head: []byte(s), Total: int64(len(s))} }
	for _, tt := range []struct {
		name string
		spec Spec
		res  Result
		want []string
	}{
		{"nothing blocked", Spec{}, Result{ExitCode: 1}, nil},
		{"a refused call", Spec{}, Result{BlockedSyscalls: []audit.Syscall{{Syscall: "io_uring_setup", Count: 2, Command: "node"}}},
			[]string{"the io_uring_setup system call"}},
		{"limits reached", Spec{Timeout: time.Second},
			Result{OOMKilled: true, PidsLimitHit: true, TimedOut: true, Signal: int(syscall.SIGKILL),
				Limits: Limits{Memory: 256 << 20, Pids: 64}},
			[]string{"memory 512 MiB", "pids 128", "a timeout of 2s"}},
		{"file size", Spec{}, Result{Signal: int(syscall.SIGXFSZ), Limits: Limits{Fsize: 1 << 20}},
			[]string{"fsize 2 MiB"}},
		{"read-only writes", Spec{Project: project}, Result{ExitCode: 1, Stderr: stderr(
			"sh: 1: cannot create .git/hooks/pre-commit: Read-only file system\n" +
				"touch: cannot touch '/usr/local/lib/x': Read-only file system\n" +
				"OSError: [Errno 30] Read-only file system: '" + project + "/build/out/a.o'\n" +
				"mkdir: cannot create directory ‘/opt/tool/cache’: Read-only file system\n")},
			[]string{project + "/.git/hooks writable", "/usr/local/lib writable", project + "/build writable"}},
		{"a masked file is not offered", Spec{Project: project}, Result{ExitCode: 1,
			Refused: []audit.Refusal{{Path: project + "/.env", Kind: audit.RefusedMasked, Error: "Read-only file system"}},
			Stderr:  stderr("sh: 1: cannot create .env: Read-only file system\n")},
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range Blocks(tt.spec, tt.res) {
				got = append(got, b.Allow)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzReadOnlyWrites: whatever a command prints, the paths offered are
// absolute, at most maxWriteBlocks, and never /.
func FuzzReadOnlyWrites(f *testing.F) {
	for _, s := range []string{
		"sh: 1: cannot create x: Read-only file system",
		"[Errno 30] Read-only file system: '/a/b'",
		"‘’: Read-only file system", ": Read-only file system", "/: Read-only file system",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stderr string) {
		got := readOnlyWrites(Spec{Project: "/var/tmp/p"}, stderr, nil)
		if len(got) > maxWriteBlocks {
			t.Errorf("%d paths offered", len(got))
		}
		for _, p := range got {
			if !filepath.IsAbs(p) || p == "/" || strings.IndexFunc(p, unicode.IsControl) >= 0 {
				t.Errorf("offered %q", p)
			}
		}
	})
}
