// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

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
	"warden.dev/warden/internal/sandbox"
)

func TestBlocks(t *testing.T) {
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".git/hooks"), 0o755)
	os.MkdirAll(filepath.Join(project, "build"), 0o755)
	stderr := func(s string) sandbox.Output { return sandbox.Output{Head: []byte(s), Total: int64(len(s))} }
	for _, tt := range []struct {
		name string
		spec sandbox.Spec
		res  sandbox.Result
		want []string
	}{
		{"nothing blocked", sandbox.Spec{}, sandbox.Result{ExitCode: 1}, nil},
		{"a refused call", sandbox.Spec{}, sandbox.Result{BlockedSyscalls: []audit.Syscall{{Syscall: "io_uring_setup", Count: 2, Command: "node"}}},
			[]string{"the io_uring_setup system call"}},
		{"limits reached", sandbox.Spec{Timeout: time.Second},
			sandbox.Result{OOMKilled: true, PidsLimitHit: true, TimedOut: true, Signal: int(syscall.SIGKILL),
				Limits: sandbox.Limits{Memory: 256 << 20, Pids: 64}},
			[]string{"memory 512 MiB", "pids 128", "a timeout of 2s"}},
		{"file size", sandbox.Spec{}, sandbox.Result{Signal: int(syscall.SIGXFSZ), Limits: sandbox.Limits{Fsize: 1 << 20}},
			[]string{"fsize 2 MiB"}},
		{"read-only writes", sandbox.Spec{Project: project}, sandbox.Result{ExitCode: 1, Stderr: stderr(
			"sh: 1: cannot create .git/hooks/pre-commit: Read-only file system\n" +
				"touch: cannot touch '/usr/local/lib/x': Read-only file system\n" +
				"OSError: [Errno 30] Read-only file system: '" + project + "/build/out/a.o'\n" +
				"mkdir: cannot create directory ‘/opt/tool/cache’: Read-only file system\n")},
			[]string{project + "/.git/hooks writable", "/usr/local/lib writable", project + "/build writable"}},
		{"a masked file is not offered", sandbox.Spec{Project: project}, sandbox.Result{ExitCode: 1,
			Refused: []audit.Refusal{{Path: project + "/.env", Kind: audit.RefusedMasked, Error: "Read-only file system"}},
			Stderr:  stderr("sh: 1: cannot create .env: Read-only file system\n")},
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range blocks(tt.spec, tt.res) {
				got = append(got, b.allow)
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
		got := readOnlyWrites(sandbox.Spec{Project: "/var/tmp/p"}, stderr, nil)
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
