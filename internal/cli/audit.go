// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/ocsf"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/store"
)

const (
	auditSynopsis       = "audit [--since D] [--until T] [--kind K] [--verdict V] [--agent ID] [--limit N] [--json]"
	auditExportSynopsis = "audit export --ocsf [--since D] [--until T]"
	auditVerifySynopsis = "audit verify"
)

// auditSubcommands are warden audit's subcommands, listed by its help.
var auditSubcommands = [][2]string{
	{"export", "write the events as OCSF 1.1.0 JSON lines: export --ocsf [--since D] [--until T]"},
	{"verify", "walk the hash chain and compare its end with the head kept beside the store"},
}

func runAudit(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "export":
			return auditExport(ctx, args[1:])
		case "verify":
			return auditVerify(ctx, args[1:])
		}
	}
	fs := newFlags("audit", auditSynopsis)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(Stderr, "\nSubcommands:")
		for _, s := range auditSubcommands {
			fmt.Fprintf(Stderr, "  %-12s %s\n", s[0], s[1])
		}
	}
	q, asJSON := auditQueryFlags(fs, true)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("unknown audit subcommand %q", pos[0]), "warden audit lists events; warden audit export --ocsf and warden audit verify are its subcommands")
	}
	query, err := q()
	if err != nil {
		return err
	}
	return withAuditStore(ctx, func(s *store.SQLite) error { return auditList(ctx, s, query, *asJSON) })
}

// auditList writes the events query selects: a table, or JSON lines.
func auditList(ctx context.Context, s *store.SQLite, query store.Query, asJSON bool) error {
	out := bufio.NewWriterSize(Stdout, 64<<10)
	if asJSON {
		// The events as stored, each with its number and hash first.
		query.Raw = true
		var line []byte
		err := s.Events(ctx, query, func(r store.Record) error {
			line = append(r.AppendJSON(line[:0]), '\n')
			_, err := out.Write(line)
			return err
		})
		if err != nil {
			return storeError(err)
		}
		return out.Flush()
	}
	var rs []store.Record
	if err := s.Events(ctx, query, func(r store.Record) error {
		rs = append(rs, r)
		return nil
	}); err != nil {
		return storeError(err)
	}
	if err := report.AuditTable(out, rs); err != nil {
		return err
	}
	return out.Flush()
}

// auditQueryFlags defines the flags that select events (all of them, or
// only the time bounds), and returns a function building the query once
// they are parsed.
func auditQueryFlags(fs *flag.FlagSet, all bool) (func() (store.Query, error), *bool) {
	vals := map[string]*string{
		"since": fs.String("since", "", "only events since `D`: a duration back from now (30m, 24h, 7d) or a time (2026-12-06, RFC 3339)"),
		"until": fs.String("until", "", "only events before `T`: a duration back from now or a time, as --since"),
	}
	asJSON := new(bool)
	if all {
		vals["kind"] = fs.String("kind", "", "only events of kind `K`: "+strings.Join(store.Kinds, ", "))
		vals["verdict"] = fs.String("verdict", "", "only events with verdict `V` (as answered): allow, prompt or deny")
		vals["agent"] = fs.String("agent", "", "only the decisions and runs of agent `ID` (claude-code, codex, gemini)")
		vals["limit"] = fs.String("limit", "", "only the last `N` events selected")
		asJSON = fs.Bool("json", false, "print JSON lines: each event with its number (seq) and chain hash")
	}
	return func() (store.Query, error) {
		q, err := store.ParseQuery(func(k string) string {
			if v, ok := vals[k]; ok {
				return *v
			}
			return ""
		}, time.Now())
		if err != nil {
			return q, badInput("--" + err.Error())
		}
		return q, nil
	}, asJSON
}

func auditExport(ctx context.Context, args []string) error {
	fs := newFlags("audit export", auditExportSynopsis)
	asOCSF := fs.Bool("ocsf", false, "write OCSF 1.1.0 JSON lines (the one format there is; required)")
	q, _ := auditQueryFlags(fs, false)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("audit export takes no arguments, got %q", pos[0]))
	}
	if !*asOCSF {
		return badInput("audit export needs --ocsf", "warden audit export --ocsf --since 24h > events.ocsf.jsonl")
	}
	query, err := q()
	if err != nil {
		return err
	}
	return withAuditStore(ctx, func(s *store.SQLite) error { return auditOCSF(ctx, s, query) })
}

// auditOCSF writes the events query selects as OCSF JSON lines.
func auditOCSF(ctx context.Context, s *store.SQLite, query store.Query) error {
	out := bufio.NewWriterSize(Stdout, 64<<10)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	version := readBuildInfo().Version
	if err := s.Events(ctx, query, func(r store.Record) error {
		return enc.Encode(ocsf.FromEvent(r.Event, strconv.FormatInt(r.Seq, 10), version))
	}); err != nil {
		return storeError(err)
	}
	return out.Flush()
}

func auditVerify(ctx context.Context, args []string) error {
	fs := newFlags("audit verify", auditVerifySynopsis)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput(fmt.Sprintf("audit verify takes no arguments, got %q", pos[0]))
	}
	s, err := openAuditStore(ctx)
	if errors.Is(err, store.ErrNoStore) {
		fmt.Fprintln(Stdout, "no store yet: nothing was recorded")
		return nil
	}
	if err != nil {
		return err
	}
	defer s.Close()
	v, err := s.Verify(ctx)
	if err != nil {
		return storeError(err)
	}
	if !v.OK() {
		errorWithHint(fmt.Sprintf("the audit chain of %s does not hold: %s", s.Path(), v.Problem),
			fmt.Sprintf("%d events before it verified; the store was changed outside Warden", v.Events))
		return &exitError{code: exitFindings}
	}
	fmt.Fprintf(Stdout, "%d events, chain whole, head %d %s\n", v.Events, v.HeadSeq, v.HeadHash)
	return nil
}

// withAuditStore calls f with the state directory's store, opened for
// reading; a state directory without one has nothing to show.
func withAuditStore(ctx context.Context, f func(*store.SQLite) error) error {
	s, err := openAuditStore(ctx)
	if errors.Is(err, store.ErrNoStore) {
		return nil
	}
	if err != nil {
		return err
	}
	defer s.Close()
	return f(s)
}

// openAuditStore opens the store of the state directory for reading.
func openAuditStore(ctx context.Context) (*store.SQLite, error) {
	s, err := store.OpenExisting(ctx, contain.StateDir())
	if err != nil && !errors.Is(err, store.ErrNoStore) {
		return nil, storeError(err)
	}
	return s, err
}

// storeError is a store's error as the CLI reports it: exit 2 with its
// hint.
func storeError(err error) error {
	var se *store.Error
	if errors.As(err, &se) {
		var hints []string
		if se.Hint != "" {
			hints = append(hints, se.Hint)
		}
		return badInput(se.Error(), hints...)
	}
	if err != nil {
		return badInput(err.Error())
	}
	return nil
}
