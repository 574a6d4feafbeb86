// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package contain runs one command contained (warden run): it plans the
// sandbox from the options and the policy's sandbox section, builds the
// run's way out (package egress), asks what the approval policy asks,
// runs the command in the sandbox, offers a rerun of a failed one with
// one blocked thing allowed, takes away what the run planted for the host
// to execute later, and writes the execution record. [Run] is the whole
// life of a run, in that order:
//
//	plan → judge (ask) → (ask) → run → (ask → rerun) → quarantine → record
//
// The rules:
//
//   - The project is the one named, else the git work tree holding
//     warden's working directory, else that directory; never the home,
//     the root or an ancestor of the home, which is refused (status 2)
//     with a hint ([Project]). The command starts in warden's working
//     directory when that is in the project, else at its top.
//   - The policy judges the command before anything starts (judge.go):
//     a deny, or a prompt nobody approves, is status 126; a hook's
//     single-use grant stands for the judgement it made.
//   - Fail closed. A layer that cannot be applied, a policy asking for
//     what the sandbox cannot enforce, a way out that cannot be built or
//     a record that cannot be opened stops the run before it starts (exit
//     status 125, or 2 for bad input), with a hint.
//   - A prompt with no approver is a deny: without a terminal (or with
//     --no-approver) every question of the approval policy is answered
//     no ([Approver]).
//   - Nothing warden resolves on the host (the policy file, the record's
//     directory, writable and masked paths) follows a link a run could
//     have planted; Warden's own state, configuration, CA and credential
//     files are masked from every run whatever the policy says.
//   - The record is written once no process of the run is left; a run
//     whose record is lost ends with status 125, loudly.
//
// It prints nothing itself: what the person should know as it happens
// goes to the [Reporter], questions to the [Approver], and the end of the
// run is an [*Exit] that package cli turns into an exit status.
package contain

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/sandbox"
)

// Exit statuses of warden run besides the command's own.
const (
	// StatusBadInput: the options or the policy are wrong; nothing ran.
	StatusBadInput = 2
	// StatusRefused: the policy, the person or the post-run check
	// refused what the command did (a shell's "cannot be executed").
	StatusRefused = 126
	// StatusUnavailable: the sandbox could not be built; nothing ran.
	StatusUnavailable = 125
)

// Exit is how a run ended when that is not a success: the exit status,
// and what to tell the person (nothing when the command's own status
// says it all).
type Exit struct {
	Status int
	Msg    string
	Hints  []string
}

func (e *Exit) Error() string { return e.Msg }

func badInput(msg string, hints ...string) *Exit {
	return &Exit{Status: StatusBadInput, Msg: msg, Hints: hints}
}

// nestedHint is what to do when warden run is inside an agent's own
// sandbox.
const nestedHint = "let one of the two contain the agent's commands: run the agent without its own sandbox and let Warden contain them (Codex: sandbox_mode = \"danger-full-access\" with `warden hook install codex --wrap`), or keep the agent's sandbox and install Warden's hook without --wrap"

func unavailable(msg string, hints ...string) *Exit {
	return &Exit{Status: StatusUnavailable, Msg: msg, Hints: hints}
}

// Reporter is how a run tells the person what happens, as it happens
// (package cli writes it to stderr).
type Reporter interface {
	// Warn says the run goes on with less than asked, or said.
	Warn(msg string)
	// Error says something went wrong that the run's end does not
	// carry (a timeout, an entry taken away).
	Error(msg string, hints ...string)
	// Say is any other line from Warden ("note: …").
	Say(msg string)
	// Blocked closes a run that ran with what the sandbox blocked in
	// it, from its execution record (whether or not --audit-json writes
	// it): the destinations denied, the paths and system calls refused.
	// A record that lists none of them says nothing was blocked.
	Blocked(r *audit.Run)
}

// Approver asks the person at the controlling terminal, after the command
// has ended or before it starts, never while it runs. A nil Approver
// answers every question no.
type Approver interface {
	// Tell shows text at the terminal.
	Tell(text string)
	// Ask puts a question and returns the answer, trimmed.
	Ask(question string) string
}

// Absentable is an [Approver] that may not be there, such as a person
// answering through warden serve: Present is called at the run's first
// question, if it has one, and the same answer is expected every time.
// Not there, the run has no approver: a prompt is a deny.
type Absentable interface {
	Approver
	Present() bool
}

// Options are one run's.
type Options struct {
	// Argv is the command.
	Argv []string
	// Project is the project directory, the writable root; empty means
	// the project of Dir ([Project]).
	Project string
	// Dir is warden's working directory, the command's when it is in
	// the project (else the command starts at the project's top); Home
	// the caller's home.
	Dir, Home string
	// Grant is the id of the grant a hook issued for this command
	// (--grant), redeemed instead of judging it; empty for none.
	Grant string
	// PolicyPath is the policy file whose sandbox section applies; empty
	// means the embedded default (no sandbox section, no network rules).
	PolicyPath string
	// Default, when set, is the embedded default policy as discovery
	// loaded it (no PolicyPath): the run takes it rather than compile it
	// again. It has no file a run could race.
	Default *config.Policy
	// PolicyRevision, when set, is the revision the policy file must
	// still have: discovery trusted that content (docs/spec.md §13), and a
	// file changed since is refused rather than applied.
	PolicyRevision string
	// Policy says where the managed tier is, whose file is kept
	// read-only in the run too.
	Policy config.Options
	// Timeout is --timeout when TimeoutSet (0: none, by name); Server
	// says the command is a long-lived server (no default timeout).
	Timeout    time.Duration
	TimeoutSet bool
	Server     bool
	// RecordPath is where the execution record goes (--audit-json);
	// Agent and Task are written in it.
	RecordPath  string
	Agent, Task string
	// Degraded are the layers the run goes without, as asked by name.
	Degraded []sandbox.Layer
	// Lossy runs an OpenShell policy without what the run does not
	// apply yet (middlewares, credential and protocol options, a numeric
	// process user), each said on stderr and in the record; without it
	// such a policy does not run.
	Lossy bool
	// Providers are OpenShell provider profile files, composed into an
	// OpenShell policy as OpenShell composes attached providers: their
	// credentials' placeholders are resolved for their endpoints only.
	Providers []string
	// The command's streams. Terminal gives it a terminal of its own
	// (stdin and stdout are one); Trace, when set, receives the time of
	// each stage of building the sandbox.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Terminal       bool
	Trace          io.Writer
	// Signals are passed on to the command, once SignalsReady is
	// closed ([sandbox.Spec.SignalsReady]).
	Signals      <-chan os.Signal
	SignalsReady <-chan struct{}
	Report       Reporter
	Ask          Approver
	// Dirs are where Warden keeps its own, which no run may see.
	Dirs Dirs
	// Recorder is the store every run's record goes to; nil records
	// nowhere but --audit-json.
	Recorder Recorder
	// HostAddrs are this machine's addresses, which the egress proxy
	// never dials.
	HostAddrs *proxy.HostAddrs
}

// Recorder is where every run's record goes, besides --audit-json: the
// store (store.Recorder).
type Recorder interface {
	audit.Sink
	// WriteBatch writes evs, in order, as one.
	WriteBatch(evs []audit.Event) error
	// Ready opens it: a run that could not be recorded is refused before
	// it starts, unless the policy says audit: best-effort.
	Ready() error
}

// Dirs are Warden's own directories on this host.
type Dirs struct {
	// State is the state directory (docs/spec.md §13); a run's quarantine
	// is below it.
	State string
	// Config are the configuration directories.
	Config []string
	// CA is where the installation's CA lives; TrustBundle where the
	// bundle the sandbox trusts is written (asked only when needed).
	CA          string
	TrustBundle func() (string, error)
	// HookState is where the hooks keep their state; Grants where
	// their grants for wrapped runs are, below it.
	HookState string
	Grants    string
	// Cache is the user's cache directory, where each project's run
	// cache is; empty for none.
	Cache string
}

// Run runs one command contained and returns how it ended: nil for a
// success, an [*Exit] otherwise (the command's status, a refusal, a
// sandbox that could not be built), or a policy that does not load
// (config's *Error).
func Run(ctx context.Context, o Options) error {
	for _, l := range o.Degraded {
		o.Report.Warn(fmt.Sprintf("running without %s, as --degraded asks: %s", l, degradedEffect[l]))
	}
	// Inside an agent's own sandbox no layer can be built: said first,
	// rather than as the first write that sandbox refuses.
	if why := sandbox.Nested(); why != "" {
		return unavailable("sandbox unavailable: warden run is inside another sandbox: "+why,
			nestedHint)
	}
	// warden serve, if it runs, checks the caller for the sandbox it
	// keeps started while the command is judged.
	var warm *sandbox.WarmAsk
	if o.Dirs.State != "" {
		warm = sandbox.AskWarm(filepath.Join(o.Dirs.State, sandbox.WarmSocket))
		defer warm.Close()
	}
	p, err := newPlan(o)
	if err != nil {
		return err
	}
	defer p.close()
	p.spec.WarmAsk = warm
	// The run's cgroup is made while the command is judged, too.
	if !slices.Contains(p.spec.Degraded, sandbox.LayerCgroup) {
		p.spec.Cgroup = sandbox.StartCgroup(p.spec.Limits, warm)
		defer p.spec.Cgroup.Close()
	}
	// So is the run's plan: the view (the project and the home walked
	// for masks), init's configuration, a root caller's user namespace.
	// Taken only by this very spec.
	p.spec.Plan = sandbox.StartPlan(p.spec)
	defer p.spec.Plan.Close()
	ex, approved := p.judge()
	if ex != nil {
		return p.deny(ex)
	}
	// A command the person just approved is not asked about again.
	if p.approval == policyfile.ApprovalUntrusted && !approved {
		if ex := p.approveUntrusted(); ex != nil {
			return p.deny(ex)
		}
	}
	// Signals for warden are the command's, and so is the end of the
	// run: a cancelled context would not end it (the timeout and SIGKILL
	// still do).
	ctx = context.WithoutCancel(ctx)
	res, out := p.execute(ctx, p.spec)
	// rerunFrom is where the last attempt's network attempts start.
	rerunFrom := 0
	if p.approval == policyfile.ApprovalOnFailure && out.Status != 0 {
		if next, why, ok := p.onFailure(res); ok {
			before, _ := p.eg.Attempts()
			rerunFrom = len(before)
			if p.rec != nil {
				p.rec.FirstAttempt = firstAttempt(out.Status, res, why)
			}
			p.spec = next
			first := res.Quarantined
			res, out = p.execute(ctx, p.spec)
			// What the first attempt planted was taken away too.
			res.Quarantined = append(first, res.Quarantined...)
		}
	}
	if len(res.Quarantined) > 0 {
		out = outcome{Exit: p.quarantined(res.Quarantined, out.Status)}
	}
	rec, err := p.record(res, out)
	p.o.Report.Blocked(lastAttempt(rec, rerunFrom))
	if err != nil {
		return err
	}
	if out.Status == 0 && out.Msg == "" {
		return nil
	}
	return out.Exit
}

// lastAttempt is r as the summary of what the run blocked takes it: the
// last attempt's, as its refused paths and system calls are. What the
// first attempt of a rerun was refused was offered before the rerun,
// and may have been allowed since; the record keeps every attempt.
func lastAttempt(r *audit.Run, from int) *audit.Run {
	if from == 0 || from > len(r.NetworkAttempts) {
		return r
	}
	last := *r
	last.NetworkAttempts = r.NetworkAttempts[from:]
	return &last
}
