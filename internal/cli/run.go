// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// exitSandbox is the status of a run whose sandbox could not be built.
const exitSandbox = 125

const runSynopsis = `run [--policy FILE] [--project DIR] [--timeout D] [--server] [--audit-json FILE] [--degraded LAYER] -- CMD...

Runs CMD inside Warden's Linux sandbox and exits with its status (128+signal
when it was killed, 125 when the sandbox could not be built, 126 when the
policy, the person, or the post-run check refused what the command did).

Filesystem: new user, mount, pid, ipc, uts and network namespaces; / read-only;
the project read-write (sandbox.mode workspace-write, the default) or
read-only (read-only), or everything writable (full-access); what the host
executes later read-only but in full-access: every entry of each git
directory but its data (objects, refs, logs, index, HEAD...: config, hooks,
info, commondir, worktrees, modules are not), found without running git,
through .git files of linked worktrees and submodules, in nested
repositories too; the core.hooksPath directories of every config level;
.claude, .codex, .gemini, .cursor, .windsurf, .continue, .aider.conf.yml,
.mcp.json, .vscode, .idea, .zed, *.code-workspace, .devcontainer at the
project's top, .envrc and .nvim.lua at any depth, and sandbox.filesystem
protect patterns (CLAUDE.md, AGENTS.md); the policy file; sandbox.filesystem
read_write and read_only paths. After the run, once every process of it is
gone, a post-run check moves what it created or replaced there (a .git
anywhere, but of a plain clone or git init only what could run something; a
new hook or agent setting) into <state dir>/quarantine/<run id>, names it on
stderr and in the record, and the run exits 126. Private noexec /tmp,
/dev/shm and /run, and /run/warden/exec where executables may run (GOTMPDIR),
all one tmpfs (a home below /tmp stays visible, read-only); a per-project
build cache (XDG_CACHE_HOME); a fresh /proc with /proc/sys read-only; a
fresh /sys that lists only the sandbox's loopback, the host's firmware and
DMI identity masked; a minimal /dev; ~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, ~/.npmrc, ~/.docker,
~/.kube, shell histories and the rest of the sensitive set masked, with .env
files and private keys found in the project (.env files inside .git and
node_modules too; hard links to what is masked as well) and to depth 3 of the
home, plus sandbox.filesystem.hide (paths or globs): a masked file cannot be
read or written (the write fails, it is never thrown away); Warden's own
state and configuration directories, its CA and the files
network.credentials are read from masked, whatever the policy says; Landlock
as a second file layer. The project walk is bounded (200,000 entries, 64 levels):
a project past it fails (125) unless --degraded=walk. Masked and read-only
paths whose refusal the command's errors name are listed after the run and
in the record (refused_paths).
A read_write, read_only or hide path, the run cache, the --policy file or
the --audit-json directory that is, or goes through, a symbolic link in a
directory a run can write (the project, a read_write path, the cache) is
refused (125), never followed: an earlier run could have planted it. The
--policy file may not be a link at all; pass its real path.

Home (sandbox.filesystem.home): visible, the default, shows the home read-only
with those masks; hidden replaces it with an empty read-only directory into
which only the project, the toolchain caches (Go modules, cargo, rustup, npm,
Maven, Gradle, pip, uv...) read-only and the policy's read_write and read_only
paths are bound back. warden doctor --policy FILE says which is in force.

Process: uid 65534 (outside, the caller's uid) with no capabilities and
no_new_privs; for a root caller, an unprivileged host uid (2147287040) that owns
nothing, with no groups, the project and writable paths idmapped so that their owner's
files are its own and what it creates is theirs (a directory above them only
root may search shows only them and the toolchains on PATH; in full-access
mode only what others may write is writable outside them); its own cgroup
namespace; a seccomp filter (nested namespaces, ptrace, mount, keyctl, bpf,
io_uring, Unix and raw sockets… refused with EPERM, each refusal recorded);
no network but loopback;
a clean environment (PATH, HOME, LANG, TERM, USER and sandbox.env); signals
passed on to the command.

Time: a wall-clock timeout kills every process of the sandbox: --timeout,
else the policy's sandbox.limits.timeout, else 10m. --timeout 0 runs without
one, said on stderr and in the record (degraded "timeout"). Runs long-lived
by nature have no default timeout: an interactive terminal session (stdin
and stdout a terminal) has the policy's or none, a --server (warden mcp
--sandbox runs its server so) only --timeout's. The record's
limits.timeout_source says which applied.

Terminal: your terminal is never handed in. When stdin and stdout are a
terminal, the command gets a pseudo-terminal of its own (its controlling
terminal, in the sandbox's own devpts, so a shell's prompt, job control and
^C work, and tools can make terminals of their own): warden puts yours in
raw mode, relays it, follows its window size and sets it back exactly as it
was afterwards; no ioctl of the command reaches it. A SIGINT or SIGQUIT
sent to warden goes to the foreground process group of the command's
terminal, as its key would. When only stdin is a terminal (warden run --
cmd | less), the command reads /dev/null: redirect its input to give it one.

Resources: rlimits nofile (default 1024), fsize and core 0; a cgroup (v2
where delegated, else v1) with the policy's memory (swap off), pids and cpu
limits, else the defaults pids 1024 and memory 4GiB (or half the RAM). Where
this user has no cgroups the defaults fall back to rlimits (RLIMIT_DATA,
RLIMIT_NPROC), said after the run; a limit the policy asks for is enforced
or nothing runs (125), unless --degraded=cgroup lets it fall back too.
limits.disk and limits.inodes bound the private tmpfs (all of /tmp, /dev/shm
and /run together, as the memory limit does without a cgroup); a writable
host path cannot be bounded, so with either the project must be read-only.

Approval (sandbox.approval): on-request (the default) and never do not ask;
untrusted asks before a command that is not read-only; on-failure offers,
after a failed run, to rerun once with one blocked thing allowed. Questions
are asked at the controlling terminal only; without one (or with
--no-approver) the answer is no.

Output: stdout and stderr stream live, in full, through pipes (the command
does not see a terminal there), but those on your terminal when the command
has a terminal of its own: they are that terminal, kept as stdout; the first
and last halves of limits.output (default 1MiB) of each are kept, the cut
marked, for the audit.

Audit: --audit-json FILE writes the execution record (id, command and its
SHA-256, status, signal, timeout, duration, peak memory, CPU time, limits,
refused system calls, files changed under the writable roots, kept output,
approval, policy revision) atomically once no process of the run is left,
into a new file renamed over FILE (a link there is replaced, not followed)
in the directory opened before the run; a FILE that cannot be written
stops the run before it starts.

--degraded=landlock|seccomp|cgroup|walk|host-uid runs without that layer, on
purpose; the run says so on stderr and in its record. host-uid is for a root
caller where idmapped mounts cannot be made (Linux 5.12, a filesystem that has
them): the command is host uid 0 again. Nothing else runs with less.

Network: the sandbox's only way out is Warden's egress proxy, outside it,
reached on 127.0.0.1:3128 (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY) and on :80 and
:443 of the addresses its DNS stub (127.0.0.53, the only resolver it sees)
gives allowed names. Every destination is judged by the policy's network
rules (default deny: without rules nothing is reachable); loopback, link-local
and metadata addresses (Azure's 168.63.129.16 too) and the addresses of this
machine's own interfaces never are, private ones only by an exact host or
allowed_ips. Names are resolved once, outside, and only checked addresses are
dialed. A run may have at most 16,384 names resolved, 512 connections to the
proxy (128 not yet judged) and 512 tunnels; past a cap it is refused, and
counted in the record's network_limits. Streams are intercepted (a per-installation CA, trusted through
SSL_CERT_FILE and friends) when a rule names methods or a credential is bound;
a credential's placeholder (warden:cred:NAME) is replaced only for its hosts.
Every attempt is in the execution record's network_attempts.

Flags:`

func runRun(ctx context.Context, args []string) error {
	fs := newFlags("run", runSynopsis)
	policyPath := fs.String("policy", "", "policy `FILE` whose sandbox section applies")
	project := fs.String("project", "", "project `DIR`, the command's working directory (default: the current directory)")
	timeout := fs.Duration("timeout", 0, "wall-clock limit, e.g. 30s; 0 for none (default: the policy's sandbox.limits.timeout, else 10m, else none at a terminal; none for --server)")
	server := fs.Bool("server", false, "CMD is a long-lived server, as warden mcp --sandbox runs one: no default timeout")
	auditPath := fs.String("audit-json", "", "write the execution record as JSON to `FILE`")
	agent := fs.String("agent", "", "agent `NAME` for the execution record")
	task := fs.String("task", "", "task `ID` for the execution record")
	noApprover := fs.Bool("no-approver", false, "never ask at the terminal: every question of the approval policy is answered no")
	var degraded []sandbox.Layer
	fs.Func("degraded", "run without `LAYER` (landlock, seccomp, cgroup, walk or host-uid; repeat or separate with commas); the run says so on stderr and in its record", func(v string) error {
		for _, name := range strings.Split(v, ",") {
			l := sandbox.Layer(strings.TrimSpace(name))
			if !slices.Contains(sandbox.Layers, l) {
				return fmt.Errorf("unknown layer %q (layers: %v)", name, sandbox.Layers)
			}
			if !slices.Contains(degraded, l) {
				degraded = append(degraded, l)
			}
		}
		return nil
	})
	// Flags stop at "--" or at the first argument that is not a flag:
	// everything after is the command, flags included.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return badInput(err.Error())
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return badInput("no command to run", "write the command after --: warden run -- make test")
	}
	if *timeout < 0 {
		return badInput("--timeout must not be negative", "give a duration such as 30s or 10m, or 0 for none")
	}
	timeoutSet := false
	fs.Visit(func(f *flag.Flag) { timeoutSet = timeoutSet || f.Name == "timeout" })

	spec := sandbox.Spec{
		Argv:     argv,
		Project:  *project,
		Mode:     sandbox.WorkspaceWrite,
		Home:     homeDir(),
		Timeout:  *timeout,
		Stdin:    Stdin,
		Stdout:   Stdout,
		Stderr:   Stderr,
		Degraded: degraded,
	}
	// At a terminal the command gets one of its own; the caller's is
	// never handed in. Not when stdout goes elsewhere (warden run -- cmd
	// | less): warden would read the terminal, and set its modes, under
	// the pager's feet; the command then reads /dev/null.
	if isTerminalFile(Stdin) && isTerminalFile(Stdout) {
		spec.Terminal = true
	}
	if sandboxTrace() {
		spec.Trace = Stderr
	}
	for _, l := range degraded {
		warningf("running without %s, as --degraded asks: %s", l, degradedEffect[l])
	}
	if spec.Project == "" {
		spec.Project = cwd()
	}
	if fi, err := os.Stat(spec.Project); err != nil || !fi.IsDir() {
		return badInput(fmt.Sprintf("project directory %q is not a directory", spec.Project),
			"pass an existing directory with --project")
	}
	if abs, err := filepath.Abs(spec.Project); err == nil {
		spec.Project = abs
	}
	spec.Cache = runCache(spec.Project)
	var policyBytes []byte
	var policyApproval policyfile.ApprovalPolicy
	// The embedded default without --policy: no sandbox section, and no
	// network rules (every destination denied).
	var lp *config.Policy
	var policyFile sandbox.HostFile
	var err error
	if *policyPath != "" {
		// Read from a checked descriptor (policyBytes are hashed for
		// the record's policy revision), never through a planted link.
		var held *os.File
		lp, policyBytes, held, policyFile, err = loadRunPolicy(spec, *policyPath)
		if held != nil {
			defer held.Close()
		}
	} else {
		lp, err = loadPolicy("")
	}
	if err != nil {
		return err
	}
	if *policyPath != "" {
		if err := applySandboxPolicy(&spec, lp.File.Sandbox, !timeoutSet); err != nil {
			return err
		}
		policyApproval = lp.File.Sandbox.Approval
		// The policy must not be the governed command's to rewrite:
		// kept read-only wherever it is (inside the project, it would
		// be writable otherwise), and the file kept is the one read.
		spec.ReadOnly = append(spec.ReadOnly, policyFile.Path)
		spec.Pinned = append(spec.Pinned, policyFile)
	}

	// spec.Timeout is the policy's here, when the flag is not given.
	var timeoutSource string
	spec.Timeout, timeoutSource = runTimeout(timeoutSet, *timeout, spec.Timeout, spec.Terminal, *server)
	if timeoutSource == timeoutOff {
		warningf("running without a timeout, as --timeout 0 asks: nothing bounds how long the run takes")
	}

	var recFile *auditFile
	var rec *auditRecord
	if *auditPath != "" {
		a, err := openAudit(*auditPath, spec)
		if err != nil {
			return auditOpenError(*auditPath, err)
		}
		recFile = a
		defer recFile.abandon()
		project := spec.Project
		if abs, err := filepath.Abs(project); err == nil {
			project = abs
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				project = real
			}
		}
		rec = &auditRecord{
			ID: newRunID(), Agent: *agent, Task: *task,
			Command: argv, CommandSHA256: commandHash(argv),
			Project: project, Mode: string(spec.Mode), StartedAt: time.Now().UTC(),
			Unenforced:      []string{},
			Degraded:        degradedNames(degraded, timeoutSource == timeoutOff),
			NetworkAttempts: []audit.NetworkAttempt{}, BlockedSyscalls: []audit.Syscall{}, FilesWritten: []audit.FileChange{}, RefusedPaths: []audit.Refusal{},
			Quarantined:    []audit.Quarantined{},
			NotRecorded:    slices.Clone(notRecorded),
			PolicyRevision: policyRevision(policyBytes, *policyPath != ""),
		}
	}

	if m := managedPolicyPath(); m != "" {
		if abs, err := filepath.Abs(m); err == nil {
			spec.ReadOnly = append(spec.ReadOnly, abs)
		}
	}
	spec.RecordChanges = recFile != nil
	runID := newRunID()
	if rec != nil {
		runID = rec.ID
	}
	spec.Quarantine = quarantineDir(runID)
	// The only way out: the egress proxy and the DNS stub, here, outside
	// the sandbox.
	eg, err := newEgress(runID, lp)
	if err != nil {
		return err
	}
	defer eg.Close()
	spec.Network = eg.Network()
	spec.Env = append(spec.Env, eg.Env()...)
	if err := maskWarden(&spec, lp, eg.TrustBundle()); err != nil {
		return err
	}
	if eg.TrustBundle() != "" && os.Getuid() == 0 && !slices.Contains(spec.ReadOnly, eg.TrustBundle()) {
		// A root caller's command is an unprivileged uid, which cannot
		// search root's home where the trust bundle is: bound, it is
		// visible there (and read-only).
		spec.ReadOnly = append(spec.ReadOnly, eg.TrustBundle())
	}
	// Signals for warden are the command's: passed on, as to a plain
	// run, rather than ending the run (the timeout and SIGKILL still do).
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwardedSignals...)
	defer signal.Stop(sigs)
	// The sandbox is a session of its own: the terminal's ^C reaches
	// warden, never the command directly, so every one is passed on.
	// With a terminal of its own the command gets ^C from it; a SIGINT
	// sent to warden goes to that terminal's foreground process group.
	spec.Signals = sigs
	ctx = context.WithoutCancel(ctx)

	ap := openApprover(*noApprover)
	defer ap.close()
	approval := approvalOf(*policyPath != "", policyApproval)
	if rec != nil {
		rec.Approval = string(approval)
	}
	if approval == policyfile.ApprovalUntrusted {
		if err := approveUntrusted(ap, spec); err != nil {
			if rec != nil {
				rec.Status, rec.Error = err.code, err.msg
				rec.Denied = true
				if werr := recFile.commit(rec); werr != nil {
					errorf("--audit-json: the execution record was not written: %v", werr)
				}
			}
			return err
		}
	}

	res, result := execute(ctx, spec)
	if approval == policyfile.ApprovalOnFailure && result.code != 0 {
		if next, why, ok := onFailure(ap, spec, res, eg); ok {
			if rec != nil {
				rec.FirstAttempt = &auditAttempt{Status: result.code, BlockedSyscalls: res.BlockedSyscalls, Approved: why}
			}
			spec = next
			first := res.Quarantined
			res, result = execute(ctx, spec)
			// What the first attempt planted was taken away too.
			res.Quarantined = append(first, res.Quarantined...)
		}
	}
	if len(res.Quarantined) > 0 {
		result = runResult{exitError: quarantined(res.Quarantined, result.code)}
	}
	if recFile != nil {
		fillResult(rec, res, spec.Timeout)
		rec.Limits.TimeoutSource = timeoutSource
		var dropped int
		rec.NetworkAttempts, dropped = eg.Attempts()
		rec.NetworkLimits = eg.Limits()
		if dropped > 0 {
			rec.NotRecorded = append(rec.NotRecorded, auditNotDone{"network_attempts", fmt.Sprintf("%d attempts past the first %d", dropped, egress.MaxAttempts)})
		}
		rec.Status, rec.Error = result.code, result.msg
		if result.setup {
			rec.ExitCode = result.code
		}
		if werr := recFile.commit(rec); werr != nil {
			// The run is over but its record is lost: say so loudly.
			if result.msg != "" {
				errorf("%s", result.msg)
			}
			return &exitError{code: exitSandbox, msg: fmt.Sprintf("--audit-json: the execution record was not written: %v", werr)}
		}
	}
	return result.exitError
}

// exitQuarantined is the status of a run whose post-run check took away
// what the command planted: the command did something refused.
const exitQuarantined = exitDenied

// quarantined prints what the post-run check took away and returns the
// run's refusal.
func quarantined(qs []audit.Quarantined, status int) *exitError {
	for _, q := range qs {
		where := "removed"
		if q.MovedTo != "" {
			where = "moved to " + q.MovedTo
		}
		if q.Error != "" {
			where += "; " + q.Error
		}
		errorf("post-run check: %s: %s (%s)", q.Path, q.Why, where)
	}
	return &exitError{code: exitQuarantined,
		msg:   fmt.Sprintf("the command planted %d entries the host would execute later (command status %d); they were taken away", len(qs), status),
		hints: []string{"look at them in the quarantine before restoring any; name a path in sandbox.filesystem.read_write to let runs write it"}}
}

// runResult is how one run ended, as an exit status and message.
type runResult struct {
	*exitError
	// setup: the sandbox or the command could not be started.
	setup bool
}

// execute runs spec once and says how it ended.
func execute(ctx context.Context, spec sandbox.Spec) (sandbox.Result, runResult) {
	res, err := sandbox.Run(ctx, spec)
	for _, n := range res.Unenforced {
		warningf("not enforced as asked: %s", n)
	}
	var se *sandbox.SetupError
	var ste *sandbox.StartError
	switch {
	case errors.As(err, &se):
		return res, runResult{&exitError{code: exitSandbox, msg: se.Error()}, true}
	case errors.As(err, &ste):
		return res, runResult{&exitError{code: ste.Status, msg: ste.Msg}, true}
	case err != nil:
		return res, runResult{&exitError{code: exitSandbox, msg: "sandbox unavailable: " + err.Error()}, true}
	}
	if res.InitKilled {
		warningf("the sandbox's init ended while the command ran (signal %d); every process of the sandbox died with it", res.Signal)
	}
	summarizeRefusals(res.Refused)
	if res.TimedOut {
		errorWithHint(fmt.Sprintf("timed out after %v; every process of the sandbox was killed", spec.Timeout),
			"raise --timeout or sandbox.limits.timeout")
	}
	return res, runResult{exitError: &exitError{code: res.Status()}}
}

// applySandboxPolicy copies what the sandbox enforces today from the
// policy's sandbox section and refuses what it cannot enforce yet.
func applySandboxPolicy(spec *sandbox.Spec, sb policyfile.Sandbox, useTimeout bool) error {
	notYet := func(what string) error {
		return &exitError{code: exitSandbox, msg: fmt.Sprintf(
			"sandbox unavailable: %s is not enforced yet (remove it from the policy; warden never runs with less than the policy asks)", what)}
	}
	switch sb.Mode {
	case "", policyfile.WorkspaceWrite:
	case policyfile.ReadOnly:
		spec.Mode = sandbox.ReadOnly
	case policyfile.FullAccess:
		spec.Mode = sandbox.FullAccess
	default:
		return notYet("sandbox.mode " + string(sb.Mode))
	}
	l := sb.Limits
	spec.HideHome = sb.Filesystem.Home == policyfile.HomeHidden
	for _, p := range sb.Filesystem.ReadWrite {
		spec.ReadWrite = append(spec.ReadWrite, hostPath(p, spec.Home, spec.Project))
	}
	for _, p := range sb.Filesystem.ReadOnly {
		spec.ReadOnly = append(spec.ReadOnly, hostPath(p, spec.Home, spec.Project))
	}
	spec.Protect = append(spec.Protect, sb.Filesystem.Protect...)
	// Each limit set here is enforced or the run fails (125); the ones
	// left at zero take the sandbox's defaults.
	spec.Limits = sandbox.Limits{
		Memory: l.Memory.Bytes,
		Pids:   l.Pids,
		CPU:    l.CPU,
		Nofile: l.Nofile,
		Fsize:  l.Fsize.Bytes,
		Disk:   l.Disk.Bytes,
		Inodes: l.Inodes,
		Output: l.Output.Bytes,
	}
	if useTimeout {
		spec.Timeout = l.Timeout
	}
	for _, h := range sb.Filesystem.Hide {
		// Relative entries stay relative: they are patterns matched
		// throughout the project.
		if rest, ok := strings.CutPrefix(h, "~/"); ok && spec.Home != "" {
			h = filepath.Join(spec.Home, rest)
		}
		spec.Hide = append(spec.Hide, h)
	}
	for _, name := range sb.Env.Pass {
		if v, ok := os.LookupEnv(name); ok {
			spec.Env = append(spec.Env, name+"="+v)
		}
	}
	keys := make([]string, 0, len(sb.Env.Set))
	for k := range sb.Env.Set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		spec.Env = append(spec.Env, k+"="+sb.Env.Set[k])
	}
	return nil
}

// degradedEffect says what a run loses without each layer.
var degradedEffect = map[sandbox.Layer]string{
	sandbox.LayerLandlock: "files are contained by the mounts alone",
	sandbox.LayerSeccomp:  "no system call is filtered (nested namespaces, ptrace, io_uring, keyctl, raw sockets are open)",
	sandbox.LayerCgroup:   "limits no cgroup can enforce fall back to per-process rlimits (see the notes after the run)",
	sandbox.LayerWalk:     "past the project walk's bound, sensitive files are not masked and host-executed files not protected",
	sandbox.LayerHostUID:  "a root caller's command runs as host uid 0 (without capabilities) and can read every file only root may read",
}

// degradedNames are the record's degraded list: the layers, and
// "timeout" for a run that --timeout 0 left without one.
func degradedNames(ls []sandbox.Layer, noTimeout bool) []string {
	out := make([]string, 0, len(ls)+1)
	for _, l := range ls {
		out = append(out, string(l))
	}
	if noTimeout {
		out = append(out, "timeout")
	}
	return out
}

// defaultTimeout bounds a run that is not long-lived by nature when
// neither --timeout nor the policy does (DESIGN.md §7).
const defaultTimeout = sandbox.DefaultTimeout

// Where a run's timeout comes from: the execution record's
// limits.timeout_source.
const (
	timeoutDefault = "default" // defaultTimeout
	timeoutPolicy  = "policy"  // sandbox.limits.timeout
	timeoutFlag    = "flag"    // --timeout D
	timeoutOff     = "off"     // --timeout 0: none, as the user asked
	// Runs long-lived by nature have no default timeout. A terminal
	// session still has the policy's; a server has none but
	// --timeout's (the policy's bounds the commands the gateway's
	// agent runs, not the server it talks to).
	timeoutInteractive = "interactive" // a terminal of its own
	timeoutServer      = "server"      // --server (warden mcp --sandbox)
)

// runTimeout is the timeout of a run and where it comes from: --timeout
// when given (flagSet; 0 is none, by name), else none for a server, else
// the policy's when it sets one, else none for a terminal session, else
// defaultTimeout.
func runTimeout(flagSet bool, flagValue, policy time.Duration, terminal, server bool) (time.Duration, string) {
	switch {
	case flagSet && flagValue > 0:
		return flagValue, timeoutFlag
	case flagSet:
		return 0, timeoutOff
	case server:
		return 0, timeoutServer
	case policy > 0:
		return policy, timeoutPolicy
	case terminal:
		return 0, timeoutInteractive
	}
	return defaultTimeout, timeoutDefault
}

// hostPath makes a policy path absolute: "~/" is the caller's home, a
// relative path is in the project.
func hostPath(p, home, project string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if p == "~" && home != "" {
		return home
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(project, p)
	}
	return p
}

// runCache is the cache directory of runs in project: one per project,
// so that a project's runs cannot poison the build caches of another's
// (nor the caller's own, which stay read-only). Empty when the user has
// no cache directory.
func runCache(project string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(dir, "warden", "run-cache", hex.EncodeToString(sum[:8]))
}
