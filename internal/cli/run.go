// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/approval"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/store"
)

//go:embed help/run.txt
var runSynopsis string

func runRun(ctx context.Context, args []string) error {
	// Signals for warden are the command's: passed on, as to a plain
	// run, rather than ending the run. The sandbox is a session of its
	// own: the terminal's ^C reaches warden, never the command directly,
	// so every one is passed on. With a terminal of its own the command
	// gets ^C from it; a SIGINT sent to warden goes to that terminal's
	// foreground process group. Registering each signal is a round trip
	// to the runtime's signal thread: begun here, beside the flags, the
	// policy, the judge and the sandbox's set-up, and waited for before
	// the command may start (sandbox.Spec.SignalsReady). A signal that
	// comes before then ends warden as it would any program, before the
	// command ran.
	sigs, notified := make(chan os.Signal, 8), make(chan struct{})
	go func() {
		signal.Notify(sigs, forwardedSignals...)
		close(notified)
	}()
	// Stopping is a round trip each too, about 0.6 ms in all, which the
	// run's end does not wait for: at warden's exit nothing is left to
	// stop.
	defer func() {
		go func() {
			<-notified
			signal.Stop(sigs)
		}()
	}()
	// The shell analyser's tables, which judging the command needs, are
	// built beside the flags and the policy.
	go request.Prepare()
	fs := newFlags("run", runSynopsis)
	policyPath := fs.String("policy", "", "policy `FILE` whose sandbox section applies (default: the one discovery finds, see warden policy show)")
	project := fs.String("project", "", "project `DIR`, the writable root (default: the git work tree holding the current directory, else the current directory; never the home, / or an ancestor of the home); the command starts in the current directory when it is inside, else in DIR")
	grantID := fs.String("grant", "", "the `ID` of the single-use grant a hook's --wrap issued for this very command; without a valid one the command is judged in full")
	timeout := fs.Duration("timeout", 0, "wall-clock limit, e.g. 30s; 0 for none (default: the policy's sandbox.limits.timeout, else 10m, else none at a terminal; none for --server)")
	server := fs.Bool("server", false, "CMD is a long-lived server, as warden mcp --sandbox runs one: no default timeout")
	auditPath := fs.String("audit-json", "", "write the execution record as JSON to `FILE`")
	agent := fs.String("agent", "", "agent `NAME` for the execution record")
	task := fs.String("task", "", "task `ID` for the execution record")
	lossy := fs.Bool("lossy", false, "run an OpenShell policy without what warden run does not apply yet (middlewares, credential and protocol options, a numeric process user), each said on stderr and in the record; without it such a policy does not run")
	var providers paths
	fs.Var(&providers, "provider", "an OpenShell provider profile `FILE` (openshell provider profile export ID -o yaml) whose credentials an OpenShell policy's run resolves, from warden's environment, for the provider's endpoints only; repeat for each")
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
	// Without --policy the run applies the policy discovery finds
	// (docs/spec.md §13), read again by the run and held to the revision
	// found here: a trusted project policy edited in between is refused.
	var policyRev string
	var def *config.Policy
	if *policyPath == "" {
		lp, err := loadPolicyNoting("")
		if err != nil {
			return err
		}
		*policyPath, policyRev = lp.Path, lp.Revision
		if lp.Path == "" {
			policyRev, def = "", lp
		}
	}
	// The run's record goes to the store (contain.Recorder).
	rec := &store.Recorder{Dir: contain.StateDir(), Spool: true}
	defer rec.Close()
	o := contain.Options{
		Argv: argv, Project: *project, Dir: cwd(), Home: homeDir(), Grant: *grantID,
		PolicyPath: *policyPath, PolicyRevision: policyRev, Policy: policyOptions(), Default: def,
		Timeout: *timeout, Server: *server,
		RecordPath: *auditPath, Agent: *agent, Task: *task,
		Degraded: degraded, Lossy: *lossy, Providers: providers,
		Stdin: Stdin, Stdout: Stdout, Stderr: Stderr,
		// At a terminal the command gets one of its own; the caller's
		// is never handed in. Not when stdout goes elsewhere (warden run
		// -- cmd | less): warden would read the terminal, and set its
		// modes, under the pager's feet; the command then reads
		// /dev/null.
		Terminal:  isTerminalFile(Stdin) && isTerminalFile(Stdout),
		Report:    stderrReporter{policy: *policyPath},
		Dirs:      ownDirs(),
		HostAddrs: hostAddrs,
		Recorder:  rec,
	}
	fs.Visit(func(f *flag.Flag) { o.TimeoutSet = o.TimeoutSet || f.Name == "timeout" })
	if sandboxTrace() {
		o.Trace = Stderr
	}
	o.Signals, o.SignalsReady = sigs, notified
	if ap := openApprover(*noApprover); ap != nil {
		defer ap.close()
		o.Ask = ap
	} else if state := contain.StateDir(); !*noApprover && state != "" {
		// No terminal, but a person may answer through warden serve, if
		// one runs: looked for at the run's first question only (most
		// runs have none, and finding serve is a connection it takes).
		proj, _ := filepath.Abs(*project)
		o.Ask = &serveApprover{rec: rec, agent: *agent, project: proj, argv: argv, state: state}
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

// stderrReporter tells the person what a run does, on stderr; policy is
// the run's --policy, which the summary's suggestions name.
type stderrReporter struct{ policy string }

func (stderrReporter) Warn(msg string)                   { warningf("%s", msg) }
func (stderrReporter) Error(msg string, hints ...string) { errorWithHint(msg, hints...) }
func (stderrReporter) Say(msg string)                    { fmt.Fprintf(Stderr, "warden: %s\n", approval.Printable(msg)) }
func (r stderrReporter) Blocked(rec *audit.Run) {
	report.RunSummary(Stderr, rec, report.SummaryOptions{Policy: r.policy})
}
