// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox"
)

// outcome is how one run ended, as an exit status and message.
type outcome struct {
	*Exit
	// setup: the sandbox or the command could not be started.
	setup bool
}

// execute runs spec once, tells the person what the sandbox did along
// the way, and says how the run ended.
func (p *plan) execute(ctx context.Context, spec sandbox.Spec) (sandbox.Result, outcome) {
	res, err := sandbox.Run(ctx, spec)
	p.warnUnenforced(res)
	var se *sandbox.SetupError
	var ste *sandbox.StartError
	switch {
	case errors.As(err, &se):
		return res, outcome{unavailable(se.Error()), true}
	case errors.As(err, &ste):
		return res, outcome{&Exit{Status: ste.Status, Msg: ste.Msg}, true}
	case err != nil:
		return res, outcome{unavailable("sandbox unavailable: " + err.Error()), true}
	}
	if res.InitKilled {
		p.o.Report.Warn(fmt.Sprintf("the sandbox's init ended while the command ran (signal %d); every process of the sandbox died with it", res.Signal))
	}
	if res.TimedOut {
		p.o.Report.Error(fmt.Sprintf("timed out after %v; every process of the sandbox was killed", spec.Timeout),
			"raise --timeout or sandbox.limits.timeout")
	}
	return res, outcome{Exit: &Exit{Status: res.Status()}}
}

// warnUnenforced says what the run could not enforce as asked: the default
// limits that fell back for want of a cgroup in one line (every run of a
// user without cgroup rights has them, and warden doctor and the record's
// unenforced list say what stands in for each), anything else a line
// each, limits the policy asked for and --degraded=cgroup let fall back
// included: what stands in for those is the person's to know.
func (p *plan) warnUnenforced(res sandbox.Result) {
	fell := map[string]bool{}
	var limits []string
	for _, f := range res.Fallbacks {
		if f.Requested {
			continue
		}
		fell[f.Note] = true
		limits = append(limits, f.Limit)
	}
	if len(limits) > 0 {
		p.o.Report.Warn(fmt.Sprintf("no cgroup for this run; these limits fall back to per-process rlimits where one applies: %s (warden doctor has the details)",
			strings.Join(limits, ", ")))
	}
	for _, n := range res.Unenforced {
		if !fell[n] {
			p.o.Report.Warn("not enforced as asked: " + n)
		}
	}
}

// quarantined tells what the post-run check took away and returns the
// run's refusal: the command did something refused.
func (p *plan) quarantined(qs []audit.Quarantined, status int) *Exit {
	for _, q := range qs {
		where := "removed"
		if q.MovedTo != "" {
			where = "moved to " + audit.QuoteIfOdd(q.MovedTo)
		}
		if q.Error != "" {
			where += "; " + audit.QuoteIfOdd(q.Error)
		}
		p.o.Report.Error(fmt.Sprintf("post-run check: %s: %s (%s)", audit.QuoteIfOdd(q.Path), q.Why, where))
	}
	return &Exit{Status: StatusRefused,
		Msg:   fmt.Sprintf("the command planted %d entries the host would execute later (command status %d); they were taken away", len(qs), status),
		Hints: []string{"look at them in the quarantine before restoring any; name a path in sandbox.filesystem.read_write to let runs write it"}}
}

// degradedEffect says what a run loses without each layer.
var degradedEffect = map[sandbox.Layer]string{
	sandbox.LayerLandlock: "files are contained by the mounts alone",
	sandbox.LayerSeccomp:  "no system call is filtered (nested namespaces, ptrace, io_uring, keyctl, raw sockets are open)",
	sandbox.LayerCgroup:   "no cgroup is made: every limit falls back to per-process rlimits (the run names them; the record and warden doctor say what stands in for each)",
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

// Where a run's timeout comes from: the execution record's
// limits.timeout_source.
const (
	timeoutDefault = "default" // sandbox.DefaultTimeout
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
// the default (docs/spec.md §7).
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
	return sandbox.DefaultTimeout, timeoutDefault
}
