// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package warden is Warden's Go API, for a harness that embeds Warden
// instead of running the warden command: it loads a policy, decides an
// agent's action with it, explains the decision, analyses a shell command
// line, and runs a command contained. Every answer is the one the warden
// command gives for the same input: the same engine, floor, shell
// analysis and sandbox sit behind both.
//
//	p, err := warden.LoadPolicy("", warden.PolicyOptions{}) // the embedded default
//	d, err := p.Decide(ctx, warden.Action{Tool: "read_file", Paths: []string{"~/.ssh/id_rsa"}})
//	// d.Verdict == warden.Deny: the floor denies sensitive paths to every tool
//
// # Decisions
//
// [Policy.Decide] returns [Allow], [Prompt] or [Deny]. A deny is a result,
// not an error: an error means the action itself is malformed (an empty
// tool or path, an unknown class or access) and nothing was decided, and
// the caller must then not act.
//
// A prompt asks a person. The harness is the approver: it shows the
// decision's reason to the person and acts only on an explicit yes. A
// prompt nobody answers is a deny — a harness that cannot ask (a headless
// session) sets [PolicyOptions.NoApprover], and every prompt is then
// decided as a deny by the engine itself, with the reason saying so.
//
// # Purity
//
// Deciding has two halves. Resolving the action reads the filesystem:
// paths are resolved as the kernel would (links, "..", /proc aliases) and
// matched against the sensitive set, git's index is read to tell a
// truncation of a tracked file from a new file, and a recursive read
// looks for secrets below its directory. The decision itself is then a
// pure function of the resolved action, the policy and the time: no I/O,
// no clock, no randomness (deps_test.go keeps it so).
//
// The cost is that a path can change between the decision and the use:
// a link swapped after Decide resolved it. A harness's own file tools
// should open what was decided without following links the agent could
// have planted; a command is better run under [Run], whose sandbox
// holds whatever the command line did not show.
//
// # Containment
//
// [Run] runs a command in Warden's sandbox (Linux namespaces, Landlock,
// seccomp, cgroups and the egress proxy), after judging it with the
// policy. The sandbox's init is the calling program re-executed, so a
// program that calls Run must call [Init] first thing in main.
package warden

import (
	"os"
	"path/filepath"
	"time"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
)

// PolicyOptions say where a policy finds what it decides with besides its
// own rules. The zero value takes everything from the environment, as the
// warden command does.
type PolicyOptions struct {
	// Home is the home directory "~" stands for in patterns and paths;
	// empty means the user's ($HOME).
	Home string
	// Managed is the managed tier's policy file; empty means
	// $WARDEN_MANAGED_POLICY. The managed tier is an organisation's and
	// can only tighten: there is no way to load a policy without the one
	// the environment names, and one that cannot be read fails the load.
	Managed string
	// Protected are the embedding harness's own directories (its
	// configuration, its state): like Warden's own, which are always
	// protected, no agent tool may write them, and [Run] masks them.
	Protected []string
	// NoApprover says nobody can answer a prompt (a headless session):
	// every prompt is then decided as a deny.
	NoApprover bool
	// Now is the clock rule expiry is judged by; nil means time.Now.
	// The engine never reads the clock itself.
	Now func() time.Time
}

// Policy is a loaded policy: a policy file (or the embedded default), the
// managed tier, and the engine compiled from both. It is immutable and
// safe for concurrent use.
type Policy struct {
	lp         *config.Policy
	noApprover bool
	now        func() time.Time
}

// LoadPolicy reads the policy file at path, or the embedded default when
// path is empty, with the managed tier, and compiles them. A policy is
// loaded whole or not at all: a file that does not parse, a rule that does
// not compile or a managed tier that does not load is an error, and
// leaves nothing loaded.
func LoadPolicy(path string, o PolicyOptions) (*Policy, error) {
	lp, err := config.Load(path, o.config())
	if err != nil {
		return nil, err
	}
	return o.policy(lp), nil
}

// ParsePolicy compiles the policy file src, named name in errors and
// positions, with the managed tier. Its revision is the SHA-256 of src.
// When name is the path of the file src was read from, that file is a
// governance path as a loaded policy file is: no agent tool writes it.
// Errors are as for [LoadPolicy].
func ParsePolicy(name string, src []byte, o PolicyOptions) (*Policy, error) {
	if name == "" {
		// config.Parse takes an empty name for the embedded default.
		name = "policy.yaml"
	}
	lp, err := config.Parse(name, src, o.config())
	if err != nil {
		return nil, err
	}
	return o.policy(lp), nil
}

func (o PolicyOptions) config() config.Options {
	c := config.Options{Home: o.Home, Managed: o.Managed, PATH: os.Getenv("PATH")}
	if c.Home == "" {
		c.Home, _ = os.UserHomeDir()
	}
	if c.Managed == "" {
		c.Managed = os.Getenv(config.EnvManaged)
	}
	// Warden's own places are the warden command's (package contain
	// names them once), so that an embedded decision protects what
	// warden explain's does.
	c.Own = append(contain.HostDirs().Places(), o.protected()...)
	return c
}

// protected are the Protected directories, absolute.
func (o PolicyOptions) protected() []string {
	var out []string
	for _, d := range o.Protected {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		out = append(out, d)
	}
	return out
}

func (o PolicyOptions) policy(lp *config.Policy) *Policy {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Policy{lp: lp, noApprover: o.NoApprover, now: now}
}

// Revision names the policy file a decision is made under: "default" for
// the embedded default, else "sha256:" and the hash of the file's bytes.
// The managed tier's revision follows after a space when there is one.
func (p *Policy) Revision() string {
	if p.lp.ManagedRevision == "" {
		return p.lp.Revision
	}
	return p.lp.Revision + " " + p.lp.ManagedRevision
}
