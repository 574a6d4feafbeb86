// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The last stages of Run (run_linux.go): waiting for init, which reports
// on the control socket, and collecting the Result.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
)

// wait holds the run to its timeout and ctx, passes signals on, takes
// init's reports until init ends, and reaps init.
func (rn *runner) wait(ctx context.Context) {
	spec, tr, cmd, term, termOut, parentEnd := rn.spec, rn.tr, rn.cmd, rn.term, rn.termOut, rn.parentEnd
	stop := make(chan struct{})
	if spec.Signals != nil || term != nil {
		go forwardSignals(spec.Signals, term, cmd, stop)
	}
	// A protected file of a writable root that the host replaces ends
	// the run (heldwatch_linux.go).
	var replaced <-chan string
	if rn.planWaited && rn.planErr == nil && rn.v.post != nil {
		var closeWatch func()
		replaced, closeWatch, rn.watchNote = watchReplaced(rn.v.post.held)
		defer closeWatch()
	}
	why := make(chan string, 1) // "timeout", "cancel", replacedReason+path or ""
	go func() {
		var timer <-chan time.Time
		if spec.Timeout > 0 {
			t := time.NewTimer(spec.Timeout)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-stop:
			why <- ""
			return
		case <-timer:
			why <- "timeout"
		case <-ctx.Done():
			why <- "cancel"
		case p := <-replaced:
			why <- replacedReason + p
		}
		// Killing init, pid 1 of the namespace, kills every process in it.
		cmd.kill()
	}()

	var last report
	var got bool
	var listenErr error       // listeners that could not be taken
	var termErr error         // a terminal that could not be taken
	var early []audit.Syscall // refusals told as they happened
	started := false          // the command was forked
	buf := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(8*4))
	var served *Listeners
	// The listeners init made are served once one of them has something
	// to take, a connection or a datagram: a command that never uses the
	// network costs the run no proxy or DNS stub. They listen from the
	// start, so what comes first waits in their queues.
	var idle *idleListeners
	rn.cleanup.add(func() {
		if served != nil {
			served.Close()
		}
		if idle != nil {
			closeFDs(idle.fds)
		}
	})
	for {
		if idle != nil {
			ready, reports := idle.wait(int(parentEnd.Fd()))
			if ready {
				l, lerr := receiveListeners(idle.kinds, idle.fds)
				idle = nil
				if lerr != nil {
					cmd.kill()
					listenErr = lerr
				} else {
					l.Init = cmd.pid
					served = &l
					spec.Network.Serve(l)
				}
			}
			if !reports {
				continue
			}
		}
		n, oobn, _, _, err := unix.Recvmsg(int(parentEnd.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR || err == unix.ECONNRESET {
			// ECONNRESET: init ended without reading all we sent (the
			// go); what it sent before is still queued.
			continue
		}
		fds := rightsIn(oob[:max(oobn, 0)])
		if n > 0 {
			var r report
			switch {
			case json.Unmarshal(buf[:n], &r) != nil:
				closeFDs(fds)
			case r.Connected != nil:
				if spec.Network != nil && spec.Network.Connected != nil {
					spec.Network.Connected(*r.Connected)
				}
			case r.Listeners != nil:
				lerr := checkListeners(r.Listeners, fds)
				if lerr != nil || spec.Network == nil || idle != nil || served != nil {
					// Init made what it should not have, or
					// sent it wrong: the run stops.
					closeFDs(fds)
					cmd.kill()
					listenErr = lerr
					continue
				}
				idle = &idleListeners{kinds: r.Listeners, fds: fds}
			case r.Terminal:
				m, terr := receiveMaster(fds)
				if terr != nil || term == nil || term.attached() {
					// Init made what it should not have, or
					// sent it wrong: the run stops.
					if m != nil {
						m.Close()
					}
					cmd.kill()
					if terr == nil {
						terr = errors.New("init sent a terminal that was not asked for")
					}
					termErr = terr
					continue
				}
				term.attach(m, termOut)
			case r.Step != "":
				tr.step(r.Step, r.Micros)
			case r.BlockedPartial:
				early = append(early, r.Blocked...)
			case r.Started:
				started = true
			default:
				last, got = r, true
			}
		} else {
			closeFDs(fds)
		}
		// Done is init's last report: sent once no other process of the
		// sandbox is left (init's endRest), before init's own exit.
		if err != nil || n == 0 || (got && last.Done) {
			break
		}
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	var waitErr error
	if got && last.Done {
		// Init's exit, the namespaces' teardown, is not waited for
		// here: init counted its processor time and its children's.
		cmd.ended()
		ru.Utime = syscall.NsecToTimeval(last.CPU)
	} else {
		ws, ru, waitErr = cmd.wait(true)
	}
	close(stop)
	if term != nil {
		// All it showed is captured before the output is read.
		term.drain()
	}
	switch {
	case got && last.Done && last.Left:
		tr.mark("command ended, its processes reaped, init out of the cgroups")
	case got && last.Done:
		tr.mark("command ended, its processes reaped")
	default:
		tr.mark("command ended, init reaped")
	}
	rn.reason = <-why
	rn.last, rn.got, rn.listenErr, rn.termErr, rn.early, rn.started = last, got, listenErr, termErr, early, started
	rn.ws, rn.ru, rn.waitErr = ws, ru, waitErr
}

// collect makes the run's Result, once init is reaped, and tells how the
// run ended: a [*SetupError] or [*StartError] as Run returns them, or nil.
func (rn *runner) collect() (Result, error) {
	spec, cfg, tr, v, cg := rn.spec, rn.cfg, rn.tr, rn.v, rn.cg
	last, got, listenErr, termErr, early, started := rn.last, rn.got, rn.listenErr, rn.termErr, rn.early, rn.started
	ws, ru, waitErr, reason := rn.ws, rn.ru, rn.waitErr, rn.reason
	res := Result{Duration: time.Since(rn.start), TimedOut: reason == "timeout", Warm: rn.cmd.warm}
	if waitErr == nil {
		// Init's rusage covers every process it reaped.
		res.CPUTime = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	cg.stats(&res)
	for _, f := range rn.fallbacks {
		res.Unenforced = append(res.Unenforced, f.Note)
	}
	res.Fallbacks = rn.fallbacks
	res.Unenforced = append(append(res.Unenforced, v.notes...), rn.cacheNote...)
	if rn.watchNote != "" {
		res.Unenforced = append(res.Unenforced, rn.watchNote)
	}
	if p, ok := strings.CutPrefix(reason, replacedReason); ok {
		res.Unenforced = append(res.Unenforced, fmt.Sprintf("the run was stopped: %s was replaced on the host while it ran, which takes the sandbox's mount on it away (run it again once the host is done with it)", p))
	}
	if rn.planWaited && rn.planErr == nil {
		// No process of the run is left to race it: init reported Done
		// once it had killed and reaped them all, or it is reaped.
		var qnotes []string
		res.Quarantined, qnotes = v.post.run(spec.Quarantine, rn.since)
		res.Unenforced = append(append(res.Unenforced, qnotes...), v.masksGone()...)
		tr.mark("post-run check")
	}
	if spec.RecordChanges {
		res.Changes, res.ChangesTotal, res.ChangesTruncated = changesSince(v.writableRoots(), rn.since)
	}
	defer tr.mark("statistics read, cgroup removed")
	res.Stdout, res.Stderr = rn.outCap.Output(), rn.errCap.Output()
	res.Refused = findRefusals(v, spec, cfg.Dir, res.Stderr.String(), res.Stdout.String())
	res.Limits = spec.Limits
	if res.Limits.Nofile == 0 {
		res.Limits.Nofile = DefaultNofile
	}
	if res.Limits.Output == 0 {
		res.Limits.Output = DefaultOutputCap
	}
	if res.Limits.Memory == 0 && cg.memDir != "" {
		res.Limits.Memory = defaultMemory()
	}
	if res.Limits.Pids == 0 && cg.pidsDir != "" {
		res.Limits.Pids = DefaultPids
	}

	switch {
	case listenErr != nil:
		return res, &SetupError{What: "network listeners: " + listenErr.Error(), Hint: "this is a bug in warden; please report it"}
	case termErr != nil:
		return res, &SetupError{What: "the command's terminal: " + termErr.Error(), Hint: "this is a bug in warden; please report it"}
	case got && last.Error != "":
		return res, &SetupError{What: last.Error, Hint: last.Hint}
	case got && last.StartError != "":
		return res, &StartError{Msg: last.StartError, Status: last.Exit}
	case got && last.Done:
		res.ExitCode, res.Signal = last.Exit, last.Signal
		res.BlockedSyscalls, res.BlockedHow = last.Blocked, last.BlockedHow
		if last.BlockedDropped > 0 {
			res.BlockedHow += fmt.Sprintf("; %d refusals of further calls not listed", last.BlockedDropped)
		}
		if res.Signal != 0 {
			res.ExitCode = -1
		}
		return res, nil
	case started:
		// The command ran, and init ended before it could report: a
		// signal only the kernel sends (init takes the others), or
		// init's own failure. Every process of the sandbox died with it.
		// Not when the run killed it (its timeout, a file the host
		// replaced), which says so itself.
		res.ExitCode, res.Signal, res.InitKilled = -1, int(syscall.SIGKILL), reason == ""
		if ws.Signaled() {
			res.Signal = int(ws.Signal())
		}
		if len(early) > 0 {
			res.BlockedSyscalls = early
			res.BlockedHow = "seccomp user notification; init was killed, so counts are at least these"
		}
		return res, nil
	case reason != "", res.OOMKilled, res.PidsLimitHit:
		if len(early) > 0 {
			res.BlockedSyscalls = early
			res.BlockedHow = "seccomp user notification; the sandbox was killed, so counts are at least these"
		}
		// Killed by the timeout, or init itself fell to a limit (the
		// OOM killer, or no thread to be had): the whole sandbox died.
		res.ExitCode, res.Signal = -1, int(syscall.SIGKILL)
		return res, nil
	}
	return res, &SetupError{
		What: fmt.Sprintf("sandbox init ended without a report (%s)", initEnd(ws, waitErr)),
		Hint: "this is a bug in warden; please report it",
	}
}

// initEnd says how init ended.
func initEnd(ws syscall.WaitStatus, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case ws.Signaled():
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus())
}

// forwardSignals sends each signal from sigs to init, which passes it on
// to the command, until stop is closed. With a terminal, SIGINT and
// SIGQUIT go to its foreground process group instead, and Run takes
// SIGWINCH, which resizes it, and SIGCONT, which makes the caller's
// terminal raw again (warden was stopped and continued).
func forwardSignals(sigs <-chan os.Signal, term *callerTerminal, init *launched, stop <-chan struct{}) {
	var own chan os.Signal // taken here, not passed on
	if term != nil {
		own = make(chan os.Signal, 2)
		signal.Notify(own, syscall.SIGWINCH, syscall.SIGCONT)
		defer signal.Stop(own)
		defer term.restoreOnPanic()
		// A resize between reading the size and this is not missed.
		term.resize()
	}
	for {
		select {
		case <-stop:
			return
		case sig := <-own:
			if sig == syscall.SIGCONT {
				// Warden was stopped and continued: the caller's
				// shell may have set its own modes meanwhile.
				term.makeRaw()
			}
			term.resize()
		case sig := <-sigs:
			s, ok := sig.(syscall.Signal)
			if !ok || !forwarded[s] {
				continue
			}
			if term != nil {
				switch s {
				case syscall.SIGWINCH:
					term.resize()
					continue
				case syscall.SIGINT, syscall.SIGQUIT:
					if term.signal(s) {
						continue
					}
				}
			}
			init.signal(s)
		}
	}
}

// rightsIn returns the descriptors passed in a control message buffer.
func rightsIn(oob []byte) []int {
	if len(oob) == 0 {
		return nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for _, m := range msgs {
		if fs, err := unix.ParseUnixRights(&m); err == nil {
			fds = append(fds, fs...)
		}
	}
	return fds
}

func closeFDs(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// recvRights receives one message on fd with the descriptors it carries
// (close-on-exec), again if a signal interrupts it.
func recvRights(fd int, buf, oob []byte) (n, oobn int, err error) {
	for {
		n, oobn, _, _, err = unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err != unix.EINTR {
			return n, oobn, err
		}
	}
}
