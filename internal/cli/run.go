// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/sandbox"
)

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
	o := contain.Options{
		Argv: argv, Project: *project, Dir: cwd(), Home: homeDir(),
		PolicyPath: *policyPath, Policy: policyOptions(),
		Timeout: *timeout, Server: *server,
		RecordPath: *auditPath, Agent: *agent, Task: *task,
		Degraded: degraded,
		Stdin:    Stdin, Stdout: Stdout, Stderr: Stderr,
		// At a terminal the command gets one of its own; the caller's
		// is never handed in. Not when stdout goes elsewhere (warden run
		// -- cmd | less): warden would read the terminal, and set its
		// modes, under the pager's feet; the command then reads
		// /dev/null.
		Terminal:  isTerminalFile(Stdin) && isTerminalFile(Stdout),
		Report:    stderrReporter{},
		Dirs:      ownDirs(),
		HostAddrs: hostAddrs,
	}
	fs.Visit(func(f *flag.Flag) { o.TimeoutSet = o.TimeoutSet || f.Name == "timeout" })
	if sandboxTrace() {
		o.Trace = Stderr
	}
	// Signals for warden are the command's: passed on, as to a plain
	// run, rather than ending the run. The sandbox is a session of its
	// own: the terminal's ^C reaches warden, never the command directly,
	// so every one is passed on. With a terminal of its own the command
	// gets ^C from it; a SIGINT sent to warden goes to that terminal's
	// foreground process group.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwardedSignals...)
	defer signal.Stop(sigs)
	o.Signals = sigs
	if ap := openApprover(*noApprover); ap != nil {
		defer ap.close()
		o.Ask = ap
	}
	return runError(contain.Run(ctx, o))
}

// runError is the exit of a run: its status, what to say and the hints.
func runError(err error) error {
	var ex *contain.Exit
	if errors.As(err, &ex) {
		return &exitError{code: ex.Status, msg: ex.Msg, hints: ex.Hints}
	}
	return err
}

// stderrReporter tells the person what a run does, on stderr.
type stderrReporter struct{}

func (stderrReporter) Warn(msg string)                   { warningf("%s", msg) }
func (stderrReporter) Error(msg string, hints ...string) { errorWithHint(msg, hints...) }
func (stderrReporter) Say(msg string)                    { fmt.Fprintf(Stderr, "warden: %s\n", msg) }
