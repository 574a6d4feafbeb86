// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package config loads the policy Warden decides with: a policy file (or
// the embedded default), the managed tier beside it, and the engine
// compiled from both. Every command that decides — explain, the hooks,
// the MCP gateway, warden run, net check — loads its policy here, so that
// "what if" and "what happens" cannot disagree.
//
// The rules:
//
//   - A policy is applied whole or not at all: any error (a file that
//     does not parse, a rule that does not compile, a managed tier that
//     does not load) leaves nothing loaded, and is an [*Error] whose hint
//     says where to look.
//   - The managed tier is fail-closed: named and unreadable is an error,
//     never a run without it (docs/spec.md §8).
//   - Without a file named, [Discover] finds it (docs/spec.md §13): the
//     project's .warden/policy.yaml only while its content is one the
//     user trusted ([Trust], recorded by hash outside the project), else
//     the user's, else the embedded default (default.yaml). Its revision
//     is "default"; a file's is the SHA-256 of its bytes, as records name
//     it.
package config

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/request"
)

//go:embed default.yaml
var defaultPolicy []byte

// DefaultName is how the embedded default names itself in positions.
const DefaultName = "(default policy)"

// EnvManaged names the managed-tier policy file; when set it replaces the
// stored managed rules entirely (docs/spec.md §8).
const EnvManaged = "WARDEN_MANAGED_POLICY"

// Options say where the managed tier is and whose home "~" is.
type Options struct {
	// Managed is the managed tier's file ($WARDEN_MANAGED_POLICY); empty
	// for none.
	Managed string
	// ManagedSystem says Managed is the system's file (ManagedDefault),
	// not one WARDEN_MANAGED_POLICY named.
	ManagedSystem bool
	// Home is the caller's home directory.
	Home string
	// Own are Warden's configuration and state directories, which the
	// floor keeps every agent tool out of.
	Own []string
	// PATH is the deciding process's PATH: its directories are
	// governance paths.
	PATH string
	// AgentHomes are agents' settings directories the deciding
	// process's environment names (CODEX_HOME, CLAUDE_CONFIG_DIR):
	// governance paths as the agents' hook settings are.
	AgentHomes []string
}

// Policy is a policy file, the managed tier, and the engine built from
// both.
type Policy struct {
	// Path is the policy file's path as loaded; "" for the embedded
	// default.
	Path    string
	File    *policyfile.File
	Managed *policyfile.File
	Engine  *policy.Engine
	// Revision is "sha256:" and the hash of the policy file's bytes, or
	// "default" for the embedded default; ManagedRevision is the managed
	// tier's, "" without one.
	Revision        string
	ManagedRevision string
	home            string
	gov             request.Governance
	// src is the text File was parsed from, which Remember adds rules to
	// so that the file's comments and order survive.
	src []byte
}

// Error is a policy that cannot be loaded, with a hint on what to do.
type Error struct {
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

// Hints says what to do about it.
func (e *Error) Hints() []string {
	if e.Hint == "" {
		return nil
	}
	return []string{e.Hint}
}

const (
	hintFile    = "check the policy file against docs/policy-language.md; 'warden policy lint FILE' explains each problem"
	hintManaged = "the managed tier is fail-closed: fix the file or unset " + EnvManaged
)

// Load reads the policy file at path (the embedded default when path is
// empty) and the managed tier, and compiles them.
func Load(path string, o Options) (*Policy, error) {
	if path == "" {
		return Parse("", defaultPolicy, o)
	}
	f, src, err := policyfile.Read(path)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: hintFile}
	}
	return compile(f, src, path, revision(src), o)
}

// Parse compiles the policy file src read from path (the embedded default
// when path is empty) with the managed tier.
func Parse(path string, src []byte, o Options) (*Policy, error) {
	name, rev := DefaultName, "default"
	if path != "" {
		name, rev = path, revision(src)
	}
	f, err := policyfile.Parse(name, src)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: hintFile}
	}
	return compile(f, src, path, rev, o)
}

func revision(src []byte) string {
	sum := sha256.Sum256(src)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func compile(f *policyfile.File, src []byte, path, rev string, o Options) (*Policy, error) {
	p := &Policy{Path: path, File: f, Revision: rev, home: o.Home, src: src}
	p.gov = request.Governance{Own: o.Own, Path: o.PATH, Policies: policyFiles(path, o.Managed), AgentHomes: o.AgentHomes}
	opt := policy.Options{Home: o.Home}
	if o.Managed != "" {
		m, src, err := policyfile.Read(o.Managed)
		if err != nil {
			return nil, managedError(o, err)
		}
		p.Managed, opt.Managed, p.ManagedRevision = m, m.Policy, revision(src)
	}
	var err error
	if p.Engine, err = policy.Compile(f.Policy, opt); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return p, nil
}

// managedError is the managed tier's err, naming where it came from.
func managedError(o Options, err error) error {
	if o.ManagedSystem {
		return &Error{Msg: fmt.Sprintf("managed policy (%s): %v", o.Managed, err), Hint: "the managed tier is fail-closed: fix the file, or have its administrator remove it"}
	}
	return &Error{Msg: fmt.Sprintf("managed policy (%s): %v", EnvManaged, err), Hint: hintManaged}
}

// Revisions names what a decision is made under: the policy file's
// revision and the managed tier's, as one string.
func (p *Policy) Revisions() string {
	return p.Revision + "\x00" + p.ManagedRevision
}

// Home is the home directory "~" stands for.
func (p *Policy) Home() string { return p.home }

// Sensitive is the sensitive set's extensions from both tiers.
func (p *Policy) Sensitive() []string {
	extra := append([]string(nil), p.File.Sensitive...)
	if p.Managed != nil {
		extra = append(extra, p.Managed.Sensitive...)
	}
	return extra
}

// ManagedSet is the managed tier's rules, nil without one.
func (p *Policy) ManagedSet() *policy.Set {
	if p.Managed == nil {
		return nil
	}
	return p.Managed.Policy
}

// Action turns a request into the action the engine decides, resolved in
// dir with both tiers' sensitive set and the governance paths.
func (p *Policy) Action(r *request.Request, dir string) (*action.Action, *request.Shell, error) {
	return r.Action(request.Options{Dir: dir, Home: p.home, Sensitive: p.Sensitive(), Governance: p.gov})
}

// policyFiles are the policy files in force, each as named and as
// resolved: no agent tool writes them (docs/spec.md §13).
func policyFiles(names ...string) []string {
	var out []string
	for _, n := range names {
		if n == "" {
			continue
		}
		if abs, err := filepath.Abs(n); err == nil {
			n = abs
		}
		out = append(out, n)
		if real, err := filepath.EvalSymlinks(n); err == nil && real != n {
			out = append(out, real)
		}
	}
	return out
}

// Decide resolves a request in dir and decides it.
func (p *Policy) Decide(r *request.Request, dir string, env policy.Env) (*action.Action, policy.Decision, error) {
	a, _, err := p.Action(r, dir)
	if err != nil {
		return nil, policy.Decision{}, err
	}
	d, _ := p.Engine.Evaluate(a, env)
	return a, d, nil
}

// NetTiers compiles the policy file's network rules and, when the managed
// tier has a network section, the managed tier's: a destination must be
// allowed by both (warden net check and every run's egress proxy).
func (p *Policy) NetTiers() (*netpolicy.Tiers, error) {
	fp, err := netpolicy.Compile(p.File.Network.EgressRules())
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "see the network section in docs/policy-language.md"}
	}
	if p.Managed == nil || !p.Managed.Network.Set {
		return netpolicy.NewTiers(fp), nil
	}
	mp, err := netpolicy.Compile(p.Managed.Network.EgressRules())
	if err != nil {
		return nil, managedError(Options{}, err)
	}
	return netpolicy.NewTiers(fp, mp), nil
}
