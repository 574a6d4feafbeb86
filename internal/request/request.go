// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package request turns the JSON action of Warden's CLI contract
// (DESIGN.md §11) into an [action.Action]: it validates every field, takes
// classes from the input or the tool table, derives hosts from a URL and
// resolves every path with package pathguard.
//
// Parsing is strict: unknown fields, wrong types, unknown classes or modes,
// contradictory fields and oversized input are errors, and an error never
// comes with a half-built action.
package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/pathguard"
)

// MaxSize is the largest request accepted, in bytes.
const MaxSize = 1 << 20

// Principal is the JSON form of [action.Principal].
type Principal struct {
	Space       string   `json:"space,omitempty"`
	Agent       string   `json:"agent,omitempty"`
	Workspace   string   `json:"workspace,omitempty"`
	Session     string   `json:"session,omitempty"`
	Mode        string   `json:"mode,omitempty"`
	Delegation  []string `json:"delegation,omitempty"`
	BudgetCents *int64   `json:"budget_cents,omitempty"`
}

// Override is the JSON form of [action.Override].
type Override struct {
	By            string `json:"by"`
	Justification string `json:"justification"`
}

// Request is one action as JSON, the input of `warden explain` and of the
// examples kept in a policy file.
type Request struct {
	Tool      string     `json:"tool"`
	Classes   []string   `json:"classes,omitempty"`
	Command   string     `json:"command,omitempty"`
	Path      *string    `json:"path,omitempty"`
	Paths     []string   `json:"paths,omitempty"`
	Access    string     `json:"access,omitempty"`
	URL       string     `json:"url,omitempty"`
	Refs      []string   `json:"refs,omitempty"`
	Hosts     []string   `json:"hosts,omitempty"`
	Count     *int64     `json:"count,omitempty"`
	Cents     *int64     `json:"cents,omitempty"`
	Cwd       string     `json:"cwd,omitempty"`
	Project   string     `json:"project,omitempty"`
	Contained bool       `json:"contained,omitempty"`
	Principal Principal  `json:"principal,omitzero"`
	Override  *Override  `json:"override,omitempty"`
	Commands  [][]string `json:"commands,omitempty"`
}

// Decode reads one JSON request. Unknown fields and trailing data are
// errors; so is input larger than MaxSize.
func Decode(r io.Reader) (*Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading action: %v", err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("action larger than %d bytes", MaxSize)
	}
	return Parse(data)
}

// Parse decodes one JSON request from data.
func Parse(data []byte) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return nil, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("action: unexpected data after the JSON object (give exactly one action)")
	}
	return &req, nil
}

// jsonError adds a line:col position to a JSON error.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("action: empty input (want one JSON object)")
	}
	if off < 0 {
		return fmt.Errorf("action: %v", err)
	}
	line, col := 1, 1
	for _, b := range data[:min(int(off), len(data))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("action:%d:%d: %v", line, col, err)
}

// Options say how a request becomes an action.
type Options struct {
	// Dir is the directory cwd and project default to, and relative cwd
	// and project are taken against.
	Dir string
	// Home is the user's home directory.
	Home string
	// Sensitive extends the sensitive set (the managed tier's additions).
	Sensitive []string
	// Shell analyses a bash command; nil means the interim analysis
	// (simple words only, anything else unresolvable).
	Shell func(command, cwd string) Shell
}

// Shell is what analysing a command string found.
type Shell struct {
	Classes    []action.Class
	Commands   [][]string
	Paths      []ShellPath
	Hosts      []string
	Refs       []string
	Flags      []action.Flag
	Unresolved string
	// Detail is the analysis as shown under "shell" by warden explain.
	Detail any
}

// ShellPath is a path a command touches.
type ShellPath struct {
	Path   string
	Access action.Access
}

// Action validates the request and builds the action.
func (req *Request) Action(opt Options) (*action.Action, *Shell, error) {
	a, err := req.pure()
	if err != nil {
		return nil, nil, err
	}
	return req.resolve(a, opt)
}

// Validate checks everything about the request that needs no filesystem:
// fields, names, numbers, the URL. Action checks the same and more.
func (req *Request) Validate() error {
	_, err := req.pure()
	return err
}

// pure builds the part of the action that needs no I/O.
func (req *Request) pure() (*action.Action, error) {
	if req.Tool == "" {
		return nil, errors.New(`action: "tool" is required`)
	}
	a := &action.Action{Tool: req.Tool, Contained: req.Contained}
	tool, known := action.LookupTool(req.Tool)
	for _, name := range req.Classes {
		c, ok := action.ParseClass(name)
		if !ok {
			return nil, fmt.Errorf("action: unknown class %q (want one of %s)", name, classNames())
		}
		a.Classes = append(a.Classes, c)
	}
	shellTool := known && tool.Name == "bash"
	if req.Command != "" && !shellTool {
		return nil, fmt.Errorf(`action: "command" is for the bash tool, not %q`, req.Tool)
	}
	if shellTool && req.Command == "" && len(req.Commands) == 0 {
		return nil, errors.New(`action: the bash tool needs "command"`)
	}
	if req.Command != "" && len(req.Commands) > 0 {
		return nil, errors.New(`action: give "command" or "commands", not both`)
	}
	if req.Count != nil && *req.Count < 0 {
		return nil, errors.New(`action: "count" is negative`)
	}
	if req.Cents != nil && *req.Cents < 0 {
		return nil, errors.New(`action: "cents" is negative`)
	}
	if req.Principal.BudgetCents != nil && *req.Principal.BudgetCents < 0 {
		return nil, errors.New(`action: "principal.budget_cents" is negative`)
	}
	if req.Principal.Mode != "" {
		m, ok := action.ParseMode(req.Principal.Mode)
		if !ok {
			return nil, fmt.Errorf("action: unknown mode %q (want proposeOnly, actWithApproval or actFreely)", req.Principal.Mode)
		}
		a.Principal.Mode = m
	}
	p := req.Principal
	a.Principal.Space, a.Principal.Agent, a.Principal.Workspace, a.Principal.Session = p.Space, p.Agent, p.Workspace, p.Session
	a.Principal.Delegation, a.Principal.BudgetCents = p.Delegation, p.BudgetCents
	if req.Override != nil {
		if req.Override.By == "" || strings.TrimSpace(req.Override.Justification) == "" {
			return nil, errors.New(`action: an override needs "by" and a non-empty "justification"`)
		}
		a.Override = &action.Override{By: req.Override.By, Justification: req.Override.Justification}
	}
	a.Refs, a.Hosts, a.Count, a.Cents = req.Refs, req.Hosts, req.Count, req.Cents
	for _, argv := range req.Commands {
		if len(argv) == 0 {
			return nil, errors.New(`action: an empty argv in "commands"`)
		}
	}
	a.Commands = req.Commands
	if req.Access != "" {
		if _, ok := action.ParseAccess(req.Access); !ok {
			return nil, fmt.Errorf("action: unknown access %q (want read, write or delete)", req.Access)
		}
	}
	if req.Path != nil && *req.Path == "" {
		return nil, errors.New("action: an empty path")
	}
	for _, p := range req.Paths {
		if p == "" {
			return nil, errors.New("action: an empty path")
		}
	}
	if req.URL != "" {
		host, err := urlHost(req.URL)
		if err != nil {
			return nil, err
		}
		a.Hosts = append(a.Hosts, host)
	}
	return a, nil
}

// resolve completes the action with what needs the filesystem: the
// working directory and project, every path, and shell analysis.
func (req *Request) resolve(a *action.Action, opt Options) (*action.Action, *Shell, error) {
	tool, _ := action.LookupTool(req.Tool)

	// Directories: cwd and project default to the current directory and
	// are themselves resolved, so containment is judged on real paths.
	base := &pathguard.Resolver{Home: opt.Home, Cwd: opt.Dir}
	cwd, err := dir(base, req.Cwd, opt.Dir, "cwd")
	if err != nil {
		return nil, nil, err
	}
	project, err := dir(base, req.Project, opt.Dir, "project")
	if err != nil {
		return nil, nil, err
	}
	a.Cwd, a.Project = cwd, project
	res := &pathguard.Resolver{Home: opt.Home, Cwd: cwd, Extra: opt.Sensitive}

	acc := tool.Access
	if req.Access != "" {
		acc, _ = action.ParseAccess(req.Access)
	}
	paths := req.Paths
	if req.Path != nil {
		paths = append([]string{*req.Path}, paths...)
	}
	for _, raw := range paths {
		a.Paths = append(a.Paths, res.Resolve(raw, acc))
	}

	var sh *Shell
	if req.Command != "" {
		analyse := opt.Shell
		if analyse == nil {
			analyse = func(c, cwd string) Shell { return Analyze(c, cwd, opt.Home) }
		}
		s := analyse(req.Command, cwd)
		sh = &s
		a.Classes = append(a.Classes, s.Classes...)
		a.Commands = append(a.Commands, s.Commands...)
		a.Hosts = append(a.Hosts, s.Hosts...)
		a.Refs = append(a.Refs, s.Refs...)
		a.Flags = s.Flags
		a.Unresolved = s.Unresolved
		for _, sp := range s.Paths {
			a.Paths = append(a.Paths, res.Resolve(sp.Path, sp.Access))
		}
	}
	return a, sh, nil
}

func dir(r *pathguard.Resolver, raw, def, field string) (string, error) {
	if raw == "" {
		raw = def
	}
	if raw == "" {
		return "", fmt.Errorf("action: no %s given and no current directory", field)
	}
	p := r.Resolve(raw, action.Read)
	if p.Err != "" {
		return "", fmt.Errorf("action: %s %q: %s", field, raw, p.Err)
	}
	return p.Resolved, nil
}

// urlHost extracts the host a web_fetch would contact. Anything that is
// not a plain http(s) URL with a host is an error.
func urlHost(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("action: url %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("action: url %q: scheme must be http or https", raw)
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("action: url %q has no host", raw)
	}
	return strings.ToLower(u.Hostname()), nil
}

func classNames() string {
	var names []string
	for _, c := range action.Classes() {
		names = append(names, c.String())
	}
	return strings.Join(names, ", ")
}

// Interim is the analysis used until full shell analysis is wired in. It
// is strict on purpose and never guesses: only a command of plain words
// whose program is in a small table is classified (its operands taken as
// paths with the table's access, git push refs and curl hosts read off
// argv); any other command — quotes, operators, expansions, redirections,
// an environment prefix, or an unknown program — is unresolved, so the
// floor makes it at least a prompt.
func Interim(command, cwd string) Shell {
	s := Shell{Classes: []action.Class{action.ProcessSpawn}}
	unresolved := func(why string) Shell {
		s.Unresolved = why
		s.Flags = []action.Flag{action.FlagUnresolvable}
		return s
	}
	for _, r := range command {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" _-./:,+=@%~", r)) {
			return unresolved(fmt.Sprintf("the command holds %q; only plain words are analysed yet", r))
		}
	}
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return unresolved("empty command")
	}
	if strings.Contains(argv[0], "=") {
		return unresolved("an environment prefix changes what the command does")
	}
	if i := strings.LastIndexByte(argv[0], '/'); i >= 0 {
		argv[0] = argv[0][i+1:]
	}
	name := argv[0]
	if len(argv) > 1 && (name == "git" || name == "gh" || name == "go" || name == "npm" || name == "pip") {
		name += " " + argv[1]
	}
	if len(argv) > 2 && name == "gh pr" {
		name += " " + argv[2]
	}
	// The invocation is known even when its program is not classified,
	// so command rules ("deny npm publish") still apply to it.
	s.Commands = [][]string{argv}
	kind, ok := interimTable[name]
	if !ok {
		return unresolved(fmt.Sprintf("%q is not classified by the interim analysis", name))
	}
	if kind.bare && len(argv) > 1 {
		// env VAR=x prog, printenv NAME…: env runs another program
		// whose effect the interim analysis does not know.
		return unresolved(fmt.Sprintf("%s with arguments may run another program", argv[0]))
	}
	if kind.class != 0 {
		s.Classes = append(s.Classes, kind.class)
	}
	skip := len(strings.Fields(name))
	for _, w := range argv[skip:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		switch {
		case kind.refs:
			if strings.Contains(w, "://") || strings.Contains(w, "@") {
				continue
			}
			s.Refs = append(s.Refs, w)
		case kind.hosts:
			if u, err := url.Parse(w); err == nil && u.Hostname() != "" {
				s.Hosts = append(s.Hosts, strings.ToLower(u.Hostname()))
			} else {
				// Not a URL: an output or upload file, read at least.
				s.Paths = append(s.Paths, ShellPath{Path: w, Access: action.Read})
			}
		case kind.paths:
			s.Paths = append(s.Paths, ShellPath{Path: w, Access: kind.access})
		}
	}
	if kind.refs && len(s.Refs) > 0 {
		s.Refs = s.Refs[1:] // the first operand of git push is the remote
	}
	// Any other word that names a file — an option's value included
	// (--file=~/.ssh/key, -d @key, -o path) — is at least read, so the
	// floor sees it whatever the program does with it.
	for _, w := range argv[skip:] {
		if kind.refs {
			break // git push operands are a remote and refs
		}
		for _, p := range mentionedPaths(w) {
			if !slices.ContainsFunc(s.Paths, func(sp ShellPath) bool { return sp.Path == p }) {
				s.Paths = append(s.Paths, ShellPath{Path: p, Access: action.Read})
			}
		}
	}
	s.Detail = map[string]any{"invocations": []map[string]any{{"argv": argv}}, "analysis": "interim: plain words only"}
	return s
}

// mentionedPaths returns the file names a word may carry: the word itself,
// an option's value after "=", and curl's "@file".
func mentionedPaths(w string) []string {
	var out []string
	for _, c := range []string{w, w[strings.IndexByte(w, '=')+1:]} {
		at := strings.HasPrefix(c, "@")
		c = strings.TrimPrefix(c, "@")
		if c == "" || strings.HasPrefix(c, "-") || strings.Contains(c, "://") {
			continue
		}
		if at || strings.ContainsRune(c, '/') || strings.HasPrefix(c, "~") || strings.HasPrefix(c, ".") {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

type interimKind struct {
	// bare: classified only without arguments.
	bare   bool
	class  action.Class
	paths  bool
	access action.Access
	refs   bool
	hosts  bool
}

var interimTable = map[string]interimKind{
	"ls": {paths: true}, "cat": {paths: true}, "head": {paths: true}, "tail": {paths: true},
	"wc": {paths: true}, "grep": {paths: true}, "stat": {paths: true}, "echo": {}, "pwd": {},
	"rm":     {class: action.FileDelete, paths: true, access: action.Delete},
	"unlink": {class: action.FileDelete, paths: true, access: action.Delete},
	"rmdir":  {class: action.FileDelete, paths: true, access: action.Delete},
	"touch":  {paths: true, access: action.Write}, "mkdir": {paths: true, access: action.Write},
	"git status": {}, "git diff": {}, "git log": {}, "git show": {},
	"git commit": {class: action.GitCommit},
	"git push":   {class: action.GitPush, refs: true},
	"git fetch":  {class: action.NetworkEgress}, "git pull": {class: action.NetworkEgress},
	"git clone":    {class: action.NetworkEgress, hosts: true},
	"gh pr create": {class: action.PRCreate}, "gh pr merge": {class: action.PRPublish}, "gh pr review": {class: action.PRPublish},
	"curl": {class: action.NetworkEgress, hosts: true}, "wget": {class: action.NetworkEgress, hosts: true},
	"npm install": {class: action.PackageInstall}, "pip install": {class: action.PackageInstall},
	"go install": {class: action.PackageInstall}, "go get": {class: action.PackageInstall},
	"go test": {}, "go vet": {}, "go build": {},
	"env": {class: action.SecretAccess, bare: true}, "printenv": {class: action.SecretAccess, bare: true},
}
