// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/audit"
)

// ParseQuery reads an audit selection from get (URL query values or
// flags): since, until (a duration back from now, a date or a time),
// kind, verdict, agent, limit.
func ParseQuery(get func(string) string, now time.Time) (Query, error) {
	var q Query
	var err error
	if q.Since, err = ParseWhen(get("since"), now); err != nil {
		return q, fmt.Errorf("since: %v", err)
	}
	if q.Until, err = ParseWhen(get("until"), now); err != nil {
		return q, fmt.Errorf("until: %v", err)
	}
	if k := get("kind"); k != "" {
		if !validKind(k) {
			return q, fmt.Errorf("kind %q: want one of %s", k, strings.Join(Kinds, ", "))
		}
		q.Kinds = []audit.Kind{audit.Kind(k)}
	}
	switch v := get("verdict"); v {
	case "", "allow", "prompt", "deny":
		q.Verdict = v
	default:
		return q, fmt.Errorf("verdict %q: want allow, prompt or deny", v)
	}
	q.Agent = get("agent")
	if l := get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			return q, fmt.Errorf("limit %q: want a positive number", l)
		}
		q.Limit = n
	}
	return q, nil
}

// Kinds are the kinds an audit selection takes. Approvals are recorded as
// decisions of the surface "approval ID", and selected as kind approval;
// alerts are not recorded yet.
var Kinds = []string{"decision", "run", "network", "syscall", "mcp", "approval", "alert"}

func validKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// ParseWhen reads a duration back from now (Nd for days), a date or an
// RFC 3339 time; "" is the zero time.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (30m, 24h, 7d) nor a time (2026-12-06, 2026-12-06T15:04:05Z)", s)
}
