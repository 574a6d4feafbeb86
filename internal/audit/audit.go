// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package audit is Warden's record of what happened: one versioned
// [Event] for every kind of thing Warden decides or observes — a
// decision, a run's execution record, a network attempt, a refused
// system call, an MCP call — and the [Sink] every recorder writes
// through.
//
// # The record
//
// An event is one flat JSON object: "schema" ([Schema]), "kind" and
// "time", then the fields of its kind's body ([Decision], [Run],
// [NetworkAttempt], [Syscall], [MCPCall]). The execution record that
// `warden run --audit-json FILE` writes is a run event, so its fields
// are those of docs/spec.md §7 at the top level, as readers expect; the
// lines of `warden mcp --audit-json FILE` are MCP events. A reader takes
// a record of [Schema] or earlier (0: written before the field existed)
// and refuses a later one ([ErrSchema]): fields may be added within a
// version, never renamed or given another meaning.
//
// # Sinks
//
// A [Sink] writes events synchronously and returns an error when one was
// not recorded: it never drops an event silently. What the caller does
// with the error is its own policy — the control plane denies an action
// it cannot record; `warden run` fails a run whose record is lost — so a
// sink must not retry, buffer or swallow. [JSONL] appends one line an
// event to a writer; [File] replaces one file with each event, atomically
// and never through a link. A store is one more sink.
//
// This package is a leaf: it imports no other Warden package but jsonw,
// its encoder, which imports none, so every package that produces a
// record (sandbox, proxy, the adapters) can speak its types.
package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"warden.dev/warden/internal/jsonw"
)

// Schema is the version of the record's shape written by this Warden.
const Schema = 1

// ErrSchema is returned by [Event.UnmarshalJSON] and [ReadRun] for a
// record of a later schema than [Schema].
var ErrSchema = errors.New("audit: a record of a later schema")

// Kind names what an event records.
type Kind string

// The kinds of event.
const (
	// KindDecision: a policy decision of a hook, the MCP gateway or
	// warden explain ([Decision]).
	KindDecision Kind = "decision"
	// KindRun: the execution record of one warden run ([Run]).
	KindRun Kind = "run"
	// KindNetwork: one destination a run tried, through the proxy or
	// the DNS stub ([NetworkAttempt]).
	KindNetwork Kind = "network"
	// KindSyscall: a system call the seccomp filter refused ([Syscall]).
	KindSyscall Kind = "syscall"
	// KindMCP: one tools/call through the MCP gateway ([MCPCall]).
	KindMCP Kind = "mcp"
)

// Event is one record. Exactly one body is set, the one Kind names; the
// constructors ([DecisionEvent], [RunEvent]…) set Schema, Kind and the
// body together.
type Event struct {
	// Schema is the record's version ([Schema] when written here).
	Schema int
	Kind   Kind
	// Time is when the event happened (a run: when its record was
	// closed; a network attempt carries its own time).
	Time time.Time

	Decision *Decision
	Run      *Run
	Network  *NetworkAttempt
	Syscall  *Syscall
	MCP      *MCPCall
}

// DecisionEvent is the event of a decision taken at t.
func DecisionEvent(t time.Time, d *Decision) Event {
	return Event{Schema: Schema, Kind: KindDecision, Time: t, Decision: d}
}

// RunEvent is the event of a run's execution record, closed at t.
func RunEvent(t time.Time, r *Run) Event {
	return Event{Schema: Schema, Kind: KindRun, Time: t, Run: r}
}

// NetworkEvent is the event of one network attempt, at its own time.
func NetworkEvent(a *NetworkAttempt) Event {
	return Event{Schema: Schema, Kind: KindNetwork, Time: a.Time, Network: a}
}

// SyscallEvent is the event of a refused system call seen at t.
func SyscallEvent(t time.Time, s *Syscall) Event {
	return Event{Schema: Schema, Kind: KindSyscall, Time: t, Syscall: s}
}

// MCPEvent is the event of one MCP tools/call, recorded at t.
func MCPEvent(t time.Time, c *MCPCall) Event {
	return Event{Schema: Schema, Kind: KindMCP, Time: t, MCP: c}
}

// body returns the event's body, and whether the body carries its own
// "time" (then the header does not repeat it).
func (e *Event) body() (b any, own bool, err error) {
	missing := false
	switch e.Kind {
	case KindDecision:
		b, missing = e.Decision, e.Decision == nil
	case KindRun:
		b, missing = e.Run, e.Run == nil
	case KindNetwork:
		b, missing, own = e.Network, e.Network == nil, true
	case KindSyscall:
		b, missing = e.Syscall, e.Syscall == nil
	case KindMCP:
		b, missing = e.MCP, e.MCP == nil
	default:
		return nil, false, fmt.Errorf("audit: unknown kind %q", e.Kind)
	}
	if missing {
		return nil, false, fmt.Errorf("audit: a %s event without its body", e.Kind)
	}
	return b, own, nil
}

// newBody gives e an empty body of its kind and returns it.
func (e *Event) newBody() (any, error) {
	switch e.Kind {
	case KindDecision:
		e.Decision = &Decision{}
		return e.Decision, nil
	case KindRun:
		e.Run = &Run{}
		return e.Run, nil
	case KindNetwork:
		e.Network = &NetworkAttempt{}
		return e.Network, nil
	case KindSyscall:
		e.Syscall = &Syscall{}
		return e.Syscall, nil
	case KindMCP:
		e.MCP = &MCPCall{}
		return e.MCP, nil
	}
	return nil, fmt.Errorf("audit: unknown kind %q", e.Kind)
}

// MarshalJSON writes the event as one flat object: the header, then the
// body's fields.
func (e Event) MarshalJSON() ([]byte, error) {
	body, own, err := e.body()
	if err != nil {
		return nil, err
	}
	w := jsonw.NewWriter(make([]byte, 0, 1024))
	w.Open()
	w.Int("schema", int64(e.Schema))
	w.Str("kind", string(e.Kind))
	if !own {
		w.Time("time", e.Time)
	}
	if !appendFields(w, body) {
		if err := marshalReflect(w, e.Kind, body); err != nil {
			return nil, err
		}
	}
	w.Close()
	return w.Bytes()
}

// UnmarshalJSON reads the flat form [Event.MarshalJSON] writes. A record
// without a schema is of schema 0; a later one than [Schema] is refused
// with [ErrSchema].
func (e *Event) UnmarshalJSON(data []byte) error {
	var h struct {
		Schema int       `json:"schema"`
		Kind   Kind      `json:"kind"`
		Time   time.Time `json:"time"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return err
	}
	if h.Schema > Schema {
		return fmt.Errorf("%w: schema %d, this Warden reads up to %d", ErrSchema, h.Schema, Schema)
	}
	ev := Event{Schema: h.Schema, Kind: h.Kind, Time: h.Time}
	b, err := ev.newBody()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, b); err != nil {
		return err
	}
	*e = ev
	return nil
}

// marshal is json.Marshal without HTML escaping: records hold commands
// and URLs, which people read.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Sink records events. Write is synchronous: when it returns nil the
// event is recorded as far as the sink can tell (written, synced where
// the sink promises it); any other outcome is an error, never a silent
// drop. A Sink is safe for concurrent use unless its doc says otherwise.
type Sink interface {
	Write(Event) error
}

// Decision is one policy decision, as a surface (a hook, the MCP
// gateway, warden explain) took it.
type Decision struct {
	// Surface is what asked: "hook claude-code", "mcp", "explain".
	Surface string `json:"surface"`
	// Agent, Session and Project say whose call it was.
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
	Project string `json:"project,omitempty"`
	// Tool is the agent's own name of the tool; Subject what the call is
	// about (the command, the path, the URL), as the model gave it.
	Tool    string `json:"tool"`
	Subject string `json:"subject,omitempty"`
	// Classes are the action's classes as the engine understood them.
	Classes []string `json:"classes,omitempty"`
	// Verdict is the engine's (allow, prompt, deny); Answered what the
	// surface answered after mapping a prompt nobody can answer to deny.
	Verdict  string `json:"verdict"`
	Answered string `json:"answered"`
	// Rule, Scope and Reason are the deciding rule's.
	Rule   string `json:"rule,omitempty"`
	Scope  string `json:"scope,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Contained says the action runs under warden run (--wrap).
	Contained bool `json:"contained,omitempty"`
	// Policy is the revision of the policy decided with ("sha256:…",
	// or "default"), PolicyPath its file ("" for the embedded default).
	Policy     string `json:"policy,omitempty"`
	PolicyPath string `json:"policy_path,omitempty"`
}

// MCPCall is one tools/call through the MCP gateway: what was decided and
// what became of it.
type MCPCall struct {
	// Server is the server's name in tool names mcp:SERVER/TOOL.
	Server string `json:"server"`
	// ID is the JSON-RPC id of the call, as the client sent it.
	ID       json.RawMessage `json:"id"`
	Tool     string          `json:"tool"`
	Decision string          `json:"decision"`
	Rule     string          `json:"rule,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	// Asked is true when the user was asked (a prompt) and approved, or
	// declined, the call.
	Asked bool `json:"asked,omitempty"`
	// Status is what became of the call: "refused" (answered by Warden,
	// never forwarded), "declined" or "unanswered" (asked, and not
	// approved), "ok", "tool error" (the server's result had isError),
	// "error CODE" (a JSON-RPC error), "no response".
	Status string `json:"status"`
}

// QuoteIfOdd is s as it may be written to a person's terminal: as it is
// when it is valid UTF-8 and printable, else quoted with Go's escapes.
// A record's paths, hosts and command names are the sandboxed command's
// to choose; written raw, one holding control sequences (or a byte that
// is not UTF-8: 0x9b is a terminal's CSI in its 8-bit form) would clear
// the screen, retitle the window or set the clipboard.
func QuoteIfOdd(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
