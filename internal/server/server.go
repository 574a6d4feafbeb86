// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package server is warden serve's HTTP API over the store: the pending
// approvals and a person's answers to them, the audit timeline, and a
// stream of new events.
//
//	GET  /healthz
//	GET  /v1/approvals[?all=1]
//	GET  /v1/approvals/{id}
//	POST /v1/approvals/{id}   {"answer":"allow|deny|remember","reason","scope","ttl"}
//	GET  /v1/audit[?since=&until=&kind=&verdict=&agent=&limit=]   (JSON lines)
//	GET  /v1/events           (server-sent events: each new event)
//
// It listens on a Unix socket in the state directory, where only a peer
// of the same uid, or root, is served (SO_PEERCRED), and, when asked, on
// loopback. Reading needs the socket (or, on loopback, the token);
// answering an approval needs the token on both: an answer is a person's,
// and the token is in the state directory, which no agent may reach.
package server

import (
	"bufio"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/store"
	"warden.dev/warden/internal/unixsock"
)

// Server serves the API.
type Server struct {
	Store *store.SQLite
	// Token is the bearer token answers (and any loopback request)
	// need.
	Token string
	// Remember turns an approval answered "remember" into a rule, and
	// returns the rule written, as a sentence.
	Remember func(a store.Approval, ans store.ApprovalAnswer) (string, error)
	// Record records an answered approval in the audit log.
	Record func(audit.Event) error
	Now    func() time.Time
	// Poll is how often /v1/events looks for new events.
	Poll time.Duration
}

// MaxBody bounds a request's body.
const MaxBody = 64 << 10

type ctxKey int

const peerKey ctxKey = 0

// peer is who is on the other end of a connection.
type peer struct {
	unix bool // over the Unix socket, from an allowed uid
	uid  int
}

// Handler is the API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /v1/approvals", s.listApprovals)
	mux.HandleFunc("GET /v1/approvals/{id}", s.getApproval)
	mux.HandleFunc("POST /v1/approvals/{id}", s.answerApproval)
	mux.HandleFunc("GET /v1/audit", s.audit)
	mux.HandleFunc("GET /v1/events", s.events)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := r.Context().Value(peerKey).(peer)
		// Anything but the Unix socket's own peers shows the token.
		if !p.unix && !s.authorized(r) {
			jsonError(w, http.StatusUnauthorized, "a bearer token is needed (the token file in the state directory)")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && s.Token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.Token)) == 1
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ApprovalJSON is an approval as the API shows it.
type ApprovalJSON struct {
	ID      string                `json:"id"`
	State   string                `json:"state"`
	Created time.Time             `json:"created"`
	Expires time.Time             `json:"expires"`
	Request store.ApprovalRequest `json:"request"`
	Answer  *store.ApprovalAnswer `json:"answer,omitempty"`
}

func approvalJSON(a store.Approval) ApprovalJSON {
	return ApprovalJSON{ID: a.ID, State: a.State, Created: a.Created.UTC(), Expires: a.Expires.UTC(), Request: a.Request, Answer: a.Answer}
}

func (s *Server) listApprovals(w http.ResponseWriter, r *http.Request) {
	as, err := s.Store.Approvals(r.Context(), r.URL.Query().Get("all") == "", s.now())
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := []ApprovalJSON{}
	for _, a := range as {
		out = append(out, approvalJSON(a))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getApproval(w http.ResponseWriter, r *http.Request) {
	a, err := s.Store.Approval(r.Context(), r.PathValue("id"), s.now())
	if errors.Is(err, store.ErrNoApproval) {
		jsonError(w, http.StatusNotFound, fmt.Sprintf("no approval %q", r.PathValue("id")))
		return
	}
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, approvalJSON(a))
}

// AnswerRequest is the body of POST /v1/approvals/{id}.
type AnswerRequest struct {
	Answer string `json:"answer"`
	Reason string `json:"reason,omitempty"`
	Scope  string `json:"scope,omitempty"`
	TTL    string `json:"ttl,omitempty"`
}

func (s *Server) answerApproval(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		jsonError(w, http.StatusUnauthorized, "answering an approval needs the bearer token (the token file in the state directory)")
		return
	}
	var req AnswerRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		jsonError(w, http.StatusBadRequest, "the answer is JSON: {\"answer\":\"allow|deny|remember\",\"reason\",\"scope\",\"ttl\"}: "+err.Error())
		return
	}
	switch req.Answer {
	case "allow", "deny":
	case "remember":
		if req.Scope == "" || req.TTL == "" {
			jsonError(w, http.StatusBadRequest, "remember needs a scope and a ttl")
			return
		}
		if _, err := time.ParseDuration(req.TTL); err != nil {
			jsonError(w, http.StatusBadRequest, "ttl: "+err.Error())
			return
		}
	default:
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("answer %q: want allow, deny or remember", req.Answer))
		return
	}
	id := r.PathValue("id")
	now := s.now()
	a, err := s.Store.Approval(r.Context(), id, now)
	switch {
	case errors.Is(err, store.ErrNoApproval):
		jsonError(w, http.StatusNotFound, fmt.Sprintf("no approval %q", id))
		return
	case err != nil:
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	case a.State != store.Pending:
		jsonError(w, http.StatusConflict, fmt.Sprintf("approval %s is %s", id, a.State))
		return
	}
	ans := store.ApprovalAnswer{Answer: req.Answer, Reason: req.Reason, Scope: req.Scope, TTL: req.TTL}
	if req.Answer == "remember" {
		// The rule is written first: an approval answered "remember"
		// whose rule could not be written would allow once and forget.
		if s.Remember == nil {
			jsonError(w, http.StatusNotImplemented, "this server cannot write rules")
			return
		}
		rule, err := s.Remember(a, ans)
		if err != nil {
			jsonError(w, http.StatusUnprocessableEntity, "remember: "+err.Error())
			return
		}
		ans.Rule = rule
	}
	a, err = s.Store.AnswerApproval(r.Context(), id, ans, now)
	if errors.Is(err, store.ErrAnswered) {
		jsonError(w, http.StatusConflict, fmt.Sprintf("approval %s is %s", id, a.State))
		return
	}
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if s.Record != nil {
		s.Record(ApprovalEvent(a, now))
	}
	writeJSON(w, http.StatusOK, approvalJSON(a))
}

// ApprovalAskedEvent is the audit event of an approval put to a person:
// a decision of the surface "approval ID", still a prompt.
func ApprovalAskedEvent(a store.Approval) audit.Event {
	reason := "asked: waiting for a person until " + a.Expires.UTC().Format(time.RFC3339)
	if len(a.Request.Preview) > 0 {
		reason += "; " + strings.Join(a.Request.Preview, "; ")
	}
	return audit.DecisionEvent(a.Created, &audit.Decision{Surface: "approval " + a.ID, Agent: a.Request.Agent, Session: a.Request.Session,
		Project: a.Request.Project, Tool: a.Request.Tool, Subject: a.Request.Subject, Classes: a.Request.Classes,
		Verdict: "prompt", Answered: "prompt", Rule: a.Request.Rule, Reason: reason})
}

// ApprovalEvent is the audit event of an approval answered (or expired):
// a decision of the surface "approval", answered as the person did.
func ApprovalEvent(a store.Approval, now time.Time) audit.Event {
	v := map[string]string{store.Allowed: "allow", store.Remembered: "allow"}[a.State]
	if v == "" {
		v = "deny"
	}
	reason := a.Request.Reason
	if a.Answer != nil {
		reason = "answered " + a.Answer.Answer
		if a.Answer.Reason != "" {
			reason += ": " + a.Answer.Reason
		}
		if a.Answer.Rule != "" {
			reason += "; remembered: " + a.Answer.Rule
		}
	} else if a.State == store.Expired {
		reason = "nobody answered before " + a.Expires.UTC().Format(time.RFC3339) + ": a deny"
	}
	return audit.DecisionEvent(now, &audit.Decision{Surface: "approval " + a.ID, Agent: a.Request.Agent, Session: a.Request.Session,
		Project: a.Request.Project, Tool: a.Request.Tool, Subject: a.Request.Subject, Classes: a.Request.Classes,
		Verdict: "prompt", Answered: v, Rule: a.Request.Rule, Reason: reason})
}

func (s *Server) audit(w http.ResponseWriter, r *http.Request) {
	q, err := store.ParseQuery(r.URL.Query().Get, s.now())
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	q.Raw = true
	w.Header().Set("Content-Type", "application/x-ndjson")
	bw := bufio.NewWriter(w)
	var line []byte
	err = s.Store.Events(r.Context(), q, func(rec store.Record) error {
		line = append(rec.AppendJSON(line[:0]), '\n')
		_, err := bw.Write(line)
		return err
	})
	if err != nil {
		return // the status is sent; the stream ends short
	}
	bw.Flush()
}

// events streams each new event as a server-sent event, from the chain's
// end when the stream starts.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		jsonError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	// From the chain's end: the highest number, which is not always the
	// latest time (a run's attempts carry their own).
	last, err := s.Store.Last(r.Context())
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	poll := s.Poll
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
		err := s.Store.After(r.Context(), last, func(rec store.Record) error {
			last = rec.Seq
			_, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", rec.Seq, rec.AppendJSON(nil))
			return err
		})
		if err != nil {
			return
		}
		fl.Flush()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// ListenUnix listens on the socket at path, mode 0600, replacing a stale
// socket, and serves h there to peers of this process's uid or root only.
func ListenUnix(ctx context.Context, path string, h http.Handler) (*http.Server, net.Listener, error) {
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return nil, nil, fmt.Errorf("%s: a warden serve is already running there", path)
	}
	ln, err := unixsock.Listen("unix", path)
	if err != nil {
		return nil, nil, err
	}
	me := unix.Getuid()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			uc, ok := c.(*net.UnixConn)
			if !ok {
				return ctx
			}
			uid, ok := unixsock.PeerUID(uc)
			if !ok || (uid != me && uid != 0) {
				return ctx // served as a stranger: the token is asked
			}
			return context.WithValue(ctx, peerKey, peer{unix: true, uid: uid})
		},
	}
	return srv, ln, nil
}

// ListenLoopback listens on addr, which must be a loopback address; every
// request there needs the token.
func ListenLoopback(ctx context.Context, addr string, h http.Handler) (*http.Server, net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, nil, fmt.Errorf("--listen %s: only a loopback address (127.0.0.1:PORT, [::1]:PORT)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	return srv, ln, nil
}
