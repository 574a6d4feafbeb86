// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/request"
)

// Agent is one agent CLI whose hooks Warden answers. Its package
// implements it, without I/O, and registers it ([Register]); package hook
// runs the one pipeline around every agent — parse, translate, decide,
// answer, note, record — and `warden hook NAME` dispatches to it. What
// differs between agents is here, as named methods, never as a copy of
// the pipeline.
type Agent interface {
	// Name is the agent's name on the command line (warden hook NAME)
	// and its principal's agent id: "claude-code".
	Name() string
	// Title names the agent in messages: "Claude Code".
	Title() string
	// Parse reads one hook payload: the event and what the call is,
	// before translation. It rejects what it cannot read in full (the
	// caller refuses the call).
	Parse(payload []byte) (*Call, error)
	// Translate turns the parsed call into Warden's terms: its requests,
	// subject and the facts the pipeline acts on. It fails when the tool
	// input lacks what the tool needs or has it with the wrong type.
	Translate(c *Call, opt Options) error
	// Unanswered is the sentence a note adds when a prompt became a deny
	// because nobody could answer it in this call.
	Unanswered(c *Call, headless bool) string
	// Rewrite is the tool input an answer carries to run the call's shell
	// command as command instead (--wrap).
	Rewrite(c *Call, command string) (json.RawMessage, error)
	// Answer renders the answer in the agent's format: always one JSON
	// object.
	Answer(c *Call, a Answer) []byte
	// Hooks says what `warden hook install NAME` writes.
	Hooks() Hooks
	// Honesty is the agent's row of the honesty matrix.
	Honesty() Honesty
}

// Phase is where a hook event stands to the tool call.
type Phase int

// The phases of a call.
const (
	// Before: the call is about to run. It is decided, and an allowed
	// shell command may be rewritten to run under warden run (--wrap).
	Before Phase = iota
	// Permission: the agent is about to ask the person. It is decided;
	// only a deny decides the question.
	Permission
	// After: the call ran. Nothing is decided; a wrapped command's
	// execution record tells the model what the sandbox refused.
	After
)

var phaseNames = []string{"before", "permission", "after"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Call is one tool call of any agent, in Warden's terms. Parse fills the
// first block; Translate the rest.
type Call struct {
	// Event is the agent's name of the hook event; Phase what it is.
	Event string `json:"event"`
	Phase Phase  `json:"phase"`
	// Tool is the agent's own name of the tool (Bash, apply_patch,
	// run_shell_command…).
	Tool string `json:"tool"`
	// Session and Cwd are the agent's session and working directory
	// (absolute).
	Session string `json:"session,omitempty"`
	Cwd     string `json:"cwd"`
	// ID is the call's id (tool_use_id), which names a wrapped run's
	// execution record; empty when the agent sends none at this event.
	ID string `json:"id,omitempty"`
	// Payload is the agent's own parsed payload, for its methods.
	Payload any `json:"-"`

	// Requests are the actions the engine decides; the strictest
	// decision is the call's (a patch that writes some files and
	// deletes others is two).
	Requests []request.Request `json:"requests"`
	// Subject is what the call is about, as notes name it.
	Subject Subject `json:"subject"`
	// Shell is true for a shell command, the one kind --wrap rewrites;
	// Dir is the directory it runs in.
	Shell bool   `json:"shell,omitempty"`
	Dir   string `json:"dir,omitempty"`
	// Asks is true when a Warden prompt can reach a person through this
	// call, unless the session is headless: the agent has an ask here,
	// and its own mode does not deny what it would ask.
	Asks bool `json:"asks,omitempty"`
	// Wrapped is true when the shell command was already rewritten by
	// [Wrapper.Wrap] (a later event sees the rewritten input): the
	// requests hold the inner command, contained, and Audit is the
	// execution record's path (empty when the run keeps none).
	Wrapped bool   `json:"wrapped,omitempty"`
	Audit   string `json:"audit,omitempty"`
}

// Options say how a payload becomes a call.
type Options struct {
	// Project is the project the caller found from the payload's cwd
	// ([gitindex.Project]); empty means there is none, and every write
	// is outside.
	Project string
	// Wrap, when set (--wrap), runs allowed shell commands under warden
	// run: they are then decided as contained.
	Wrap *Wrapper
}

// Base is the request every action of c starts from: its directory,
// project and principal.
func (c *Call) Base(agent string, opt Options) request.Request {
	return request.Request{
		Cwd:       c.Cwd,
		Project:   opt.Project,
		NoProject: opt.Project == "",
		Principal: request.Principal{Agent: agent, Session: c.Session},
	}
}

// Unwrap recognises a shell command that --wrap already rewrote and
// sets the request to judge its inner command, contained, in the
// directory its cd names (a line the agent wrote in that form itself
// runs there, whatever the payload's cwd says). Every shell command of a
// session with --wrap is decided as contained: whatever runs, runs
// wrapped.
func (c *Call) Unwrap(r *request.Request, opt Options) {
	if opt.Wrap == nil {
		return
	}
	r.Contained = true
	if u, ok := opt.Wrap.Unwrap(r.Command); ok {
		r.Command, c.Wrapped, c.Audit = u.Command, true, u.Audit
		if u.Dir != "" {
			// A relative cd is taken where the line runs.
			dir := u.Dir
			if !path.IsAbs(dir) {
				base := r.Cwd
				if base == "" {
					base = c.Cwd
				}
				dir = path.Join(base, dir)
			}
			r.Cwd, c.Dir = dir, dir
		}
	}
}

// Validate checks every request of the call; an error names the call's
// tool.
func (c *Call) Validate() error {
	for i := range c.Requests {
		if err := c.Requests[i].Validate(); err != nil {
			return fmt.Errorf("%s tool_input: %v", c.Tool, err)
		}
	}
	return nil
}

// Answer is what the pipeline tells an agent about one call.
type Answer struct {
	// Verdict is Warden's, after [Verdict]: a prompt nobody can answer is
	// already a deny here.
	Verdict action.Verdict
	// Reason is the text the agent shows: to the model for a deny, to
	// the person for an ask.
	Reason string
	// Input replaces the tool input (--wrap): set only when the call may
	// run, so that whatever runs, runs wrapped.
	Input json.RawMessage
	// Context is an after-call note for the model.
	Context string
}

// Hooks is what `warden hook install` writes for one agent: its
// settings files, the events the hook answers and the handler's shape.
type Hooks struct {
	// UserFile is the user-level settings file, relative to the home
	// (".claude/settings.json"). When UserDirEnv names a variable that is
	// set, the file is there instead, with UserFile's last component.
	UserFile   string
	UserDirEnv string
	// ProjectFile is the project-level one, relative to the project.
	ProjectFile string
	// Events are the hook events the installed hook answers.
	Events []HookEvent
	// Handler is the JSON of one hook handler running command.
	Handler func(command string, ev HookEvent) any
	// Hints are printed after the changes.
	Hints []string
}

// HookEvent is one event the installed hook answers, with its matcher and
// timeout (in the agent's unit).
type HookEvent struct {
	Event, Matcher string
	Timeout        int
	Unit           string
	// Phase is what the event is: an agent with an After event reads a
	// wrapped run's execution record back, so only its runs keep one.
	Phase Phase
}

// CommandHandler is the handler shape of Claude Code and Codex:
// {"type":"command","command":…,"timeout":seconds}.
func CommandHandler(command string, ev HookEvent) any {
	return struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}{"command", command, ev.Timeout}
}

// registry holds the agents and the honesty rows, in the order they
// register.
var registry []entry

type entry struct {
	agent Agent // nil for a surface that is not a hook's agent
	row   Honesty
}

// Register adds an agent and its honesty row; agent packages call it
// from an init function.
func Register(a Agent) { registry = append(registry, entry{a, a.Honesty()}) }

// RegisterRow adds the honesty row of a surface that answers no agent's
// hook (the MCP gateway).
func RegisterRow(h Honesty) { registry = append(registry, entry{nil, h}) }

// Agents returns every registered agent.
func Agents() []Agent {
	var out []Agent
	for _, e := range registry {
		if e.agent != nil {
			out = append(out, e.agent)
		}
	}
	return out
}

// Lookup returns the agent named name.
func Lookup(name string) (Agent, bool) {
	i := slices.IndexFunc(registry, func(e entry) bool { return e.agent != nil && e.agent.Name() == name })
	if i < 0 {
		return nil, false
	}
	return registry[i].agent, true
}

// Matrix returns every registered row.
func Matrix() []Honesty {
	out := make([]Honesty, len(registry))
	for i, e := range registry {
		out[i] = e.row
	}
	return out
}
