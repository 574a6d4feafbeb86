// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

// TestResolveAgreesWithKernel checks Resolved against the kernel itself:
// for a path that exists, the name the kernel gives the opened file
// (readlink of /proc/self/fd/N) and filepath.EvalSymlinks; for one that does
// not, the file that open(O_CREAT) really creates. Here the agent is the
// test process, so /proc/self is both Warden's and the agent's.
func TestResolveAgreesWithKernel(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	wd, err = filepath.EvalSymlinks(wd)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		"notes.txt",
		"link-abc/f",
		"abs-abc/f",
		"chain1/f",
		"link-abc/..",
		"link-abc/../../../notes.txt",
		"chain1/../c/f",
		"abs-abc/../../../project/link-abc/f",
		"sshlink/config",
		"sshlink/../.aws/credentials",
		"key",
		"sub/.env",
		"evil/x",
		"via-link-dotdot",
		"up-and-back",
		"link-abc/",
		"link-abc/.",
		"/proc/self/root{project}/link-abc/f",
		"/proc/thread-self/root{project}/chain1/../c/f",
		"/proc/self/cwd/doc.go",
		"/proc/{pid}/cwd/doc.go",
		"/proc/self/task/{pid}/root{project}/key",
		// Absent: created through the links by O_CREAT.
		"dangling",
		"dangling-abs",
		"link-abc/new.txt",
		"chain1/../new.txt",
		"sshlink/../new.txt",
		"via-dangling",
		"sub/../dangling",
		"/proc/self/root{project}/dangling-rel-chain",
		// Absent, in a missing directory: O_CREAT fails, and Resolved
		// must name a path whose parent does not exist either.
		"dangling-deep",
		"missing/x",
		"file.txt/x",
	} {
		t.Run(raw, func(t *testing.T) {
			tr := newTree(t)
			for _, l := range []struct{ name, target string }{
				{"via-link-dotdot", "link-abc/../c/f"},
				{"up-and-back", "a/b/../../notes.txt"},
				{"via-dangling", "dangling"},
				{"dangling-rel-chain", "chain1/../made-by-link"},
			} {
				if err := os.Symlink(l.target, filepath.Join(tr.project, l.name)); err != nil {
					t.Fatal(err)
				}
			}
			abs := expandTest(raw, tr.project)
			r := &pathguard.Resolver{Home: tr.home, Cwd: tr.project, PID: os.Getpid()}
			if strings.HasPrefix(raw, "/proc/") {
				// /proc/self/cwd is the process's cwd here.
				r.Cwd = wd
			}
			got := r.Resolve(abs, action.Write)
			if got.Err != "" {
				t.Fatalf("Resolve(%q).Err = %q", abs, got.Err)
			}

			if _, err := os.Stat(abs); err == nil {
				f, err := os.Open(abs)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				kernel, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
				if err != nil {
					t.Fatal(err)
				}
				if got.Resolved != kernel {
					t.Errorf("Resolve(%q).Resolved = %q, kernel opened %q", abs, got.Resolved, kernel)
				}
				eval, err := filepath.EvalSymlinks(abs)
				if err != nil {
					t.Fatal(err)
				}
				if got.Resolved != eval {
					t.Errorf("Resolve(%q).Resolved = %q, EvalSymlinks = %q", abs, got.Resolved, eval)
				}
				return
			}

			if _, err := os.Lstat(got.Resolved); !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				t.Fatalf("Resolve(%q).Resolved = %q exists, but the path does not (lstat: %v)", abs, got.Resolved, err)
			}
			f, err := os.OpenFile(abs, os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				// The kernel could not create it; neither could a
				// file appear at Resolved.
				if fi, perr := os.Stat(filepath.Dir(got.Resolved)); perr == nil && fi.IsDir() {
					t.Errorf("open(%q, O_CREAT) = %v, but Resolved %q has an existing parent directory", abs, err, got.Resolved)
				}
				return
			}
			f.Close()
			created, err := os.Stat(got.Resolved)
			if err != nil {
				t.Fatalf("open(%q, O_CREAT) succeeded, but Resolved %q does not exist: %v", abs, got.Resolved, err)
			}
			via, err := os.Stat(abs)
			if err != nil {
				t.Fatal(err)
			}
			if !os.SameFile(created, via) {
				t.Errorf("open(%q, O_CREAT) created a file other than Resolved %q", abs, got.Resolved)
			}
		})
	}
}

// expandTest makes raw absolute under project and fills {project} and
// {pid}.
func expandTest(raw, project string) string {
	s := strings.NewReplacer("{project}", project, "{pid}", strconv.Itoa(os.Getpid())).Replace(raw)
	if !filepath.IsAbs(s) {
		s = project + "/" + s
	}
	return s
}

// oPath is O_PATH on every Linux port of Go; package syscall lacks it.
// An O_PATH open neither reads nor blocks, whatever the file is.
const oPath = 0x200000

// kernelResolve asks the kernel which file p names: it opens p with O_PATH
// and reads the name of the descriptor back.
func kernelResolve(p string) (string, error) {
	fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	defer syscall.Close(fd)
	return os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
}
