// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package setup is warden init: it finds the agent CLIs on PATH, writes
// the user's policy from a commented template ([Template]), and installs
// each agent's hook deciding with that policy.
//
// # Rules
//
//   - Nothing is half-applied: every settings file is read and its change
//     computed first; one that does not parse, or an existing policy that
//     does not load, stops init before anything is written.
//   - An existing policy is never overwritten, unless Force asks, and then
//     the old file is kept beside it as policy.yaml.bak.
//   - A second run changes nothing and says so: the policy is compared
//     byte for byte, and each settings file is rewritten only when its
//     Warden entries differ ([hook.Install]).
//   - DryRun computes the same result and writes nothing.
//   - An agent's hook installed with --headless stays headless.
//
// Whether the installed hooks wrap shell commands in warden run is the
// caller's choice ([hook.InstallOptions.Wrap]); [CanContain] says whether
// warden doctor's report supports it.
package setup

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/safefile"
	"warden.dev/warden/internal/sandbox"
)

// Template is the policy warden init writes: the embedded default policy
// made explicit, every default and the floor in comments, with commented
// examples of rules and of network rules for a package index. It lints
// clean (setup_test.go).
//
//go:embed policy.yaml
var Template []byte

// PolicyFile is the policy's name in the configuration directory.
const PolicyFile = "policy.yaml"

// programs are the commands the agent CLIs are started with, by adapter.
var programs = map[string]string{
	"claude-code": "claude",
	"codex":       "codex",
	"gemini":      "gemini",
}

// Program is the command agent's CLI is started with ("claude"), or ""
// for an agent Warden does not look for on PATH.
func Program(agent string) string { return programs[agent] }

// Options say what [Init] does.
type Options struct {
	// Agents are the adapters to install ("claude-code"); empty: each
	// agent whose program LookPath finds.
	Agents   []string
	LookPath func(string) (string, error)
	// ConfigDir is Warden's configuration directory, an absolute path;
	// the policy is PolicyFile in it.
	ConfigDir string
	// Install are the hook install options; Policy and DryRun are set by
	// Init.
	Install hook.InstallOptions
	// Force replaces an existing policy that differs from the template,
	// keeping it as policy.yaml.bak.
	Force  bool
	DryRun bool
	// CheckPolicy loads the policy at path as the hooks will; an error
	// stops Init before anything is written. Nil skips the check.
	CheckPolicy func(path string) error
}

// Found is one agent Init installs.
type Found struct {
	Agent adapter.Agent
	// Program is its command and Path where LookPath found it; Path is
	// empty for an agent named in Agents but not on PATH.
	Program, Path string
}

// PolicyAction is what Init did with the policy file.
type PolicyAction int

const (
	// PolicyWritten: there was none; the template was written.
	PolicyWritten PolicyAction = iota
	// PolicySame: the file already is the template.
	PolicySame
	// PolicyKept: a different policy exists and was kept.
	PolicyKept
	// PolicyReplaced: a different policy existed; Force replaced it,
	// keeping it as the backup.
	PolicyReplaced
)

// Policy is what Init did with the policy file.
type Policy struct {
	Path   string
	Action PolicyAction
	// Backup is where the replaced policy was kept.
	Backup string
}

// Hook is what Init did with one agent's settings file.
type Hook struct {
	Agent string
	*hook.Installed
	// Headless: the hook denies what it would ask, as asked or as the
	// entry it replaces did.
	Headless bool
}

// Result is what Init did, or with DryRun would do.
type Result struct {
	Agents []Found
	Policy Policy
	Hooks  []Hook
}

// Changed reports whether Init wrote (or would write) anything.
func (r *Result) Changed() bool {
	if r.Policy.Action == PolicyWritten || r.Policy.Action == PolicyReplaced {
		return true
	}
	for _, h := range r.Hooks {
		if !h.Unchanged {
			return true
		}
	}
	return false
}

// Error is a setup that cannot be done, and what to do about it.
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

// Init writes the policy and installs the hooks, as [Options] say. See
// the package doc for what it never does.
func Init(o Options) (*Result, error) {
	if !filepath.IsAbs(o.ConfigDir) {
		return nil, &Error{"no configuration directory for the policy", "set HOME or XDG_CONFIG_HOME"}
	}
	agents, err := findAgents(o.Agents, o.LookPath)
	if err != nil {
		return nil, err
	}
	r := &Result{Agents: agents}
	path := filepath.Join(o.ConfigDir, PolicyFile)
	r.Policy, err = planPolicy(path, o.Force)
	if err != nil {
		return nil, err
	}
	old, _ := os.ReadFile(path)
	if r.Policy.Action == PolicyKept && o.CheckPolicy != nil {
		if err := o.CheckPolicy(path); err != nil {
			return nil, err
		}
	}
	// Every settings file is planned before anything is written.
	ho := o.Install
	ho.Policy = path
	ho.DryRun = true
	for _, f := range agents {
		ao := ho
		ao.Headless = ho.Headless || wasHeadless(f.Agent, ho)
		done, err := hook.Install(f.Agent, ao)
		if err != nil {
			return nil, err
		}
		r.Hooks = append(r.Hooks, Hook{f.Agent.Name(), done, ao.Headless})
	}
	if o.DryRun {
		return r, nil
	}
	if err := writePolicy(r.Policy, old); err != nil {
		return nil, err
	}
	ho.DryRun = false
	for i, f := range agents {
		if r.Hooks[i].Unchanged {
			continue
		}
		ao := ho
		ao.Headless = r.Hooks[i].Headless
		done, err := hook.Install(f.Agent, ao)
		if err != nil {
			return nil, err
		}
		r.Hooks[i].Installed = done
	}
	return r, nil
}

// wasHeadless reports whether an installed Warden entry of ag was
// installed with --headless: init keeps it, since dropping it would turn
// the denials of a session nobody watches into questions nobody answers.
func wasHeadless(ag adapter.Agent, o hook.InstallOptions) bool {
	es, err := hook.Entries(ag, o, func(string) (string, error) { return "", nil })
	if err != nil {
		return false
	}
	for _, e := range es {
		if slices.Contains(strings.Fields(e.Command), "--headless") {
			return true
		}
	}
	return false
}

// findAgents resolves the agents named, or finds those on PATH.
func findAgents(names []string, lookPath func(string) (string, error)) ([]Found, error) {
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errors.New("no PATH lookup") }
	}
	var out []Found
	if len(names) == 0 {
		for _, ag := range adapter.Agents() {
			prog := programs[ag.Name()]
			if prog == "" {
				continue
			}
			if p, err := lookPath(prog); err == nil {
				out = append(out, Found{ag, prog, p})
			}
		}
		return out, nil
	}
	seen := map[string]bool{}
	for _, name := range names {
		ag, ok := adapter.Lookup(name)
		if !ok {
			return nil, &Error{fmt.Sprintf("unknown agent %q", name), "agents: " + agentNames()}
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		f := Found{Agent: ag, Program: programs[name]}
		if f.Program != "" {
			if p, err := lookPath(f.Program); err == nil {
				f.Path = p
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func agentNames() string {
	var names []string
	for _, a := range adapter.Agents() {
		names = append(names, a.Name())
	}
	return strings.Join(names, ", ")
}

// EnsurePolicy writes the template at path, as Init does, unless a policy
// is there already, which it leaves as it is.
func EnsurePolicy(path string) error {
	p, err := planPolicy(path, false)
	if err != nil {
		return err
	}
	return writePolicy(p, nil)
}

// planPolicy says what Init does with the policy at path.
func planPolicy(path string, force bool) (Policy, error) {
	p := Policy{Path: path}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Action = PolicyWritten
	case err != nil:
		return p, &Error{Msg: fmt.Sprintf("reading %s: %v", path, unwrapPath(err))}
	case bytes.Equal(data, Template):
		p.Action = PolicySame
	case force:
		p.Action, p.Backup = PolicyReplaced, path+".bak"
	default:
		p.Action = PolicyKept
	}
	return p, nil
}

// writePolicy carries out p; old is the file it replaces.
func writePolicy(p Policy, old []byte) error {
	if p.Action != PolicyWritten && p.Action != PolicyReplaced {
		return nil
	}
	dir := filepath.Dir(p.Path)
	// 0700: the directory holds what decides for the agents, and every
	// run masks it.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &Error{fmt.Sprintf("cannot make %s: %v", dir, unwrapPath(err)), "warden init writes the policy there; make it writable, or set XDG_CONFIG_HOME"}
	}
	if p.Action == PolicyReplaced {
		if err := safefile.WriteFile(p.Backup, old, 0o600); err != nil {
			return &Error{fmt.Sprintf("cannot write %s: %v", p.Backup, unwrapPath(err)), "nothing was changed"}
		}
	}
	if err := safefile.WriteFile(p.Path, Template, 0o600); err != nil {
		return &Error{fmt.Sprintf("cannot write %s: %v", p.Path, unwrapPath(err)), "warden init writes the policy there; make " + dir + " writable, or set XDG_CONFIG_HOME"}
	}
	return nil
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CanContain reports whether warden doctor's report r says a run is
// contained on this host, and why: the trial run was built and ran in
// the sandbox. A wrapped hook on a host where it is not would fail every
// shell command (closed, status 125); where it is, shell commands the
// policy allows run contained.
func CanContain(r sandbox.HostReport) (bool, string) {
	t := r.Trial
	switch {
	case t.OK:
		return true, "warden doctor's trial run ran contained on this host"
	case !t.Ran:
		return false, "warden doctor could not try a run on this host"
	case t.Error != "":
		return false, "warden doctor's trial run failed: " + t.Error
	default:
		return false, fmt.Sprintf("warden doctor's trial run exited %d", t.Status)
	}
}
