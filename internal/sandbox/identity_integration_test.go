// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Identity attacks: a root caller's command reads nothing only root may
// read, runs as an id that owns nothing on the host, still owns and
// writes the project as its owner, and sees neither the host's network
// interfaces and machine identity under /sys nor the host's cgroup tree.
// Each is judged from outside; as uid 65534 (TestAttacksAsUnprivilegedUser)
// the command is the caller, as before, and the same checks hold.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// ownedByCommand gives host paths to the command's host uid, so that file
// ownership (DAC) is not what refuses it: a root caller's command is
// hostID, anyone else's the caller.
func ownedByCommand(t *testing.T, paths ...string) {
	t.Helper()
	if os.Getuid() != 0 {
		return
	}
	for _, p := range paths {
		if err := os.Lchown(p, hostID, hostID); err != nil {
			t.Fatal(err)
		}
	}
}

// maxRootOnly bounds the files the walk collects.
const maxRootOnly = 5000

// rootOnly reports whether only uid 0 may read a file of this status:
// root owns it, others may not read it, and its group may not either,
// unless that group is root's.
func rootOnly(st *syscall.Stat_t) bool {
	m := st.Mode & 0o777
	return st.Uid == 0 && m&0o004 == 0 && (m&0o040 == 0 || st.Gid == 0)
}

// rootOnlyFiles walks /etc, /root and /var/lib, and the top level of
// /proc, for regular files only uid 0 may read, as far as this process
// can see them.
func rootOnlyFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	add := func(p string, d fs.DirEntry) {
		if !d.Type().IsRegular() || strings.ContainsAny(p, "\n") || len(out) >= maxRootOnly {
			return
		}
		var st syscall.Stat_t
		if syscall.Lstat(p, &st) == nil && rootOnly(&st) {
			out = append(out, p)
		}
	}
	for _, root := range []string{"/etc", "/root", "/var/lib"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			add(p, d)
			return nil
		})
	}
	ents, _ := os.ReadDir("/proc")
	for _, d := range ents {
		add("/proc/"+d.Name(), d)
	}
	return out
}

// plantCanary writes a 0600 root file with a random secret in dir, as
// root, and returns its path and secret.
func plantCanary(t *testing.T, dir string) (string, string) {
	t.Helper()
	var b [12]byte
	rand.Read(b[:])
	secret := "warden-canary-" + hex.EncodeToString(b[:])
	p := filepath.Join(dir, ".warden-test-canary-"+hex.EncodeToString(b[:4]))
	if err := os.WriteFile(p, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatalf("plant the canary: %v", err)
	}
	t.Cleanup(func() { os.Remove(p) })
	return p, secret
}

// readScript opens each file listed in the project's file list, one a
// line, and prints those it could open but for masks (the host's regular
// files that are a device inside: /dev/null); then prints the named files.
// (true, not the special builtin ":", whose failed redirection would end
// the shell.)
const readScript = `while IFS= read -r f; do if true 2>/dev/null < "$f" && ! [ -c "$f" ]; then echo "READ:$f"; fi; done < list; for c in "$@"; do cat -- "$c" 2>/dev/null; done; exit 0`

func TestAdversarialIdentityRootOnlyFiles(t *testing.T) {
	var canaries, secrets []string
	home := "" // as warden run does: the caller's, masked
	if os.Getuid() == 0 {
		home = "/root"
		for _, dir := range []string{"/etc", "/root"} {
			p, s := plantCanary(t, dir)
			canaries, secrets = append(canaries, p), append(secrets, s)
		}
	}
	files := rootOnlyFiles(t)
	t.Logf("%d files only root may read (canaries %q): %q", len(files), canaries, files)
	if os.Getuid() == 0 && len(files) < len(canaries) {
		t.Fatalf("the walk found %d files, not even the canaries", len(files))
	}
	project := varTempDir(t)
	if err := os.WriteFile(filepath.Join(project, "list"), []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{"sh", "-c", readScript, "sh"}, canaries...)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: home, Argv: argv})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, l := range strings.Split(o.stdout, "\n") {
		if p, ok := strings.CutPrefix(l, "READ:"); ok {
			t.Errorf("the command could open %s, which only root may read", p)
		}
	}
	for _, s := range secrets {
		if strings.Contains(o.stdout, s) {
			t.Errorf("the command read the canary %s", s)
		}
	}
	if os.Getuid() != 0 {
		return
	}
	// Control: the command as host uid 0, as before, reads them.
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: home, Argv: argv, Degraded: []Layer{LayerHostUID}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, s := range secrets {
		if !strings.Contains(o.stdout, s) {
			t.Errorf("control: as host uid 0 the command did not read the canary %s, so the test proves nothing", s)
		}
	}
	if !strings.Contains(o.stdout, "READ:"+canaries[0]) {
		t.Errorf("control: as host uid 0 the command could not open %s", canaries[0])
	}
}

// statOwner returns a host file's owner.
func statOwner(t *testing.T, p string) (uint32, uint32) {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	return st.Uid, st.Gid
}

func TestAdversarialIdentityProjectOwnership(t *testing.T) {
	type want struct{ uid, gid uint32 }
	owners := []want{{uint32(os.Getuid()), uint32(os.Getgid())}}
	if os.Getuid() == 0 {
		// A root caller in someone else's project: that user's files
		// are the command's, and what it makes is theirs.
		owners = append(owners, want{4242, 4343})
	}
	for _, ow := range owners {
		t.Run(fmt.Sprintf("owner %d:%d", ow.uid, ow.gid), func(t *testing.T) {
			project := varTempDir(t)
			secret := filepath.Join(project, "private")
			if err := os.WriteFile(secret, []byte("owner-only\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(project, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{project, secret, filepath.Join(project, "sub")} {
				if err := os.Lchown(p, int(ow.uid), int(ow.gid)); err != nil {
					t.Fatal(err)
				}
			}
			o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(
				"cat private && echo more >> private && echo new > new && mkdir dir && echo deep > dir/f && echo s > sub/f && ln -s new link && echo ok")})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if !strings.Contains(o.stdout, "owner-only") || !strings.HasSuffix(o.stdout, "ok\n") {
				t.Fatalf("the owner's project was not readable and writable inside:\n%s%s", o.stdout, o.stderr)
			}
			for _, p := range []string{"new", "dir", "dir/f", "sub/f", "link", "private"} {
				uid, gid := statOwner(t, filepath.Join(project, p))
				if uid != ow.uid || gid != ow.gid {
					t.Errorf("%s is owned by %d:%d on the host, want the project owner %d:%d", p, uid, gid, ow.uid, ow.gid)
				}
			}
			if b, _ := os.ReadFile(secret); string(b) != "owner-only\nmore\n" {
				t.Errorf("the append did not reach the host: %q", b)
			}
			// Read-only mode: still readable as the owner, not writable.
			o = run(t, Spec{Project: project, Mode: ReadOnly, Argv: sh("cat private; echo x > private2; cat sub/f")})
			if o.err != nil {
				t.Fatal(o.err)
			}
			if !strings.Contains(o.stdout, "owner-only") || !strings.Contains(o.stdout, "s\n") {
				t.Errorf("read-only mode hid the owner's files:\n%s%s", o.stdout, o.stderr)
			}
			if _, err := os.Stat(filepath.Join(project, "private2")); err == nil {
				t.Error("read-only mode let the command write the project")
			}
		})
	}
}

// TestAdversarialIdentityUnderRootHome runs a project and a cache inside
// root's 0700 home: reachable and writable, the rest of the home not.
func TestAdversarialIdentityUnderRootHome(t *testing.T) {
	sandboxtest.RequireRoot(t)
	home, err := os.MkdirTemp("/var/tmp", "warden-roothome-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	// The cache's directories are 0700, as warden makes them.
	project, cache := filepath.Join(home, "work", "proj"), filepath.Join(home, ".cache", "warden", "run")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "notes"), []byte("root's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: home, Cache: cache, Argv: sh(
		`pwd && echo p > "$PWD/made" && echo c > "$XDG_CACHE_HOME/made" && cat ` + home + `/notes; ls -a ` + home)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, p := range []string{filepath.Join(project, "made"), filepath.Join(cache, "made")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the command could not write %s: %v", p, err)
		}
	}
	if strings.Contains(o.stdout, "root's own") {
		t.Error("the command read a file of root's 0700 home outside the project")
	}
	if !strings.Contains(o.stdout, project+"\n") {
		t.Errorf("the project is not the working directory:\n%s", o.stdout)
	}
}

// commandStatus runs argv (which must end by sleeping with the unique
// marker as its argument) and returns /proc/<pid>/status of that process
// as the host sees it.
func commandStatus(t *testing.T, spec Spec, marker string) string {
	t.Helper()
	sandboxtest.RequireUserNS(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	spec.Stdin, spec.Stdout, spec.Stderr = strings.NewReader(""), os.Stderr, os.Stderr
	spec.Timeout = time.Minute
	go func() {
		_, err := warmRun(ctx, spec)
		done <- err
	}()
	want := "sleep\x00" + marker + "\x00"
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the run ended before its command was seen: %v", err)
		default:
		}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && string(b) == want {
				st, err := os.ReadFile("/proc/" + e.Name() + "/status")
				if err != nil {
					t.Fatal(err)
				}
				cancel()
				<-done
				return string(st)
			}
		}
	}
	t.Fatal("the sandboxed command never appeared in the host's /proc")
	return ""
}

// statusIDs returns the Uid, Gid and Groups lines' fields.
func statusIDs(status string) (uids, gids, groups []string) {
	sc := bufio.NewScanner(strings.NewReader(status))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		switch k {
		case "Uid":
			uids = strings.Fields(v)
		case "Gid":
			gids = strings.Fields(v)
		case "Groups":
			groups = strings.Fields(v)
		}
	}
	return
}

func TestAdversarialIdentityHostUID(t *testing.T) {
	marker := fmt.Sprintf("%d.%d", 1000+os.Getpid()%1000, time.Now().UnixNano()%1000000)
	status := commandStatus(t, Spec{Project: varTempDir(t), Mode: WorkspaceWrite, Argv: []string{"sleep", marker}}, marker)
	uids, gids, groups := statusIDs(status)
	wantID := fmt.Sprint(os.Getuid())
	wantGid := fmt.Sprint(os.Getgid())
	if os.Getuid() == 0 {
		wantID, wantGid = fmt.Sprint(hostID), fmt.Sprint(hostID)
	}
	for _, u := range uids {
		if u != wantID {
			t.Errorf("the command's host uids are %v, want all %s", uids, wantID)
			break
		}
	}
	for _, g := range gids {
		if g != wantGid {
			t.Errorf("the command's host gids are %v, want all %s", gids, wantGid)
			break
		}
	}
	if os.Getuid() == 0 && len(groups) != 0 {
		t.Errorf("the command kept supplementary groups %v", groups)
	}
	if len(uids) != 4 || len(gids) != 4 {
		t.Fatalf("no Uid and Gid lines in:\n%s", status)
	}
	if os.Getuid() != 0 {
		return
	}
	// Control: degraded, the command is host uid 0 again, as the test
	// would see it.
	marker += "1"
	status = commandStatus(t, Spec{Project: varTempDir(t), Mode: WorkspaceWrite, Argv: []string{"sleep", marker}, Degraded: []Layer{LayerHostUID}}, marker)
	if uids, _, _ := statusIDs(status); len(uids) == 0 || uids[0] != "0" {
		t.Errorf("control: with --degraded=host-uid the command's host uids are %v, want 0", uids)
	}
}

func TestAdversarialIdentitySysHostIdentity(t *testing.T) {
	if os.Getuid() == 0 {
		if ip, err := exec.LookPath("ip"); err == nil {
			var b [3]byte
			rand.Read(b[:])
			name := "wdn" + hex.EncodeToString(b[:])
			if out, err := exec.Command(ip, "link", "add", name, "type", "dummy").CombinedOutput(); err == nil {
				t.Cleanup(func() { exec.Command(ip, "link", "del", name).Run() })
			} else {
				t.Logf("no dummy interface (%v): %s", err, out)
			}
		}
	}
	var host []string
	ents, err := os.ReadDir("/sys/class/net")
	if err != nil {
		t.Skipf("the host has no /sys/class/net: %v", err)
	}
	for _, e := range ents {
		host = append(host, e.Name())
	}
	if !slices.ContainsFunc(host, func(n string) bool { return n != "lo" }) {
		t.Skipf("control impossible: the host's /sys/class/net lists only %v", host)
	}
	o := run(t, Spec{Argv: sh(`ls /sys/class/net; echo --; ls /sys/devices/virtual/net; echo --; ` +
		`cat /sys/class/net/*/address; echo --; ls /sys/firmware /sys/devices/virtual/dmi /sys/class/dmi/id 2>/dev/null; echo --; ls /sys/devices/system/cpu | grep -c cpu`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	parts := strings.Split(o.stdout, "--\n")
	if len(parts) != 5 {
		t.Fatalf("unexpected output:\n%s", o.stdout)
	}
	for i, what := range []string{"/sys/class/net", "/sys/devices/virtual/net"} {
		if got := strings.Fields(parts[i]); !slices.Equal(got, []string{"lo"}) {
			t.Errorf("%s lists %v inside, want only lo (the host has %v)", what, got, host)
		}
	}
	for _, h := range host {
		if h == "lo" {
			continue
		}
		if b, err := os.ReadFile("/sys/class/net/" + h + "/address"); err == nil {
			if mac := strings.TrimSpace(string(b)); mac != "" && mac != "00:00:00:00:00:00" && strings.Contains(parts[2], mac) {
				t.Errorf("the host's MAC address %s of %s is visible inside", mac, h)
			}
		}
	}
	if strings.TrimSpace(parts[3]) != "" {
		t.Errorf("host firmware or DMI identity is listed inside:\n%s", parts[3])
	}
	// Control: the sandbox's sysfs is a working one.
	if strings.TrimSpace(parts[4]) == "0" {
		t.Errorf("the sandbox's /sys/devices/system/cpu is empty")
	}
}

func TestAdversarialIdentityCgroupNamespace(t *testing.T) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Skipf("no /proc/self/cgroup: %v", err)
	}
	o := run(t, Spec{Argv: sh("cat /proc/self/cgroup; echo --; ls -a /sys/fs/cgroup; echo --; grep -c cgroup /proc/self/mountinfo || true")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	parts := strings.Split(o.stdout, "--\n")
	if len(parts) != 3 {
		t.Fatalf("unexpected output:\n%s", o.stdout)
	}
	lines := strings.Split(strings.TrimSpace(parts[0]), "\n")
	if len(lines) != len(strings.Split(strings.TrimSpace(string(self)), "\n")) {
		t.Errorf("the sandbox's /proc/self/cgroup has %d lines, the host's %d", len(lines), len(strings.Split(strings.TrimSpace(string(self)), "\n")))
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, ":/") {
			t.Errorf("/proc/self/cgroup inside shows a host path: %s", l)
		}
	}
	// Control: the run had a cgroup of its own below the caller's, so
	// without a namespace the paths would not be "/".
	if o.res.Cgroup == "" {
		t.Logf("the run had no cgroup; the paths are the caller's own, and / only through the namespace")
	}
	// /sys/fs/cgroup holds the run's own cgroup, or nothing: no
	// hierarchy of the host, no warden directory of other runs.
	for _, name := range strings.Fields(parts[1]) {
		switch {
		case name == "." || name == "..":
		case o.res.Cgroup == "v2" && (strings.HasPrefix(name, "cgroup.") || strings.Contains(name, ".")):
		default:
			t.Errorf("/sys/fs/cgroup inside shows %q of the host's tree", name)
		}
	}
}

// TestAdversarialIdentityFailClosed refuses idmapped mounts, as a kernel or
// filesystem without them would: a root caller's run stops with a setup
// error and nothing runs, unless the caller names the degradation.
func TestAdversarialIdentityFailClosed(t *testing.T) {
	sandboxtest.RequireRoot(t)
	testOnlyRefuseIdmap = true
	defer func() { testOnlyRefuseIdmap = false }()
	project := varTempDir(t)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) {
		t.Fatalf("err = %v, want a SetupError", o.err)
	}
	if !strings.Contains(se.What, "idmapped mount") || !strings.Contains(se.Hint, "--degraded=host-uid") {
		t.Errorf("the error does not say what failed and how to go on: %v", se)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Error("the command ran although its idmapped project could not be made")
	}
	// Control: named by the caller, the degradation runs, as host uid 0.
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran"), Degraded: []Layer{LayerHostUID}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if uid, _ := statOwner(t, filepath.Join(project, "ran")); uid != 0 {
		t.Errorf("degraded, the file is owned by %d, want 0", uid)
	}
}

// TestAdversarialIdentityHostIDTaken gives the unprivileged id to a user:
// a root caller's run refuses to share it.
func TestAdversarialIdentityHostIDTaken(t *testing.T) {
	sandboxtest.RequireRoot(t)
	dir := t.TempDir()
	passwd := filepath.Join(dir, "passwd")
	if err := os.WriteFile(passwd, []byte(fmt.Sprintf("root:x:0:0::/root:/bin/sh\nsquatter:x:%d:%d::/:/bin/sh\n", hostID, hostID)), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := hostIDFiles
	hostIDFiles.passwd = passwd
	defer func() { hostIDFiles = saved }()
	project := varTempDir(t)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) || !strings.Contains(se.What, "squatter") {
		t.Fatalf("err = %v, want a SetupError naming the user that has the id", o.err)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Error("the command ran with an id that a host user has")
	}
}

// TestAdversarialPlanAhead: a run's plan (its view, init's
// configuration, a root caller's user namespace) may be begun while the
// command is judged (StartPlan). A run takes it only for the very spec it
// was begun for: a spec changed in between is planned anew, so a plan
// never gives a run more than its own spec. A root caller's project whose
// owner changed in between is mapped to its owner at the run, never to
// the one the namespace was begun for.
func TestAdversarialPlanAhead(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	// runPlanned runs spec with the plan begun for planned, and says
	// whether the run took it.
	runPlanned := func(t *testing.T, planned, spec Spec) (stdout string, taken bool) {
		t.Helper()
		var out, errb bytes.Buffer
		for _, s := range []*Spec{&planned, &spec} {
			s.Stdin, s.Stdout, s.Stderr, s.Timeout = eofReader{}, &out, &errb, time.Minute
		}
		a := StartPlan(planned)
		defer a.Close()
		spec.Plan = a
		res, err := Run(context.Background(), spec)
		if err != nil || res.Status() != 0 {
			t.Fatalf("run: %v (status %d)\n%s%s", err, res.Status(), out.String(), errb.String())
		}
		return out.String(), a.matched
	}
	t.Run("spec changed after the plan", func(t *testing.T) {
		project := varTempDir(t)
		spec := Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo x > written; echo done")}
		ro := spec
		ro.Mode = ReadOnly
		out, taken := runPlanned(t, spec, ro)
		if taken {
			t.Error("a run took a plan begun for another spec")
		}
		if !strings.Contains(out, "done") {
			t.Fatalf("the run did not run: %q", out)
		}
		if _, err := os.Stat(filepath.Join(project, "written")); err == nil {
			t.Fatal("a plan begun for a writable project made the read-only run's project writable")
		}
	})
	t.Run("same spec", func(t *testing.T) {
		project := varTempDir(t)
		spec := Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo x > written && echo ok")}
		out, taken := runPlanned(t, spec, spec)
		if !taken || !strings.HasSuffix(out, "ok\n") {
			t.Fatalf("the run took its plan: %v; output %q", taken, out)
		}
		if _, err := os.Stat(filepath.Join(project, "written")); err != nil {
			t.Fatalf("the run with its own plan did not write its project: %v", err)
		}
	})
	if os.Getuid() == 0 {
		for _, tt := range []struct {
			name        string
			ahead, then [2]int // the owner when planned, and at the run
		}{
			{"same owner", [2]int{4242, 4343}, [2]int{4242, 4343}},
			{"owner changed after the plan", [2]int{4242, 4343}, [2]int{5252, 5353}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				project := varTempDir(t)
				if err := os.Lchown(project, tt.ahead[0], tt.ahead[1]); err != nil {
					t.Fatal(err)
				}
				spec := Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo new > new && echo ok")}
				spec.Stdin, spec.Stdout, spec.Stderr, spec.Timeout = eofReader{}, io.Discard, io.Discard, time.Minute
				spec.Plan = StartPlan(spec)
				defer spec.Plan.Close()
				if err := os.Lchown(project, tt.then[0], tt.then[1]); err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), spec)
				if err != nil || res.Status() != 0 || !spec.Plan.matched {
					t.Fatalf("run: %v (status %d), plan taken %v", err, res.Status(), spec.Plan.matched)
				}
				uid, gid := statOwner(t, filepath.Join(project, "new"))
				if int(uid) != tt.then[0] || int(gid) != tt.then[1] {
					t.Errorf("new is owned by %d:%d on the host, want the project's owner at the run %d:%d", uid, gid, tt.then[0], tt.then[1])
				}
			})
		}
	}
	// One no run took is freed: its descriptors are not left open.
	before := openFDs(t)
	StartPlan(Spec{Project: varTempDir(t), Mode: WorkspaceWrite, Argv: []string{"true"}}).Close()
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors open after an untaken plan was closed, %d before", after, before)
	}
}

// eofReader is an empty stdin that compares equal to itself.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}
