// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package adapter holds what every adapter between an agent and Warden's
// engine shares: the [Agent] interface each agent CLI's package
// implements, the common [Call] its payloads become and the [Answer] it
// renders, the registry of agents and honesty rows ([Register],
// [Agents], [Matrix]), the notes that tell the agent what was blocked and
// what to do instead ([Note], [Repeat], [Held], [SandboxNote]), the
// --wrap rewriting of shell commands to run under `warden run`
// ([Wrapper]), and the reading of JSON by exact keys, as the agents read
// it ([Unmarshal], [CheckKeys]).
//
// # Honesty
//
// Each adapter (a hook of an agent CLI, the MCP gateway) declares, as
// data, what Warden filters, intercepts, sees and sandboxes through it,
// and `warden doctor` prints every declaration. The one unforgivable
// failure is to claim coverage that does not exist: a declaration says
// "no" unless a test proves "yes".
//
// # Adding an agent
//
// Adapters live in packages of their own below this one (claudecode,
// codex, gemini, mcp). An agent CLI's package implements [Agent] —
// parse, translate, answer, the events its hook installs — with no I/O,
// and registers it from an init function; package hook runs the one
// pipeline around every agent and lists the agent packages in one file
// (hook/agents.go). Adding an agent is its package and one line there.
package adapter

// Level says how far an adapter reaches for one capability.
type Level string

// Levels of a capability.
const (
	// Yes: every call of the kind goes through Warden.
	Yes Level = "yes"
	// Partial: some do; Note says which do not.
	Partial Level = "partial"
	// No: none does.
	No Level = "no"
)

// Capability is one column of an adapter's row.
type Capability struct {
	Level Level `json:"level"`
	// Note says what the level means for this adapter, or what is left
	// out when it is Partial.
	Note string `json:"note"`
}

// Honesty is one adapter's row of the honesty matrix.
type Honesty struct {
	// Adapter is the command that runs it ("warden hook claude-code").
	Adapter string `json:"adapter"`
	// FiltersTools: the agent is shown only the tools policy could allow.
	FiltersTools Capability `json:"filters_tools"`
	// InterceptsCalls: each tool call is decided before it runs.
	InterceptsCalls Capability `json:"intercepts_calls"`
	// SeesNativeTools: the agent's built-in tools (its own file, shell and
	// web tools) are decided too, not only the ones it calls through MCP.
	SeesNativeTools Capability `json:"sees_native_tools"`
	// Sandboxes: what the calls run under Warden's containment.
	Sandboxes Capability `json:"sandboxes"`
	// Proven is the real client the row was checked against, and the
	// tests that check it; nil when no test drives the real client: the
	// row is then read from the client's source and documentation only,
	// and warden doctor says "unverified".
	Proven *Proof `json:"proven,omitempty"`
}

// Proof is a real client and the tests that drive it.
type Proof struct {
	// Client is the client and its version ("Codex CLI 0.171.0").
	Client string `json:"client"`
	// Tests are the tests that drive it, each as package.TestName.
	Tests []string `json:"tests"`
	// What is what the tests drive through the real client.
	What string `json:"what"`
}
