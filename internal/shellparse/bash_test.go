// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/shellparse"
)

// shells are run for real in the differential test, so that the code they
// are given is executed (and its programs recorded) too.
var shells = []string{"bash", "sh", "dash"}

// recorder is the stand-in for every other program: it appends its name
// and arguments, NUL-separated and preceded by their count, to a log file
// of its own (processes of a pipeline run at the same time).
// It uses only shell builtins: PATH holds nothing else.
const recorder = `#!%s
{ printf '%%d\0' $(( $# + 1 )); printf '%%s\0' "${0##*/}"; for a in "$@"; do printf '%%s\0' "$a"; done; } >> '%s'/$$
`

var standIn = regexp.MustCompile(`^[a-z0-9][a-z0-9._+-]*$`)

// TestBashDifferential runs every corpus command marked safe under real
// bash, with a PATH that holds only stand-in programs, and checks that
// every program bash started is among the analysis' invocations, with the
// same argv where the invocation is static. A miss is a security bug in
// the analyser.
func TestBashDifferential(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("requires bash on PATH: %v", err)
	}
	dash, _ := exec.LookPath("dash")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("requires sh on PATH: %v", err)
	}
	if testing.Short() {
		t.Skip("runs bash hundreds of times; skipped with -short")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	home := filepath.Join(tmp, "home")
	work := filepath.Join(tmp, "a", "b", "work")
	logf := filepath.Join(tmp, "log")
	for _, d := range []string{bin, home, work, logf} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rec := filepath.Join(tmp, "recorder")
	if err := os.WriteFile(rec, []byte(fmt.Sprintf(recorder, sh, logf)), 0o755); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(rec); !bytes.Contains(b, []byte(logf)) {
		t.Fatalf("recorder script malformed:\n%s", b)
	}

	entries := readCorpus(t)
	opt := shellparse.Options{Cwd: work, Home: home}
	names := map[string]bool{}
	for _, e := range entries {
		for _, inv := range shellparse.Analyze(e.cmd, opt).Invocations {
			if n := inv.Argv[0]; standIn.MatchString(n) {
				names[n] = true
			}
		}
	}
	// Common programs that a corpus command might start without the
	// analyser naming them: if it did, the stand-in records the miss.
	for _, n := range []string{"id", "ls", "cat", "rm", "git", "curl", "wget", "env", "sudo", "xargs", "find", "python3", "perl"} {
		names[n] = true
	}
	for n := range names {
		target := rec
		switch {
		case n == "bash":
			target = bash
		case n == "sh":
			target = sh
		case n == "dash" && dash != "":
			target = dash
		}
		if err := os.Symlink(target, filepath.Join(bin, n)); err != nil {
			t.Fatal(err)
		}
	}

	ran := 0
	for _, e := range entries {
		if !e.safe {
			continue
		}
		ran++
		os.RemoveAll(logf)
		os.Mkdir(logf, 0o755)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bash, "-c", e.cmd)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + bin, "HOME=" + home, "LC_ALL=C"}
		cmd.Stdin = nil
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_ = cmd.Run() // commands may fail: only what they started matters
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel()
		if timedOut {
			t.Errorf("corpus.txt:%d: %q timed out under bash", e.line, e.cmd)
			continue
		}
		var data []byte
		logs, _ := os.ReadDir(logf)
		for _, l := range logs {
			b, err := os.ReadFile(filepath.Join(logf, l.Name()))
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, b...)
		}
		an := shellparse.Analyze(e.cmd, opt)
		for _, argv := range parseLog(t, data) {
			if !covered(an, argv) {
				t.Errorf("corpus.txt:%d: bash -c %q started %q, which is not among the invocations %q (unresolved %q)",
					e.line, e.cmd, argv, an.Commands(), an.Unresolved)
			}
		}
		// Clean the working directory between commands.
		ents, _ := os.ReadDir(work)
		for _, d := range ents {
			os.RemoveAll(filepath.Join(work, d.Name()))
		}
	}
	t.Logf("ran %d corpus commands under %s", ran, bash)
}

// covered reports whether a program bash started is among the
// invocations: same name, and same arguments unless the invocation is
// dynamic. A program that no invocation names is covered only by an
// invocation whose name could not be determined, in an unresolved
// analysis.
func covered(an *shellparse.Analysis, argv []string) bool {
	name := strings.ToLower(argv[0])
	named := false
	for _, inv := range an.Invocations {
		if inv.Argv[0] != name {
			continue
		}
		named = true
		if inv.Dynamic || slices.Equal(inv.Argv[1:], argv[1:]) {
			return true
		}
	}
	if named || an.Unresolved == "" {
		return false
	}
	for _, inv := range an.Invocations {
		if inv.Dynamic && !standIn.MatchString(inv.Argv[0]) {
			return true
		}
	}
	return false
}

// parseLog splits the recorder's log into argv vectors.
func parseLog(t *testing.T, data []byte) [][]string {
	t.Helper()
	parts := strings.Split(string(data), "\x00")
	var out [][]string
	for i := 0; i < len(parts)-1; {
		n, err := strconv.Atoi(parts[i])
		if err != nil || i+1+n > len(parts) {
			t.Fatalf("malformed recorder log at %d: %q", i, parts[i])
		}
		out = append(out, parts[i+1:i+1+n])
		i += 1 + n
	}
	return out
}
