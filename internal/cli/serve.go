// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/preview"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/server"
	"warden.dev/warden/internal/setup"
	"warden.dev/warden/internal/store"
	"warden.dev/warden/internal/unixsock"
)

const serveSynopsis = "serve [--state DIR] [--listen 127.0.0.1:PORT] [--no-warm]"

// State directory names (docs/spec.md §13).
const (
	socketName = "warden.sock"
	tokenName  = "token"
)

func runServe(ctx context.Context, args []string) error {
	fs := newFlags("serve", serveSynopsis)
	stateFlag := fs.String("state", "", "the state `DIR` (default: $WARDEN_STATE_DIR, else $XDG_STATE_HOME/warden, else ~/.local/state/warden)")
	listen := fs.String("listen", "", "also serve the API on loopback `ADDR` (127.0.0.1:PORT), every request with the token")
	noWarm := fs.Bool("no-warm", false, "keep no sandbox started ahead of time for the next warden run")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("serve takes no arguments, got %q", pos[0]))
	}
	dir := contain.StateDir()
	if *stateFlag != "" {
		if dir, err = filepath.Abs(*stateFlag); err != nil {
			return badInput("--state: " + err.Error())
		}
	}
	if dir == "" {
		return badInput("no state directory", "set WARDEN_STATE_DIR or pass --state")
	}
	// A hook the agent would give up on while a question waits would
	// fail open: no warden serve until each is installed again.
	hooks, _ := installedHooks()
	for _, e := range hooks {
		if e.ShortTimeout != "" {
			return badInput(fmt.Sprintf("%s hook in %s: %s", e.Agent, e.File, e.ShortTimeout),
				"warden init installs every hook again with a timeout of 60 s")
		}
	}
	s, err := store.Open(ctx, dir)
	if err != nil {
		return storeError(err)
	}
	defer s.Close()
	token, err := serveToken(dir)
	if err != nil {
		return badInput(fmt.Sprintf("the API token in %s: %v", dir, err))
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &server.Server{
		Store: s, Token: token,
		Remember: func(a store.Approval, ans store.ApprovalAnswer) (string, error) { return rememberApproval(s, a, ans) },
		Record:   func(ev audit.Event) error { _, err := s.Append(context.Background(), ev); return err },
	}
	// The other warden processes of this user record through serve,
	// which holds the store open.
	rln, err := store.ListenRecords(dir)
	if err != nil {
		return badInput(fmt.Sprintf("the record socket: %v", err))
	}
	defer os.Remove(filepath.Join(dir, store.RecordSocket))
	defer rln.Close()
	go store.ServeRecords(rln, s)
	// What a hook spooled while serve did not answer it (store/spool.go)
	// joins the chain within seconds.
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := s.Ingest(ctx); err != nil && ctx.Err() == nil {
					fmt.Fprintf(Stderr, "warden serve: taking in the spool: %v\n", err)
				}
			}
		}
	}()
	if !*noWarm {
		// The next warden run takes a sandbox started ahead of time.
		if k, err := sandbox.NewKeeper(dir); err != nil {
			fmt.Fprintf(Stderr, "warden serve: no sandbox kept started (%v): every warden run starts its own\n", err)
		} else {
			defer k.Close()
			defer os.Remove(filepath.Join(dir, sandbox.WarmSocket))
			fmt.Fprintf(Stderr, "warden serve: a sandbox kept started for the next warden run on %s\n", filepath.Join(dir, sandbox.WarmSocket))
		}
	}
	h := srv.Handler()
	sock := filepath.Join(dir, socketName)
	us, uln, err := server.ListenUnix(ctx, sock, h)
	if err != nil {
		return badInput(fmt.Sprintf("the API socket: %v", err))
	}
	defer os.Remove(sock)
	servers := []*http.Server{us}
	errs := make(chan error, 2)
	go func() { errs <- us.Serve(uln) }()
	fmt.Fprintf(Stderr, "warden serve: the API on %s (this user and root only)\n", sock)
	if *listen != "" {
		ts, tln, err := server.ListenLoopback(ctx, *listen, h)
		if err != nil {
			us.Close()
			return badInput(err.Error())
		}
		servers = append(servers, ts)
		go func() { errs <- ts.Serve(tln) }()
		fmt.Fprintf(Stderr, "warden serve: the API on http://%s (with the token in %s)\n", tln.Addr(), filepath.Join(dir, tokenName))
	}
	select {
	case <-ctx.Done():
	case err := <-errs:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return badInput(err.Error())
		}
	}
	shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for _, s := range servers {
		s.Shutdown(shut)
	}
	return nil
}

// serveToken reads the API token in dir, making it (0600, 32 random
// bytes in hex) when there is none.
func serveToken(dir string) (string, error) {
	p := filepath.Join(dir, tokenName)
	if b, err := readNoFollow(p); err == nil {
		if tok := strings.TrimSpace(string(b)); len(tok) >= 32 {
			return tok, nil
		}
		return "", fmt.Errorf("%s holds no token", p)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	var b [32]byte
	rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(tok + "\n"); err != nil {
		f.Close()
		return "", err
	}
	return tok, f.Close()
}

func readNoFollow(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 256)
	n, err := f.Read(b)
	if err != nil {
		return nil, err
	}
	return b[:n], nil
}

// rememberApproval writes the rule a "remember" answer asks for into the
// user's policy (made from the template when there is none), never into a
// project's: that would change the content the user trusted, and a
// project is the agent's to write.
func rememberApproval(s *store.SQLite, a store.Approval, ans store.ApprovalAnswer) (string, error) {
	dir := contain.UserConfigDir()
	if dir == "" {
		return "", errors.New("no configuration directory for the user's policy")
	}
	path := filepath.Join(dir, setup.PolicyFile)
	if err := setup.EnsurePolicy(path); err != nil {
		return "", err
	}
	lp, err := loadPolicy(path)
	if err != nil {
		return "", err
	}
	ttl, err := time.ParseDuration(ans.TTL)
	if err != nil {
		return "", fmt.Errorf("ttl: %v", err)
	}
	o := policy.RememberOptions{TTL: ttl, Now: now()}
	if o.Scope, err = policy.ParseScope(ans.Scope); err != nil {
		return "", err
	}
	if len(a.Request.Action) == 0 {
		return "", errors.New("the approval holds no action to remember")
	}
	req, err := request.Decode(strings.NewReader(string(a.Request.Action)))
	if err != nil {
		return "", err
	}
	dirOf := a.Request.Project
	if dirOf == "" {
		dirOf = cwd()
	}
	ap := config.Approval{}
	if ap.Action, _, err = lp.Action(req, dirOf); err != nil {
		return "", err
	}
	ap.Dests = config.Destinations(req, ap.Action)
	rem, err := lp.Remember(path, ap, o)
	if err != nil {
		return "", err
	}
	if rem.Empty() {
		return "nothing: already allowed", nil
	}
	if err := writeFileAtomic(path, rem.Text); err != nil {
		return "", err
	}
	said := strings.Join(rememberedLines(rem), "; ")
	// The file as written is kept as a revision, with the approval that
	// made it.
	if err := s.AddRevision(context.Background(), store.Revision{Time: now(), Path: path, Content: rem.Text,
		Why: fmt.Sprintf("approval %s remembered: %s", a.ID, said)}); err != nil {
		return "", fmt.Errorf("the rule was written to %s, but its revision was not kept: %v", path, err)
	}
	return said + " (in " + path + ")", nil
}

// serveClient is an HTTP client for the warden serve of the state
// directory dir, over its Unix socket.
func serveClient(dir string, timeout time.Duration) *http.Client {
	sock := filepath.Join(dir, socketName)
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}},
	}
}

// serveRunning reports whether a warden serve answers on dir's socket.
func serveRunning(dir string) bool {
	if dir == "" {
		return false
	}
	// A connection taken is serve listening: no request needed, which
	// would cost every run without a terminal an HTTP client's start.
	return unixsock.Listening(filepath.Join(dir, socketName))
}

// askThroughServe puts q to a person as a pending approval in rec's
// store, which a warden serve serves, and waits up to wait for the
// answer. It is hook.Options.Ask, set once serveRunning said that warden
// serve answers.
func askThroughServe(rec *store.Recorder, wait time.Duration) func(hook.Question) (hook.Answer, bool) {
	return func(q hook.Question) (hook.Answer, bool) {
		s, err := rec.Store()
		if err != nil {
			return hook.Answer{}, false
		}
		req := store.ApprovalRequest{
			Surface: "hook " + q.Agent, Agent: q.Agent, Session: q.Call.Session, Project: q.Project,
			Tool: q.Call.Tool, Subject: q.Call.Subject.Value, Rule: q.Decision.Rule, Reason: q.Decision.Reason,
			Preview: append(preview.Of(q.Action), writePreview(q)...), Policy: q.Policy.Path,
		}
		for _, c := range q.Decision.Classes {
			req.Classes = append(req.Classes, c.String())
		}
		if len(q.Call.Requests) > 0 {
			if b, err := json.Marshal(q.Call.Requests[0]); err == nil {
				req.Action = b
			}
		}
		expiry := approvalExpiry
		if e := q.Policy.File.Approvals.Expiry; e > 0 {
			expiry = e
		}
		got, waitedOut, err := waitForApproval(s, req, expiry, wait)
		if err != nil {
			return hook.Answer{}, false
		}
		allowed, why := approvalOutcome(got, waitedOut, wait)
		return hook.Answer{Allowed: allowed, ID: got.ID, Reason: why}, true
	}
}

// writePreview is the change a file tool's call would make, read from
// the agent's own payload: the new text of a write (content), or the
// replaced and replacing text of an edit (old_string, new_string), for
// the one path the call writes.
func writePreview(q hook.Question) []string {
	if q.Call.Shell {
		return nil
	}
	var written []string
	for _, p := range q.Action.Paths {
		if p.Access == action.Write {
			written = append(written, p.Resolved)
		}
	}
	if len(written) != 1 || written[0] == "" {
		return nil
	}
	b, err := json.Marshal(q.Call.Payload)
	if err != nil {
		return nil
	}
	var p struct {
		ToolInput struct {
			Content   *string `json:"content"`
			OldString string  `json:"old_string"`
			NewString string  `json:"new_string"`
		} `json:"tool_input"`
	}
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	in := p.ToolInput
	if in.Content == nil && in.OldString == "" && in.NewString == "" {
		return nil
	}
	return preview.Write(written[0], in.Content, in.OldString, in.NewString)
}

// waitForApproval stores req as a pending approval and waits up to wait
// for a person's answer; waitedOut says the wait ended first. An approval
// nobody answered in time is expired then, so that a late answer cannot
// look as if it had counted.
func waitForApproval(s *store.SQLite, req store.ApprovalRequest, expiry, wait time.Duration) (a store.Approval, waitedOut bool, err error) {
	ctx := context.Background()
	start := now()
	a = store.Approval{ID: store.NewApprovalID(), Created: start, Expires: start.Add(expiry), Request: req}
	if err := s.CreateApproval(ctx, a); err != nil {
		return a, false, err
	}
	// Asked, answered: one event each. Asking is not answering: a
	// question that could not be recorded still waits.
	s.Append(ctx, server.ApprovalAskedEvent(a))
	deadline := time.Now().Add(wait)
	for {
		got, err := s.Approval(ctx, a.ID, now())
		if err != nil || got.State != store.Pending {
			if got.State == store.Expired {
				// Nobody answered: warden serve recorded no answer.
				s.Append(ctx, server.ApprovalEvent(got, now()))
			}
			return got, false, err
		}
		if time.Now().After(deadline) {
			s.ExpireApproval(ctx, a.ID, now())
			got.State = store.Expired
			s.Append(ctx, server.ApprovalEvent(got, now()))
			return got, true, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// approvalOutcome is whether an approval ended allowed, and what to tell
// the agent about it.
func approvalOutcome(a store.Approval, waitedOut bool, wait time.Duration) (bool, string) {
	switch a.State {
	case store.Allowed, store.Remembered:
		why := fmt.Sprintf("a person allowed it through warden serve (approval %s)", a.ID)
		if a.Answer != nil && a.Answer.Rule != "" {
			why += "; remembered: " + a.Answer.Rule
		}
		return true, why
	case store.Denied:
		why := fmt.Sprintf("a person denied it through warden serve (approval %s)", a.ID)
		if a.Answer != nil && a.Answer.Reason != "" {
			why += ": " + a.Answer.Reason
		}
		return false, why
	}
	if waitedOut {
		return false, fmt.Sprintf("nobody answered approval %s within %v: an unanswered question is never a yes", a.ID, wait)
	}
	return false, fmt.Sprintf("nobody answered approval %s before it expired: an unanswered question is never a yes", a.ID)
}

// approvalExpiry is how long an approval waits for its answer unless the
// policy's approvals.expiry says otherwise.
var approvalExpiry = 15 * time.Minute

// serveApprover is warden run's approver when it has no terminal and a
// warden serve runs: each yes-or-no question becomes a pending approval,
// with what the run told before it as its preview, and waits for a
// person's answer. A question with more than yes or no (on-failure's
// numbered choices) is answered no.
type serveApprover struct {
	rec     *store.Recorder
	agent   string
	project string
	argv    []string
	told    []string
	// state is the state directory on whose socket a warden serve that
	// answers listens; there says whether one did when first asked.
	state string
	once  sync.Once
	there bool
}

// Present says whether a warden serve answers on the state directory's
// socket: looked for at the run's first question, once
// (contain.Absentable).
func (a *serveApprover) Present() bool {
	a.once.Do(func() { a.there = serveRunning(a.state) })
	return a.there
}

// choose answers a numbered question (on-failure's "[1-N/N]"): each
// choice the run told, in order, is one approval, until a person allows
// one; its number is the answer, and none allowed is no.
func (a *serveApprover) choose(question string) string {
	var choices []string
	for _, t := range a.told {
		for _, line := range strings.Split(t, "\n") {
			line = strings.TrimSpace(line)
			if n, rest, ok := strings.Cut(line, ". "); ok {
				if _, err := strconv.Atoi(n); err == nil {
					choices = append(choices, rest)
				}
			}
		}
	}
	told := append([]string(nil), a.told...)
	for i, c := range choices {
		a.told = append(told[:len(told):len(told)], fmt.Sprintf("this approval allows choice %d: %s", i+1, c))
		if a.Ask(fmt.Sprintf("approval on-failure: rerun once with %s allowed? [y/N]", c)) == "y" {
			return strconv.Itoa(i + 1)
		}
	}
	return ""
}

// runWait is how long a run's question waits for its answer.
var runWait = 5 * time.Minute

func (a *serveApprover) Tell(text string) { a.told = append(a.told, text) }

// Where says where the person answered, for the record.
func (a *serveApprover) Where() string { return "through warden serve" }

func (a *serveApprover) Ask(question string) string {
	defer func() { a.told = nil }()
	if !strings.HasSuffix(question, "[y/N]") {
		return a.choose(question)
	}
	s, err := a.rec.Store()
	if err != nil {
		return ""
	}
	req := store.ApprovalRequest{Surface: "run", Agent: a.agent, Project: a.project, Tool: "warden run",
		Subject: strings.Join(a.argv, " "), Reason: question, Preview: append([]string(nil), a.told...)}
	// What remember makes a rule of: the command, contained.
	if b, err := json.Marshal(map[string]any{"tool": "bash", "commands": [][]string{a.argv}, "contained": true}); err == nil {
		req.Action = b
	}
	fmt.Fprintf(Stderr, "warden: waiting up to %v for a person to answer through warden serve (warden approvals list)\n", runWait)
	got, waitedOut, err := waitForApproval(s, req, approvalExpiry, runWait)
	if err != nil {
		return ""
	}
	allowed, why := approvalOutcome(got, waitedOut, runWait)
	if !allowed {
		fmt.Fprintf(Stderr, "warden: %s\n", why)
		return ""
	}
	return "y"
}
