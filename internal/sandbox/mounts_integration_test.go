// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Nothing lost silently (issue 12, item 7) and the bounds of the private
// tmpfs (item 5): a write to a masked or protected path fails loudly and is
// reported; a project and a home under /tmp stay visible; the private
// tmpfs mounts are bounded together, by the memory fallback and by
// limits.disk and limits.inodes.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// writeRoutes are the ways a program writes a file, each a shell snippet
// writing to the file named by $1 ("x" holds other bytes).
var writeRoutes = []struct{ name, script string }{
	{"redirect", `echo overwritten > "$1"`},
	{"append", `echo appended >> "$1"`},
	{"truncate", `truncate -s 0 "$1"`},
	{"python-open", `python3 -c 'import sys; open(sys.argv[1], "w").write("overwritten")' "$1"`},
	{"mv-over", `echo moved > x && mv x "$1"`},
	{"cp-over", `echo copied > x && cp x "$1"`},
}

// maskedPlant makes a project with a .env and a home with an SSH key, both
// world-readable (only the sandbox may hide them), and returns them with
// the files' paths.
func maskedPlant(t *testing.T) (project, home, env, key string) {
	t.Helper()
	project, home = varTempDir(t), varTempDir(t)
	os.Chmod(project, 0o777)
	env, key = filepath.Join(project, ".env"), filepath.Join(home, ".ssh", "id_ed25519")
	for p, body := range map[string]string{
		env: "API_TOKEN=warden-test-secret-env\n", key: "warden-test-secret-key\n",
		filepath.Join(project, "notes.txt"): "control\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o666)
	}
	return project, home, env, key
}

// refused reports whether res lists a refusal of kind for p or a directory
// above it.
func refused(res Result, p, kind string) bool {
	for _, r := range res.Refused {
		if r.Kind == kind && (r.Path == p || strings.HasPrefix(p, r.Path+"/")) {
			return true
		}
	}
	return false
}

// TestAdversarialMasksWriteFails: every ordinary way of writing a masked
// file (the project's .env, a key in the masked ~/.ssh) fails with a status
// and a message the program prints, the host file is byte-identical, and
// the run lists the refusal. The control writes an unmasked file the same
// ways and sees each one land.
func TestAdversarialMasksWriteFails(t *testing.T) {
	for _, route := range writeRoutes {
		t.Run(route.name, func(t *testing.T) {
			if strings.HasPrefix(route.script, "python3") && !haveCmd("python3") {
				t.Skip("requires python3 on PATH")
			}
			project, home, env, key := maskedPlant(t)
			for _, target := range []string{env, key} {
				before, _ := os.ReadFile(target)
				arg := target
				if target == env {
					arg = ".env" // as an agent writes it, relative
				}
				o := run(t, Spec{Project: project, Home: home, Mode: WorkspaceWrite,
					Argv: []string{"sh", "-c", route.script + `; echo "rc=$?"`, "sh", arg}})
				if o.err != nil {
					t.Fatal(o.err)
				}
				if strings.Contains(o.stdout, "rc=0") {
					t.Errorf("%s: the write to the masked %s reported success", route.name, target)
				}
				if strings.TrimSpace(o.stderr) == "" {
					t.Errorf("%s: the failed write to %s printed no message", route.name, target)
				}
				if after, _ := os.ReadFile(target); !bytes.Equal(before, after) {
					t.Errorf("%s: the host's %s changed: %q", route.name, target, after)
				}
				if !refused(o.res, target, audit.RefusedMasked) {
					t.Errorf("%s: the refusal of %s is not listed: %+v", route.name, target, o.res.Refused)
				}
			}
			// Control: the same route writes an unmasked file.
			notes := filepath.Join(project, "notes.txt")
			o := run(t, Spec{Project: project, Home: home, Mode: WorkspaceWrite,
				Argv: []string{"sh", "-c", route.script + `; echo "rc=$?"`, "sh", "notes.txt"}})
			if b, _ := os.ReadFile(notes); o.err != nil || !strings.Contains(o.stdout, "rc=0") || string(b) == "control\n" {
				t.Errorf("control: %s did not write notes.txt (%v, %q), so the test proves nothing", route.name, o.err, b)
			}
			if len(o.res.Refused) != 0 {
				t.Errorf("control: refusals listed for a write that succeeded: %+v", o.res.Refused)
			}
		})
	}
}

// TestAdversarialMasksReadAndChange: inside, a masked file reads as nothing
// or fails, and cannot be removed, chmodded or linked to; nothing can be
// created in a masked directory. From outside, every file is unchanged and
// the directory has no new entry.
func TestAdversarialMasksReadAndChange(t *testing.T) {
	project, home, env, key := maskedPlant(t)
	ssh := filepath.Dir(key)
	o := run(t, Spec{Project: project, Home: home, Mode: WorkspaceWrite, Argv: sh(`
for c in 'cat .env' 'rm -f .env' 'chmod 666 .env' 'ln -f .env hard' 'mkdir ~/.ssh/d' 'touch ~/.ssh/new' \
         'ln -s /etc/passwd ~/.ssh/authorized_keys' 'cat ~/.ssh/id_ed25519' 'ls ~/.ssh'; do
  sh -c "$c"; echo "$c: rc=$?"
done`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout+o.stderr, "warden-test-secret") {
		t.Errorf("a masked secret was read:\n%s", o.stdout)
	}
	for _, line := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
		if !strings.HasPrefix(line, "cat ") && strings.HasSuffix(line, "rc=0") {
			t.Errorf("%s: a change to a masked path succeeded", line)
		}
	}
	if b, _ := os.ReadFile(env); string(b) != "API_TOKEN=warden-test-secret-env\n" {
		t.Errorf("the host's .env changed: %q", b)
	}
	if b, _ := os.ReadFile(key); string(b) != "warden-test-secret-key\n" {
		t.Errorf("the host's key changed: %q", b)
	}
	if ents, _ := os.ReadDir(ssh); len(ents) != 1 {
		t.Errorf("entries were created in the masked %s: %v", ssh, ents)
	}
	if _, err := os.Lstat(filepath.Join(project, "hard")); err == nil {
		t.Error("a hard link to the masked .env was made")
	}
	if !refused(o.res, env, audit.RefusedMasked) || !refused(o.res, key, audit.RefusedMasked) {
		t.Errorf("the refusals are not listed: %+v", o.res.Refused)
	}
}

// TestAdversarialProtectedSaysReadOnly: writing a protected path says
// "Read-only file system", not "Device or resource busy", and the run
// lists the refusal; removing or renaming over it (a mount point) is
// refused too, with EBUSY, and listed when the message names it.
func TestAdversarialProtectedSaysReadOnly(t *testing.T) {
	project := varTempDir(t)
	os.Chmod(project, 0o777)
	config := filepath.Join(project, ".git", "config")
	hook := filepath.Join(project, ".git", "hooks", "pre-commit")
	for p, body := range map[string]string{config: "[core]\n", hook: "#!/bin/sh\n"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o666)
		os.Chmod(filepath.Dir(p), 0o777)
	}
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(`
echo '[core] fsmonitor = x' >> .git/config; echo "append: rc=$?"
echo evil > .git/hooks/pre-commit; echo "hook: rc=$?"
rm -f .git/config; echo "rm: rc=$?"
echo other > .git/c2 && mv .git/c2 .git/config; echo "mv: rc=$?"
echo data > .git/ok && echo "control: rc=$?"`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, what := range []string{"append", "hook", "rm", "mv"} {
		if !strings.Contains(o.stdout, what+": rc=") || strings.Contains(o.stdout, what+": rc=0") {
			t.Errorf("%s: the change to a protected path did not fail", what)
		}
	}
	if !strings.Contains(o.stdout, "control: rc=0") {
		t.Error("control: .git itself was not writable, so the test proves nothing")
	}
	if n := strings.Count(o.stderr, "Read-only file system"); n < 2 {
		t.Errorf("writes said %q, want Read-only file system for both", o.stderr)
	}
	if b, _ := os.ReadFile(config); string(b) != "[core]\n" {
		t.Errorf("the host's .git/config changed: %q", b)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\n" {
		t.Errorf("the host's hook changed: %q", b)
	}
	if !refused(o.res, config, audit.RefusedReadOnly) || !refused(o.res, hook, audit.RefusedReadOnly) {
		t.Errorf("the refusals are not listed: %+v", o.res.Refused)
	}
}

// tmpTempDir is a directory under /tmp, the host's, that uid 65534 can
// enter: where CI machines put projects and homes.
func tmpTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/tmp", "warden-tmpview-")
	if err != nil {
		t.Skipf("requires a writable /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	os.Chmod(d, 0o755)
	return d
}

// TestAdversarialTmpProjectAndHome: a project and a home under the host's
// /tmp stay visible in the sandbox, whose /tmp is its own: the home's files
// readable (not writable), the project writable, the masks of both applied.
func TestAdversarialTmpProjectAndHome(t *testing.T) {
	for _, layout := range []string{"apart", "project-in-home"} {
		t.Run(layout, func(t *testing.T) {
			home := tmpTempDir(t)
			project := tmpTempDir(t)
			if layout == "project-in-home" {
				project = filepath.Join(home, "src")
			}
			files := map[string]string{
				filepath.Join(home, ".profile"):            "home-visible-control\n",
				filepath.Join(home, ".ssh", "id_ed25519"):  "warden-test-secret-key\n",
				filepath.Join(project, "main.go"):          "project-visible-control\n",
				filepath.Join(project, ".env"):             "warden-test-secret-env\n",
				filepath.Join(home, ".config", "settings"): "home-settings\n",
			}
			for p, body := range files {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				os.Chmod(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.Chmod(project, 0o777)
			scratch := "warden-scratch-" + filepath.Base(home)
			o := run(t, Spec{Project: project, Home: home, Mode: WorkspaceWrite, Argv: sh(`
cat ~/.profile main.go; cat ~/.ssh/id_ed25519 .env
echo new > made && echo "project write: rc=$?"
echo x > ~/.config/settings; echo "home write: rc=$?"
echo t > /tmp/` + scratch + ` && echo "tmp write: rc=$?"`)})
			if o.err != nil {
				t.Fatal(o.err)
			}
			for _, want := range []string{"home-visible-control", "project-visible-control", "project write: rc=0", "tmp write: rc=0"} {
				if !strings.Contains(o.stdout, want) {
					t.Errorf("%q missing: the home or project under /tmp is hidden, or /tmp is not writable", want)
				}
			}
			if strings.Contains(o.stdout+o.stderr, "warden-test-secret") {
				t.Errorf("a masked secret under /tmp was read:\n%s", o.stdout)
			}
			if strings.Contains(o.stdout, "home write: rc=0") {
				t.Error("the home under /tmp was writable")
			}
			if b, _ := os.ReadFile(filepath.Join(project, "made")); string(b) != "new\n" {
				t.Errorf("the project write did not reach the host: %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(home, ".config", "settings")); string(b) != "home-settings\n" {
				t.Errorf("the host's home file changed: %q", b)
			}
			if _, err := os.Stat("/tmp/" + scratch); err == nil {
				t.Error("a write to the sandbox's /tmp reached the host's")
			}
		})
	}
}

// TestAdversarialTmpfsSumWithoutCgroup: without a memory cgroup
// (--degraded=cgroup, as a user without cgroups), /tmp, /dev/shm and the
// exec scratch share one bound, the memory limit: filling all three stops
// at it in sum, where each alone used to get the whole of it. It runs the
// real warden binary, as TestLimitFallbackMemory does.
func TestAdversarialTmpfsSumWithoutCgroup(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	dir := varTempDir(t)
	os.Chmod(dir, 0o777)
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nsandbox:\n  mode: read-only\n  limits: {memory: 256MiB}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The project is a directory of the home (the home is never one),
	// and the attack a script of the project's: the policy judges what
	// it can read before the sandbox is built, and would ask about the
	// reads of /tmp on a command line.
	project := filepath.Join(dir, "proj")
	os.Mkdir(project, 0o777)
	os.Chmod(project, 0o777)
	attack := filepath.Join(project, "fill.sh")
	if err := os.WriteFile(attack, []byte(`for d in /tmp /dev/shm /run/warden/exec; do head -c 120000000 /dev/zero > $d/fill; done; cat /tmp/fill /dev/shm/fill /run/warden/exec/fill | wc -c; wc -c < /tmp/fill`), 0o644); err != nil {
		t.Fatal(err)
	}
	argv := []string{warden, "run", "--policy", policy, "--project", project, "--degraded=cgroup", "--", "sh", attack}
	if os.Getuid() == 0 {
		argv = append([]string{sandboxtest.RequireCommand(t, "setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	t.Logf("%v\nstdout: %s\nstderr: %s", err, out.String(), errb.String())
	lines := strings.Fields(out.String())
	if len(lines) != 2 {
		t.Fatalf("unexpected output %q", out.String())
	}
	total, _ := strconv.Atoi(lines[0])
	first, _ := strconv.Atoi(lines[1])
	if total > 256<<20 {
		t.Errorf("the private tmpfs mounts took %d bytes together, want at most 256 MiB", total)
	}
	if first != 120000000 {
		t.Errorf("control: /tmp alone got %d of 120000000 bytes, so the test proves nothing", first)
	}
	if !strings.Contains(errb.String(), "together at most 256MiB") {
		t.Error("the shared bound was not stated on stderr")
	}
}

// TestAdversarialDiskLimitTmpfs: limits.disk and limits.inodes bound what
// the command writes and creates in /tmp, /dev/shm and the exec scratch,
// together; the control, without them, writes it all.
func TestAdversarialDiskLimitTmpfs(t *testing.T) {
	// true, not ":", whose failed redirection would end sh.
	const script = `head -c 16777216 /dev/zero > /tmp/big; wc -c < /tmp/big; rm -f /tmp/big
head -c 6000000 /dev/zero > /dev/shm/a; head -c 6000000 /dev/zero > /run/warden/exec/b; cat /dev/shm/a /run/warden/exec/b | wc -c
rm -f /dev/shm/a /run/warden/exec/b
i=0; while [ $i -lt 5000 ]; do true > /tmp/f$i 2>/dev/null || break; i=$((i+1)); done; echo $i`
	parse := func(t *testing.T, o outcome) (big, pair, files int) {
		t.Helper()
		f := strings.Fields(o.stdout)
		if o.err != nil || len(f) != 3 {
			t.Fatalf("unexpected outcome %v %q", o.err, o.stdout)
		}
		big, _ = strconv.Atoi(f[0])
		pair, _ = strconv.Atoi(f[1])
		files, _ = strconv.Atoi(f[2])
		return big, pair, files
	}
	big, pair, files := parse(t, run(t, Spec{Mode: ReadOnly, Limits: Limits{Disk: 8 << 20, Inodes: 1000}, Argv: sh(script)}))
	if big > 8<<20 || pair > 8<<20 {
		t.Errorf("wrote %d bytes to /tmp and %d to /dev/shm and the scratch together; limits.disk is 8 MiB", big, pair)
	}
	if files > 1000 {
		t.Errorf("created %d files; limits.inodes is 1000", files)
	}
	big, pair, files = parse(t, run(t, Spec{Mode: ReadOnly, Argv: sh(script)}))
	if big != 16<<20 || pair != 12000000 || files != 5000 {
		t.Errorf("control: without limits %d, %d bytes and %d files were written, so the test proves nothing", big, pair, files)
	}
}

// TestAdversarialDiskLimitHostPaths: a disk or inode bound with a writable
// host path, which nothing on this host bounds, stops the run (125) with a
// hint naming what is missing; the command never runs.
func TestAdversarialDiskLimitHostPaths(t *testing.T) {
	extra := varTempDir(t)
	for _, c := range []struct {
		name string
		spec Spec
	}{
		{"project", Spec{Mode: WorkspaceWrite, Limits: Limits{Disk: 8 << 20}}},
		{"inodes", Spec{Mode: WorkspaceWrite, Limits: Limits{Inodes: 1000}}},
		{"read_write", Spec{Mode: ReadOnly, ReadWrite: []string{extra}, Limits: Limits{Disk: 8 << 20}}},
		{"full-access", Spec{Mode: FullAccess, Limits: Limits{Disk: 8 << 20}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			project := varTempDir(t)
			os.Chmod(project, 0o777)
			spec := c.spec
			spec.Project = project
			spec.Argv = sh("echo ran > ran; echo ran > /tmp/ran")
			o := run(t, spec)
			var se *SetupError
			if !errors.As(o.err, &se) || !strings.Contains(se.Error(), "cannot be enforced") || !strings.Contains(se.Hint, "read-only") {
				t.Fatalf("err = %v, want a SetupError saying the bound cannot be enforced, with a hint", o.err)
			}
			if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
				t.Error("the command ran")
			}
		})
	}
	// Control: the same bound in read-only mode runs.
	o := run(t, Spec{Mode: ReadOnly, Limits: Limits{Disk: 8 << 20}, Argv: sh("echo ok")})
	if o.err != nil || strings.TrimSpace(o.stdout) != "ok" {
		t.Errorf("control: read-only mode with limits.disk did not run: %v %q", o.err, o.stdout)
	}
}
