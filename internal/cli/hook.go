// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden hook ADAPTER answers one hook call of an agent CLI; warden hook
// install ADAPTER writes the agent's settings entry. The rules every
// adapter's hook follows:
//
//   - Fail closed. The hook exits 0 with a JSON answer, or 2 with
//     "warden: error: …" on stderr — never any other status, whatever
//     happens: a panic, a timeout (the hook bounds its own run to
//     hookDeadline, well under the agent's hook timeout), input it cannot
//     read, a policy that does not load. Agent CLIs run the tool when a
//     hook fails any other way.
//   - One engine. The decision is the one `warden explain` gives for the
//     same action: the policy from --policy, else the embedded default,
//     with WARDEN_MANAGED_POLICY's managed tier.
//   - Notes to the agent are rate-limited per session (noteLimiter): the
//     same block is explained at most once per 5 minutes, and at most 5
//     notes go out a minute. The state is a small file under the user's
//     cache directory; one that is corrupt or cannot be written never
//     breaks the hook (notes then go out unlimited).
//
// Adding an adapter is one entry in hookAdapters: its name, a decide
// function (payload bytes in, answer bytes out, an error for exit 2) and
// an install function.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/claudecode"
	"warden.dev/warden/internal/pathguard"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/safefile"
)

// hookDeadline bounds one hook call. Claude Code's default hook timeout
// is 60 s and `warden hook install` writes 30 s.
var hookDeadline = 10 * time.Second

// maxPayload bounds the payload read; each adapter's Parse checks its own
// bound (all are 16 MiB).
const maxPayload = 16 << 20

// hookAdapter is one agent CLI whose hooks Warden answers.
type hookAdapter struct {
	name string
	// decide answers one payload; an error exits 2 with it on stderr.
	decide func(h *hookOptions, payload []byte) ([]byte, error)
	// install writes the agent's settings entry (warden hook install).
	install func(args []string) error
}

// hookAdapters is the dispatch table of warden hook.
func hookAdapters() []hookAdapter {
	return []hookAdapter{
		{name: "claude-code", decide: decideClaudeCode, install: installClaudeCode},
		{name: "codex", decide: decideCodex, install: installCodex},
		{name: "gemini", decide: decideGemini, install: installGemini},
	}
}

// hookOptions are the flags every adapter's hook takes.
type hookOptions struct {
	adapter  string
	policy   string // absolute, or empty for the embedded default
	wrap     bool
	headless bool
	now      time.Time
}

func runHook(ctx context.Context, args []string) error {
	names := []string{}
	for _, a := range hookAdapters() {
		names = append(names, a.name)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(Stderr, "Usage: warden hook ADAPTER [--policy FILE] [--wrap] [--headless] < payload\n       warden hook install ADAPTER [--user|--project] [--policy FILE] [--wrap] [--headless]\nAdapters: %s\n", strings.Join(names, ", "))
		if len(args) == 0 {
			return &exitError{code: exitBadInput}
		}
		return nil
	}
	if args[0] == "install" {
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return badInput("warden hook install needs an adapter", "adapters: "+strings.Join(names, ", "))
		}
		for _, a := range hookAdapters() {
			if a.name == args[1] {
				return a.install(args[2:])
			}
		}
		return badInput(fmt.Sprintf("unknown hook adapter %q", args[1]), "adapters: "+strings.Join(names, ", "))
	}
	for _, a := range hookAdapters() {
		if a.name == args[0] {
			return runHookAdapter(a, args[1:])
		}
	}
	return badInput(fmt.Sprintf("unknown hook adapter %q", args[0]), "adapters: "+strings.Join(names, ", "))
}

// runHookAdapter answers one hook call, failing closed: every way out is
// an answer (exit 0) or an error (exit 2).
func runHookAdapter(a hookAdapter, args []string) error {
	fs := newFlags("hook "+a.name, "hook "+a.name+" [--policy FILE] [--wrap] [--headless] < payload")
	policyPath := fs.String("policy", "", "policy `file` (default: the embedded default policy)")
	wrap := fs.Bool("wrap", false, "run allowed shell commands under warden run (decided as contained)")
	headless := fs.Bool("headless", os.Getenv(envHookHeadless) == "1", "nobody can answer a prompt: a prompt is a deny (also "+envHookHeadless+"=1)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Never exit 0 without an answer: the agent would run the tool.
			return &exitError{code: exitBadInput}
		}
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("warden hook %s reads its payload on stdin, not %q", a.name, pos[0]))
	}
	h := &hookOptions{adapter: a.name, wrap: *wrap, headless: *headless, now: now()}
	if *policyPath != "" {
		abs, err := filepath.Abs(*policyPath)
		if err != nil {
			return badInput(fmt.Sprintf("--policy: %v", err))
		}
		h.policy = abs
	}
	// The reader is taken here: the goroutine of a decision that timed
	// out must not touch the package's streams.
	in := Stdin
	out, err := boundedHook(hookDeadline, func() ([]byte, error) {
		payload, err := io.ReadAll(io.LimitReader(in, maxPayload+1))
		if err != nil {
			return nil, fmt.Errorf("reading the hook payload: %v", err)
		}
		return a.decide(h, payload)
	})
	if err != nil {
		return badInput(err.Error())
	}
	if _, err := Stdout.Write(out); err != nil {
		return badInput(fmt.Sprintf("writing the hook answer: %v", err))
	}
	return nil
}

// boundedHook runs decide with a deadline and turns a panic into an
// error. On timeout it returns at once; decide's goroutine is left to the
// process's exit.
func boundedHook(deadline time.Duration, decide func() ([]byte, error)) ([]byte, error) {
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("internal error: %v (the call is refused)", r)}
			}
		}()
		out, err := decide()
		if err == nil && !json.Valid(out) {
			err = errors.New("internal error: the answer is not JSON (the call is refused)")
		}
		done <- result{out, err}
	}()
	t := time.NewTimer(deadline)
	defer t.Stop()
	select {
	case r := <-done:
		return r.out, r.err
	case <-t.C:
		return nil, fmt.Errorf("no decision within %v (the call is refused)", deadline)
	}
}

// decideClaudeCode answers one Claude Code hook payload.
func decideClaudeCode(h *hookOptions, data []byte) ([]byte, error) {
	p, err := claudecode.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("reading Claude Code's hook payload: %v", err)
	}
	state := hookStateDir(h.adapter)
	project := findProject(p.Cwd)
	opt := claudecode.Options{Project: project}
	if h.wrap {
		if opt.Wrap, err = hookWrapper(h, project, state); err != nil {
			return nil, err
		}
	}
	call, err := claudecode.Translate(p, opt)
	if err != nil {
		return nil, fmt.Errorf("reading Claude Code's hook payload: %v", err)
	}
	limiter := &noteLimiter{dir: state, session: p.SessionID, now: h.now}

	if p.Event == claudecode.PostToolUse || p.Event == claudecode.PostToolUseFailure {
		ans := claudecode.Answer{Event: p.Event}
		if call.Wrapped && call.Audit != "" {
			ans.Context = sandboxContext(limiter, call.Audit, h.now, func(rep adapter.RunReport) (string, string) {
				return claudecode.SandboxNote(call, rep), claudecode.Key(call, "sandbox")
			})
		}
		return ans.JSON(), nil
	}

	lp, err := loadHookPolicy(h.policy)
	if err != nil {
		return nil, err
	}
	a, d, err := judge(h, lp, p.Cwd, []request.Request{call.Request}, call.Recursive)
	if err != nil {
		return nil, fmt.Errorf("%s call: %v", p.ToolName, err)
	}
	v := claudecode.Verdict(d.Verdict, p.PersonCanAnswer(h.headless))
	ans := claudecode.Answer{Event: p.Event, Verdict: v}
	ans.Reason = claudecode.Note(call, a, d, v)
	if v == action.Deny {
		switch limiter.allow(claudecode.Key(call, d.Rule)) {
		case noteRepeated:
			ans.Reason = claudecode.Repeat(call, d)
		case noteHeld:
			ans.Reason = claudecode.Held(call, d)
		}
	}
	if opt.Wrap != nil && call.Bash && !call.Wrapped && v != action.Deny && p.Event == claudecode.PreToolUse {
		prepareAuditDir(opt.Wrap)
		ans.UpdatedInput, err = claudecode.UpdatedInput(p, opt.Wrap.Wrap(call.Request.Command, p.Cwd, p.ToolUseID))
		if err != nil {
			return nil, fmt.Errorf("--wrap: %v", err)
		}
	}
	return ans.JSON(), nil
}

// hookWrapper is --wrap's rewriting: this warden binary, the hook's
// policy, the project, and execution records under the hook's state.
func hookWrapper(h *hookOptions, project, state string) (*adapter.Wrapper, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--wrap: cannot find the warden binary: %v", err)
	}
	w := &adapter.Wrapper{Exe: exe, Policy: h.policy, Project: project}
	if state != "" {
		w.AuditDir = filepath.Join(state, "runs")
	}
	return w, nil
}

// prepareAuditDir makes the directory of execution records; a wrapped
// run without one simply has no record.
func prepareAuditDir(w *adapter.Wrapper) {
	if w.AuditDir != "" {
		if err := os.MkdirAll(w.AuditDir, 0o700); err != nil {
			w.AuditDir = ""
		}
	}
}

// sandboxContext reads (and removes) a wrapped run's execution record and
// returns the note on what the sandbox refused, within the note limits;
// note gives the note and its rate-limit key.
func sandboxContext(l *noteLimiter, audit string, now time.Time, note func(adapter.RunReport) (string, string)) string {
	defer sweepRuns(filepath.Dir(audit), now)
	rep, ok := readRunReport(audit)
	if !ok {
		return ""
	}
	text, key := note(rep)
	if text == "" || l.allow(key) != noteGo {
		return ""
	}
	return text
}

// loadHookPolicy loads the policy a hook decides with; an error says the
// call is refused.
func loadHookPolicy(path string) (*loadedPolicy, error) {
	lp, err := loadPolicy(path)
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return nil, errors.New(ee.msg + " (the call is refused)")
		}
		return nil, err
	}
	return lp, nil
}

// judge decides every request of one call with the engine of warden
// explain and returns the strictest decision (deny, then prompt, then
// allow; the first of equals) with its action. The sensitive files below
// the recursive directories are added to the first request, so that the
// floor judges what the call really reads.
func judge(h *hookOptions, lp *loadedPolicy, dir string, reqs []request.Request, recursive []string) (*action.Action, policy.Decision, error) {
	if len(reqs) == 0 {
		return nil, policy.Decision{}, errors.New("internal error: a call with no action")
	}
	for _, d := range recursive {
		reqs[0].Paths = append(reqs[0].Paths, sensitiveBelow(d)...)
	}
	var worst *action.Action
	var wd policy.Decision
	for i := range reqs {
		a, _, err := reqs[i].Action(request.Options{Dir: dir, Home: homeDir(), Sensitive: lp.sensitiveExtra()})
		if err != nil {
			return nil, policy.Decision{}, err
		}
		d, _ := lp.engine.Evaluate(a, policy.Env{Now: h.now})
		if worst == nil || strictness(d.Verdict) > strictness(wd.Verdict) {
			worst, wd = a, d
		}
	}
	return worst, wd, nil
}

func strictness(v action.Verdict) int {
	switch v {
	case action.Allow:
		return 0
	case action.Prompt:
		return 1
	}
	return 2
}

// limitedReason is the reason of a deny within the note limits: the full
// note, or the short one of a repeated or held-back block.
func limitedReason(l *noteLimiter, s adapter.Subject, d policy.Decision, note string) string {
	switch l.allow(adapter.Key(s, d.Rule)) {
	case noteRepeated:
		return adapter.Repeat(s, d)
	case noteHeld:
		return adapter.Held(s, d)
	}
	return note
}

// findProject is the worktree root for a working directory: the nearest
// directory at or above it that git would take for the top level of a
// work tree, else the directory itself. Both are taken after resolving
// symbolic links. A stray .git that is not a repository (an empty
// directory in /tmp) does not count, as git does not count it: the
// project is the writable root of wrapped commands, and too wide a root
// would be a hole.
func findProject(cwd string) string {
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	for d := cwd; ; {
		if isGitDir(filepath.Join(d, ".git")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return cwd
		}
		d = parent
	}
}

// isGitDir reports whether p is what git accepts as a work tree's .git: a
// directory with HEAD and objects (or a commondir, for a linked work
// tree), or a file "gitdir: …".
func isGitDir(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		f, err := os.Open(p)
		if err != nil {
			return false
		}
		defer f.Close()
		head := make([]byte, 8)
		n, _ := io.ReadFull(f, head)
		return string(head[:n]) == "gitdir: "
	}
	if !fi.IsDir() {
		return false
	}
	if _, err := os.Stat(filepath.Join(p, "HEAD")); err != nil {
		return false
	}
	for _, sub := range []string{"objects", "commondir"} {
		if _, err := os.Stat(filepath.Join(p, sub)); err == nil {
			return true
		}
	}
	return false
}

// maxBelow bounds the entries visited under a directory read recursively.
const maxBelow = 20000

// sensitiveBelow lists the sensitive files under dir (a Grep's
// directory), and files with several links (a hard link to a key is
// recognised by resolution), so the floor judges what the call reads. A
// tree too large to walk yields a path that cannot resolve: the call is
// denied rather than judged on a guess. Symbolic links are not followed,
// as ripgrep does not follow them.
func sensitiveBelow(dir string) []string {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil
	}
	var out []string
	n := 0
	home := homeDir()
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxBelow {
			return errTooMany
		}
		if _, ok := pathguard.SensitiveIn(p, home); ok {
			out = append(out, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && pathguard.MultiplyLinked(fi) {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		out = append(out, dir+"\x00(holds more than 20000 entries to check for secrets)")
	}
	return out
}

var errTooMany = errors.New("too many entries")

// hookStateDir is where an adapter's hook keeps its state (note limits,
// execution records of wrapped runs); empty when the user has no cache
// directory.
func hookStateDir(adapter string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "warden", "hook", adapter)
}

// readRunReport reads and removes the execution record of a wrapped run.
func readRunReport(path string) (adapter.RunReport, bool) {
	f, err := os.Open(path)
	if err != nil {
		return adapter.RunReport{}, false
	}
	data, err := io.ReadAll(io.LimitReader(f, 4<<20))
	f.Close()
	os.Remove(path)
	if err != nil {
		return adapter.RunReport{}, false
	}
	var rec auditRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return adapter.RunReport{}, false
	}
	rep := adapter.RunReport{Status: rec.Status, TimedOut: rec.TimedOut}
	if rec.Status == exitSandbox && rec.Error != "" {
		rep.SetupError = rec.Error
	}
	for _, at := range rec.NetworkAttempts {
		if at.Verdict != "allow" {
			rep.Denied = append(rep.Denied, adapter.Attempt{Host: at.Host, Port: at.Port, Rule: at.Rule, Reason: at.Reason})
		}
	}
	for _, sc := range rec.BlockedSyscalls {
		rep.Syscalls = append(rep.Syscalls, adapter.Syscall{Name: sc.Syscall, Count: sc.Count})
	}
	return rep, true
}

// sweepRuns removes execution records older than an hour: those of calls
// that never ran, or whose PostToolUse never came.
func sweepRuns(dir string, now time.Time) {
	sweepOld(dir, now.Add(-time.Hour), ".json")
}

// sweepOld removes files of dir with the suffix last changed before
// cutoff, looking at a bounded number of entries.
func sweepOld(dir string, cutoff time.Time, suffix string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(1000)
	f.Close()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Note limits (DESIGN.md §10): the same block once per window, at most
// burst notes a minute; the state keeps at most maxNotes entries.
const (
	noteWindow = 5 * time.Minute
	noteBurst  = 5
	maxNotes   = 64
	// maxStateSize bounds the state file read; a larger one is corrupt.
	maxStateSize = 64 << 10
)

// noteLimiter keeps, per session, the notes given recently.
type noteLimiter struct {
	dir     string
	session string
	now     time.Time
}

type noteState struct {
	Notes []noteEntry `json:"notes"`
}

type noteEntry struct {
	Key  string `json:"k"`
	Unix int64  `json:"t"`
}

// noteVerdict says whether a note may go out.
type noteVerdict int

const (
	noteGo       noteVerdict = iota
	noteRepeated             // the same block was explained within noteWindow
	noteHeld                 // noteBurst notes went out within the minute
)

// allow says whether the note identified by key may go out now, and
// records it when it may. Every failure to keep state answers go: the
// limit saves the agent's attention, it guards nothing.
func (l *noteLimiter) allow(key string) noteVerdict {
	if l.dir == "" {
		return noteGo
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return noteGo
	}
	sum := sha256.Sum256([]byte(l.session))
	path := filepath.Join(l.dir, "notes-"+hex.EncodeToString(sum[:8])+".json")
	_, statErr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return noteGo
	}
	defer f.Close()
	if errors.Is(statErr, os.ErrNotExist) {
		// A new session: the state of sessions idle for a day goes.
		sweepOld(l.dir, l.now.Add(-24*time.Hour), ".json")
	}
	// Parallel tool calls run their hooks at once: take the file's lock,
	// but never wait long for it.
	for i := 0; i < 20; i++ {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	var st noteState
	data, err := io.ReadAll(io.LimitReader(f, maxStateSize+1))
	if err != nil || len(data) > maxStateSize || json.Unmarshal(data, &st) != nil {
		st = noteState{} // corrupt or unreadable: start afresh
	}
	now := l.now.Unix()
	recent := 0
	kept := st.Notes[:0]
	for _, n := range st.Notes {
		if n.Unix > now || now-n.Unix >= int64(noteWindow/time.Second) {
			continue
		}
		kept = append(kept, n)
		if n.Key == key {
			return noteRepeated
		}
		if now-n.Unix < 60 {
			recent++
		}
	}
	if recent >= noteBurst {
		return noteHeld
	}
	st.Notes = append(kept, noteEntry{key, now})
	if len(st.Notes) > maxNotes {
		st.Notes = st.Notes[len(st.Notes)-maxNotes:]
	}
	out, _ := json.Marshal(st)
	if _, err := f.Seek(0, io.SeekStart); err == nil && f.Truncate(0) == nil {
		f.Write(out)
	}
	return noteGo
}

// Installing a hook: warden hook install ADAPTER writes the agent's
// settings file, replacing every Warden entry of that adapter by one per
// event and keeping every other key and hook as it was.

// hookInstall is what warden hook install writes for one adapter.
type hookInstall struct {
	adapter string
	// user is the user-level settings file and how it is shown; project
	// the project-level one, relative to the current directory.
	user    func() (path, shown string, err error)
	project string
	// events are the hook events the installed hook answers.
	events []hookEvent
	// handler is the JSON of one hook handler running command.
	handler func(command string, ev hookEvent) any
	// hints are printed after the changes.
	hints []string
}

// hookEvent is one event the installed hook answers, with its matcher and
// timeout (in the agent's unit).
type hookEvent struct {
	event, matcher string
	timeout        int
	unit           string
}

// commandHandler is the handler shape of Claude Code and Codex:
// {"type":"command","command":…,"timeout":seconds}.
func commandHandler(command string, ev hookEvent) any {
	return struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}{"command", command, ev.timeout}
}

func installClaudeCode(args []string) error {
	return installHook(hookInstall{
		adapter: "claude-code",
		user: func() (string, string, error) {
			home := homeDir()
			if home == "" {
				return "", "", badInput("no home directory for ~/.claude/settings.json", "use --project")
			}
			return filepath.Join(home, ".claude", "settings.json"), "~/.claude/settings.json", nil
		},
		project: filepath.Join(".claude", "settings.json"),
		events:  claudeHookEvents,
		handler: commandHandler,
	}, args)
}

// claudeHookEvents are the events the installed hook answers, with the
// matcher of each: post-call notes concern wrapped Bash commands only.
var claudeHookEvents = []hookEvent{
	{"PreToolUse", claudecode.Matcher, 30, "s"},
	{"PermissionRequest", claudecode.Matcher, 30, "s"},
	{"PostToolUse", "Bash", 30, "s"},
	{"PostToolUseFailure", "Bash", 30, "s"},
}

// installHook runs warden hook install for one adapter.
func installHook(in hookInstall, args []string) error {
	name := "hook install " + in.adapter
	fs := newFlags(name, name+" [--user|--project] [--policy FILE] [--wrap] [--headless]")
	user := fs.Bool("user", false, "write the user's settings (the default)")
	proj := fs.Bool("project", false, "write ./"+in.project)
	policyPath := fs.String("policy", "", "policy `file` the hook decides with (default: the embedded default)")
	wrap := fs.Bool("wrap", false, "run allowed shell commands under warden run")
	headless := fs.Bool("headless", false, "nobody answers prompts: a prompt is a deny")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *user && *proj {
		return badInput("give --user or --project, not both")
	}
	var path, shown string
	if *proj {
		path, shown = filepath.Join(cwd(), in.project), in.project
	} else if path, shown, err = in.user(); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return badInput(fmt.Sprintf("cannot find the warden binary: %v", err))
	}
	command := hookQuote(exe) + " hook " + in.adapter
	if *policyPath != "" {
		abs, err := filepath.Abs(*policyPath)
		if err != nil {
			return badInput(fmt.Sprintf("--policy: %v", err))
		}
		if _, err := loadPolicy(abs); err != nil {
			return err
		}
		command += " --policy " + hookQuote(abs)
	}
	if *wrap {
		command += " --wrap"
	}
	if *headless {
		command += " --headless"
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return badInput(fmt.Sprintf("reading %s: %v", shown, err))
	}
	settings, err := parseSettings(old)
	if err != nil {
		return badInput(fmt.Sprintf("%s: %v", shown, err), "Warden does not rewrite a settings file it cannot parse; fix it or move it away")
	}
	before := settings.encode()
	changes, err := settings.setHooks(in, command)
	if err != nil {
		return badInput(fmt.Sprintf("%s: %v", shown, err), "Warden does not rewrite a settings file it cannot parse; fix it or move it away")
	}
	after := settings.encode()
	if bytes.Equal(before, after) && old != nil {
		fmt.Fprintf(Stdout, "%s: already up to date, nothing changed\n", shown)
		return nil
	}
	if err := writeSettingsAtomic(path, after); err != nil {
		return badInput(fmt.Sprintf("writing %s: %v", shown, err))
	}
	fmt.Fprintf(Stdout, "%s:\n", shown)
	for _, c := range changes {
		fmt.Fprintln(Stdout, c)
	}
	if n := len(settings.keys) - 1; n > 0 {
		fmt.Fprintf(Stdout, "  (%d other top-level key(s) kept as they were)\n", n)
	}
	for _, h := range in.hints {
		fmt.Fprintf(Stdout, "warden: hint: %s\n", h)
	}
	return nil
}

// setHooks replaces every Warden hook of the adapter in the settings'
// hooks by one entry per event running command, and returns the changes
// as diff-like lines.
func (s *jsonObject) setHooks(in hookInstall, command string) ([]string, error) {
	hooks := &jsonObject{vals: map[string]json.RawMessage{}}
	if raw, ok := s.vals["hooks"]; ok {
		h, err := parseObject(raw)
		if err != nil {
			return nil, fmt.Errorf(`"hooks": %v`, err)
		}
		hooks = h
	}
	var changes []string
	for _, ev := range in.events {
		var groups []json.RawMessage
		if raw, ok := hooks.vals[ev.event]; ok {
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, fmt.Errorf(`"hooks.%s" is not a list: %v`, ev.event, err)
			}
		}
		var kept []json.RawMessage
		had := false
		for _, g := range groups {
			ng, removed, err := dropWardenHooks(g, in.adapter)
			if err != nil {
				return nil, fmt.Errorf(`"hooks.%s": %v`, ev.event, err)
			}
			for _, r := range removed {
				if r == command {
					had = true
				} else {
					changes = append(changes, fmt.Sprintf("- hooks.%s: %s", ev.event, r))
				}
			}
			if ng != nil {
				kept = append(kept, ng)
			}
		}
		entry, _ := json.Marshal(struct {
			Matcher string `json:"matcher"`
			Hooks   []any  `json:"hooks"`
		}{ev.matcher, []any{in.handler(command, ev)}})
		kept = append(kept, entry)
		if had {
			changes = append(changes, fmt.Sprintf("  hooks.%s: %s (kept)", ev.event, command))
		} else {
			changes = append(changes, fmt.Sprintf("+ hooks.%s: %s (matcher %s, timeout %d%s)", ev.event, command, ev.matcher, ev.timeout, ev.unit))
		}
		list, _ := json.Marshal(kept)
		hooks.set(ev.event, list)
	}
	s.set("hooks", hooks.encode())
	return changes, nil
}

// dropWardenHooks removes the adapter's Warden hooks from one matcher
// group; the group is nil when nothing else is left in it.
func dropWardenHooks(group json.RawMessage, adapter string) (json.RawMessage, []string, error) {
	g, err := parseObject(group)
	if err != nil {
		return nil, nil, fmt.Errorf("a matcher group: %v", err)
	}
	raw, ok := g.vals["hooks"]
	if !ok {
		return group, nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, nil, fmt.Errorf(`a group's "hooks" is not a list`)
	}
	var kept []json.RawMessage
	var removed []string
	for _, h := range list {
		var hk struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(h, &hk) == nil && isWardenHook(hk.Command, adapter) {
			removed = append(removed, hk.Command)
			continue
		}
		kept = append(kept, h)
	}
	if len(removed) == 0 {
		return group, nil, nil
	}
	if len(kept) == 0 {
		return nil, removed, nil
	}
	nl, _ := json.Marshal(kept)
	g.set("hooks", nl)
	return g.encode(), removed, nil
}

// isWardenClaudeHook reports whether a hook command runs warden hook
// claude-code.
func isWardenClaudeHook(cmd string) bool { return isWardenHook(cmd, "claude-code") }

// isWardenHook reports whether a hook command runs warden hook ADAPTER.
func isWardenHook(cmd, adapter string) bool {
	first, rest, ok := strings.Cut(cmd, " ")
	if strings.HasPrefix(cmd, "'") {
		if w, r, ok2 := unquoteShell(cmd); ok2 {
			first, rest, ok = w, strings.TrimPrefix(r, " "), true
		}
	}
	if !ok {
		return false
	}
	sub := "hook " + adapter
	return filepath.Base(first) == "warden" && (rest == sub || strings.HasPrefix(rest, sub+" "))
}

// hookQuote single-quotes s for sh, unless it needs no quoting.
func hookQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unquoteShell reads one word as hookQuote writes it.
func unquoteShell(s string) (word, rest string, ok bool) {
	var b strings.Builder
	for strings.HasPrefix(s, "'") {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		r, more := strings.CutPrefix(s, `\'`)
		if !more {
			return b.String(), s, true
		}
		b.WriteByte('\'')
		s = r
	}
	return "", "", false
}

// jsonObject is a JSON object that keeps its keys' order and its values'
// bytes, so that rewriting one key leaves the rest of a settings file as
// it was.
type jsonObject struct {
	keys []string
	vals map[string]json.RawMessage
}

// parseSettings reads a settings file: empty means {}, anything but one
// JSON object is an error.
func parseSettings(data []byte) (*jsonObject, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &jsonObject{vals: map[string]json.RawMessage{}}, nil
	}
	return parseObject(data)
}

func parseObject(data []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &jsonObject{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		k, ok := tok.(string)
		if !ok {
			return nil, errors.New("not JSON: a key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		if _, dup := o.vals[k]; dup {
			return nil, fmt.Errorf("key %q appears twice", k)
		}
		o.keys = append(o.keys, k)
		o.vals[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not JSON: data after the object")
	}
	return o, nil
}

func (o *jsonObject) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// encode writes the object indented by two spaces, keys in order.
func (o *jsonObject) encode() []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range o.keys {
		if i > 0 {
			b.WriteString(",")
		}
		kb, _ := json.Marshal(k)
		b.WriteString("\n  ")
		b.Write(kb)
		b.WriteString(": ")
		var v bytes.Buffer
		raw := bytes.TrimSpace(o.vals[k])
		if err := json.Indent(&v, raw, "  ", "  "); err != nil {
			b.Write(raw)
		} else {
			b.Write(v.Bytes())
		}
	}
	if len(o.keys) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeSettingsAtomic replaces path with data: a file beside it, synced, then
// renamed over it, keeping the old file's mode (0600 for a new one).
func writeSettingsAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return safefile.WriteFile(path, data, mode)
}
