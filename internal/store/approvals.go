// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The states of an approval. An approval past its expiry that nobody
// answered reads as expired, which is a deny.
const (
	Pending    = "pending"
	Allowed    = "allowed"
	Denied     = "denied"
	Remembered = "remembered"
	Expired    = "expired"
)

// Approval is a question a decision could not put to a person itself (a
// headless hook, a client with no way to ask) and left for one to answer
// through warden serve.
type Approval struct {
	ID      string
	Created time.Time
	Expires time.Time
	State   string
	Request ApprovalRequest
	Answer  *ApprovalAnswer
}

// ApprovalRequest is what is asked: the action as understood, the rule
// that asked, and a preview of its effect computed outside the agent.
type ApprovalRequest struct {
	Surface string   `json:"surface"`
	Agent   string   `json:"agent,omitempty"`
	Session string   `json:"session,omitempty"`
	Project string   `json:"project,omitempty"`
	Tool    string   `json:"tool"`
	Subject string   `json:"subject"`
	Classes []string `json:"classes,omitempty"`
	Rule    string   `json:"rule,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	// Preview says what the action would do, line by line.
	Preview []string `json:"preview,omitempty"`
	// Action is the action's request (request.Request's JSON), which
	// "remember" turns into a rule.
	Action json.RawMessage `json:"action,omitempty"`
	// Policy is the policy file the decision was taken with, where a
	// remembered rule goes unless that is a project's.
	Policy string `json:"policy,omitempty"`
}

// ApprovalAnswer is a person's answer.
type ApprovalAnswer struct {
	Answer string    `json:"answer"` // allow, deny, remember
	Reason string    `json:"reason,omitempty"`
	Scope  string    `json:"scope,omitempty"`
	TTL    string    `json:"ttl,omitempty"`
	Rule   string    `json:"rule,omitempty"` // the rule remember wrote
	Time   time.Time `json:"time"`
}

// ErrNoApproval is an approval id the store does not have.
var ErrNoApproval = errors.New("no such approval")

// ErrAnswered is an approval that is no longer pending (answered or
// expired).
var ErrAnswered = errors.New("the approval is no longer pending")

// NewApprovalID is a fresh approval id: 12 hex digits.
func NewApprovalID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CreateApproval stores a pending approval.
func (s *SQLite) CreateApproval(ctx context.Context, a Approval) error {
	req, err := json.Marshal(a.Request)
	if err != nil {
		return err
	}
	unlock, err := s.exclusive()
	if err != nil {
		return err
	}
	defer unlock()
	_, err = s.db.ExecContext(ctx, `INSERT INTO approvals (id, created, expires, state, request) VALUES (?, ?, ?, ?, ?)`,
		a.ID, a.Created.UnixNano(), a.Expires.UnixNano(), Pending, string(req))
	if err != nil {
		return s.fail("create an approval", err)
	}
	return nil
}

// Approval returns one approval, expired if nobody answered it in time.
func (s *SQLite) Approval(ctx context.Context, id string, now time.Time) (Approval, error) {
	row := s.db.QueryRowContext(ctx, `SELECT id, created, expires, state, request, answer FROM approvals WHERE id = ?`, id)
	a, err := scanApproval(row.Scan, now)
	if errors.Is(err, sql.ErrNoRows) {
		return a, ErrNoApproval
	}
	if err != nil {
		return a, s.fail("read an approval", err)
	}
	return a, nil
}

// Approvals lists the approvals, the pending ones only if pending, the
// newest last.
func (s *SQLite) Approvals(ctx context.Context, pending bool, now time.Time) ([]Approval, error) {
	q := `SELECT id, created, expires, state, request, answer FROM approvals`
	var args []any
	if pending {
		q += ` WHERE state = ? AND expires > ?`
		args = append(args, Pending, now.UnixNano())
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY created`, args...)
	if err != nil {
		return nil, s.fail("list approvals", err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		a, err := scanApproval(rows.Scan, now)
		if err != nil {
			return nil, s.fail("read an approval", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AnswerApproval records a person's answer to a pending approval; the
// state it takes is Allowed, Denied or Remembered. An approval answered
// or expired before is ErrAnswered, and keeps its state.
func (s *SQLite) AnswerApproval(ctx context.Context, id string, ans ApprovalAnswer, now time.Time) (Approval, error) {
	state := map[string]string{"allow": Allowed, "deny": Denied, "remember": Remembered}[ans.Answer]
	if state == "" {
		return Approval{}, fmt.Errorf("answer %q: want allow, deny or remember", ans.Answer)
	}
	ans.Time = now
	b, err := json.Marshal(ans)
	if err != nil {
		return Approval{}, err
	}
	unlock, err := s.exclusive()
	if err != nil {
		return Approval{}, err
	}
	defer unlock()
	res, err := s.db.ExecContext(ctx, `UPDATE approvals SET state = ?, answer = ?, answered = ? WHERE id = ? AND state = ? AND expires > ?`,
		state, string(b), now.UnixNano(), id, Pending, now.UnixNano())
	if err != nil {
		return Approval{}, s.fail("answer an approval", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		a, err := s.Approval(ctx, id, now)
		if err != nil {
			return a, err
		}
		return a, ErrAnswered
	}
	return s.Approval(ctx, id, now)
}

func scanApproval(scan func(...any) error, now time.Time) (Approval, error) {
	var a Approval
	var created, expires int64
	var req, ans string
	if err := scan(&a.ID, &created, &expires, &a.State, &req, &ans); err != nil {
		return a, err
	}
	a.Created, a.Expires = time.Unix(0, created), time.Unix(0, expires)
	if err := json.Unmarshal([]byte(req), &a.Request); err != nil {
		return a, err
	}
	if ans != "" {
		a.Answer = &ApprovalAnswer{}
		if err := json.Unmarshal([]byte(ans), a.Answer); err != nil {
			return a, err
		}
	}
	if a.State == Pending && !now.Before(a.Expires) {
		a.State = Expired
	}
	return a, nil
}

// ExpireApproval ends a pending approval nobody waits for any more: it
// reads as expired from now on.
func (s *SQLite) ExpireApproval(ctx context.Context, id string, now time.Time) error {
	unlock, err := s.exclusive()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.db.ExecContext(ctx, `UPDATE approvals SET expires = ? WHERE id = ? AND state = ? AND expires > ?`,
		now.UnixNano(), id, Pending, now.UnixNano()); err != nil {
		return s.fail("expire an approval", err)
	}
	return nil
}

// Revision is one version of a policy file Warden wrote (a remembered
// approval's rule), kept with why.
type Revision struct {
	Time    time.Time
	Path    string
	SHA256  string
	Content []byte
	Why     string
}

// AddRevision keeps a version of a policy file Warden wrote.
func (s *SQLite) AddRevision(ctx context.Context, r Revision) error {
	sum := sha256.Sum256(r.Content)
	unlock, err := s.exclusive()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO revisions (time, path, sha256, content, why) VALUES (?, ?, ?, ?, ?)`,
		r.Time.UnixNano(), r.Path, hex.EncodeToString(sum[:]), string(r.Content), r.Why); err != nil {
		return s.fail("keep a revision", err)
	}
	return nil
}

// Revisions lists the versions kept of the policy file at path, oldest
// first.
func (s *SQLite) Revisions(ctx context.Context, path string) ([]Revision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT time, path, sha256, content, why FROM revisions WHERE path = ? ORDER BY id`, path)
	if err != nil {
		return nil, s.fail("list revisions", err)
	}
	defer rows.Close()
	var out []Revision
	for rows.Next() {
		var r Revision
		var nanos int64
		var content string
		if err := rows.Scan(&nanos, &r.Path, &r.SHA256, &content, &r.Why); err != nil {
			return nil, s.fail("read a revision", err)
		}
		r.Time, r.Content = time.Unix(0, nanos), []byte(content)
		out = append(out, r)
	}
	return out, rows.Err()
}
