// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package warden

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/proxy"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/sandbox"
)

// Init runs the sandbox's init when the process was started as one, and
// never returns then; otherwise it returns at once. The sandbox's init is
// the program that called [Run], re-executed in the sandbox's new
// namespaces, so a program that calls Run must call Init first thing in
// main, before anything else touches the process (threads, descriptors,
// signal handlers):
//
//	func main() {
//		warden.Init()
//		…
//	}
func Init() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.InitArg {
		sandbox.Init()
	}
}

// Command is a command to run contained.
type Command struct {
	// Argv is the command and its arguments; Argv[0] is looked up in
	// the sandbox's PATH.
	Argv []string
	// Dir is the directory the command starts in when it is inside the
	// project (else it starts at the project's top); empty means the
	// process's working directory.
	Dir string
	// Project is the writable root; empty means the git work tree
	// holding Dir, else Dir. The home, the root and an ancestor of the
	// home are never a project: such a run is refused.
	Project string
	// Stdin, Stdout and Stderr are the command's streams; nil reads
	// nothing and discards the output.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Approver answers the questions a run asks a person: whether to run a
// command the policy asks about, and whether to rerun a failed one with
// one blocked thing allowed. It is asked before the command starts or
// after it ends, never while it runs.
type Approver interface {
	// Tell shows text to the person.
	Tell(text string)
	// Ask puts a question and returns the answer: "y" or "yes" for a
	// yes, a number for a choice in a numbered list; anything else is
	// a no.
	Ask(question string) string
}

// RunOptions say how a command runs.
type RunOptions struct {
	// PolicyPath is the policy file the command is judged by and whose
	// sandbox and network sections apply; empty means the embedded
	// default. The run reads the file itself, refusing a path through
	// a link a run could have planted, and keeps the very file it read
	// read-only in the sandbox: that is why it takes a path rather than
	// a loaded [Policy].
	PolicyPath string
	// Policy says where the managed tier and the home are, and which
	// directories of the harness are protected: in a run they are
	// masked (the command can neither read nor write them), and a
	// project inside one is refused. Its NoApprover and Now are not
	// used (Approver decides who answers).
	Policy PolicyOptions
	// Approver answers the run's questions; nil answers every one no: a
	// prompt nobody answers is a deny.
	Approver Approver
	// Timeout bounds the run's wall-clock time; 0 means the policy's
	// sandbox.limits.timeout, else 10 minutes.
	Timeout time.Duration
	// RecordPath, when set, is where the execution record is written as
	// JSON, naming Agent and Task.
	RecordPath  string
	Agent, Task string
	// Notes receives what Warden says as the run goes ("warden: …"
	// lines: warnings, what the sandbox blocked); nil means os.Stderr.
	Notes io.Writer
}

// Exit statuses of a run that Warden ended, besides the command's own:
// warden run's (a shell's 126, "cannot be executed", for a refusal).
const (
	// StatusBadInput: the options or the policy are wrong; nothing ran.
	StatusBadInput = 2
	// StatusUnavailable: the sandbox could not be built; nothing ran.
	StatusUnavailable = 125
	// StatusRefused: the policy, the person or the post-run check
	// refused what the command did.
	StatusRefused = 126
)

// RunResult is how a run ended.
type RunResult struct {
	// ExitCode is the command's exit status, 128+n when signal n ended
	// it, or Warden's own status when [Run] returns a [*RunError].
	ExitCode int
}

// RunError is a run that Warden refused, could not contain, or ended:
// Status is one of StatusBadInput, StatusUnavailable or StatusRefused, or
// the command's status when what it did was refused afterwards (what it
// planted for the host to execute, taken away).
type RunError struct {
	Status int
	Msg    string
	// Hints say what to do about it.
	Hints []string
}

func (e *RunError) Error() string { return e.Msg }

// Run judges the command with the policy (a contained bash action), then
// runs it in Warden's sandbox, as warden run does, and writes the
// execution record when asked. It fails closed: a refusal, a layer that
// cannot be applied, a policy asking for what the sandbox cannot enforce,
// or a way out that cannot be built stops the run before it starts, as a
// [*RunError]. The command's own exit status, zero or not, is in
// [RunResult.ExitCode] with a nil error. A policy that does not load is
// an error as for [LoadPolicy].
//
// Cancelling ctx passes SIGTERM to the command; the timeout, then
// SIGKILL, bounds the rest. A ctx already done is an error, and nothing
// starts. Run needs Linux with user namespaces (or root), and a main
// that calls [Init].
func Run(ctx context.Context, c Command, o RunOptions) (RunResult, error) {
	if err := ctx.Err(); err != nil {
		return RunResult{ExitCode: StatusBadInput}, err
	}
	if len(c.Argv) == 0 {
		return RunResult{ExitCode: StatusBadInput}, &RunError{Status: StatusBadInput, Msg: "no command to run"}
	}
	if o.Timeout < 0 {
		return RunResult{ExitCode: StatusBadInput}, &RunError{Status: StatusBadInput, Msg: "negative timeout"}
	}
	dir := c.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return RunResult{ExitCode: StatusBadInput}, &RunError{Status: StatusBadInput, Msg: fmt.Sprintf("no working directory: %v", err)}
		}
	}
	notes := o.Notes
	if notes == nil {
		notes = os.Stderr
	}
	pc := o.Policy.config()
	// The harness's own directories are kept from the command as
	// Warden's configuration is: masked, and a project inside one
	// refused.
	dirs := contain.HostDirs()
	dirs.Config = append(dirs.Config, o.Policy.protected()...)
	co := contain.Options{
		Argv: c.Argv, Project: c.Project, Dir: dir, Home: pc.Home,
		PolicyPath: o.PolicyPath, Policy: pc,
		Timeout: o.Timeout, TimeoutSet: o.Timeout > 0,
		RecordPath: o.RecordPath, Agent: o.Agent, Task: o.Task,
		Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.Stderr,
		Report:    reporter{notes},
		Dirs:      dirs,
		HostAddrs: hostAddrs,
	}
	if co.Stdout == nil {
		co.Stdout = io.Discard
	}
	if co.Stderr == nil {
		co.Stderr = io.Discard
	}
	if o.Approver != nil {
		// Only a non-nil interface: contain asks nobody when Ask is nil.
		co.Ask = o.Approver
	}
	sigs := make(chan os.Signal, 1)
	co.Signals = sigs
	stop := context.AfterFunc(ctx, func() { sigs <- syscall.SIGTERM })
	defer stop()

	err := contain.Run(ctx, co)
	var ex *contain.Exit
	switch {
	case err == nil:
		return RunResult{}, nil
	case errors.As(err, &ex) && ex.Msg == "":
		return RunResult{ExitCode: ex.Status}, nil
	case errors.As(err, &ex):
		return RunResult{ExitCode: ex.Status}, &RunError{Status: ex.Status, Msg: ex.Msg, Hints: ex.Hints}
	}
	return RunResult{ExitCode: StatusBadInput}, err
}

// hostAddrs are this machine's addresses, which the egress proxy never
// dials whatever the policy says.
var hostAddrs = proxy.NewHostAddrs(nil)

// reporter writes what a run says to w, as warden run does on stderr.
type reporter struct{ w io.Writer }

func (r reporter) Warn(msg string)        { fmt.Fprintf(r.w, "warden: warning: %s\n", msg) }
func (r reporter) Say(msg string)         { fmt.Fprintf(r.w, "warden: %s\n", msg) }
func (r reporter) Blocked(rec *audit.Run) { report.RunSummary(r.w, rec, report.SummaryOptions{}) }
func (r reporter) Error(msg string, hints ...string) {
	fmt.Fprintf(r.w, "warden: error: %s\n", msg)
	for _, h := range hints {
		fmt.Fprintf(r.w, "warden: hint: %s\n", h)
	}
}
