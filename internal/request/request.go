// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package request turns the JSON action of Warden's CLI contract
// (docs/spec.md §11) into an [action.Action]: it validates every field, takes
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
	"os"
	"path/filepath"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/governance"
	"warden.dev/warden/internal/pathguard"
	"warden.dev/warden/internal/shellparse"
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
	// Recursive says every path is read with everything below it (a
	// search tool, grep -r): the sensitive files below a directory, as
	// the reader would reach them from its real path, are judged too.
	Recursive bool `json:"recursive,omitempty"`
	// NoProject says the caller looked for a project and found none
	// (see [gitindex.Project]): every write is then outside, instead of
	// the project defaulting to the working directory.
	NoProject bool `json:"-"`
}

// Prepare builds the shell analyser's tables, which the first shell
// command resolved would otherwise build, on the caller's goroutine: a
// process that will judge a command can build them beside its other
// start-up work.
func Prepare() { shellparse.Prepare() }

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
	// Governance says where Warden's own places are; the rest of the
	// governance paths are found from Home and the project.
	Governance Governance
	// Shell analyses a bash command; nil means [Analyze].
	Shell func(command, cwd string) Shell
}

// Shell is what analysing a command string found.
type Shell struct {
	Classes  []action.Class
	Commands [][]string
	// Code marks, beside Commands, the invocations that run code whose
	// effect is not classified ([action.Action.Code]).
	Code       []action.Code
	Paths      []ShellPath
	Hosts      []string
	Refs       []string
	Flags      []action.Flag
	Unresolved string
	// Detail is the analysis as shown under "shell" by warden explain.
	Detail any
}

// ShellPath is a path a command touches. Recursive marks a directory
// read with everything under it (grep -r, tar -c, cp -r…).
type ShellPath struct {
	Path      string
	Access    action.Access
	Recursive bool
	// Truncate, on a write, is the redirection operator that opens the
	// path truncated (>, >|, &>, 2>…), or empty. Over a file git tracks
	// such a write is a delete (see trackedTruncation).
	Truncate string
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
	var project string
	if !req.NoProject {
		if project, err = dir(base, req.Project, opt.Dir, "project"); err != nil {
			return nil, nil, err
		}
		if gitindex.NotProject(project, opt.Home) {
			// The root, the home or an ancestor of it is never a
			// project (docs/spec.md §11): writes there are outside.
			project = ""
		}
	}
	a.Cwd, a.Project = cwd, project
	// The resolver knows the project, so that a path reaching it through
	// an alias (a link, /proc/self/root, a bind mount) is judged inside.
	res := &pathguard.Resolver{Home: opt.Home, Cwd: cwd, Extra: opt.Sensitive, Project: project}

	acc := tool.Access
	if req.Access != "" {
		acc, _ = action.ParseAccess(req.Access)
	}
	paths := req.Paths
	if req.Path != nil {
		paths = append([]string{*req.Path}, paths...)
	}
	for _, raw := range paths {
		rp := res.Resolve(raw, acc)
		a.Paths = append(a.Paths, rp)
		if req.Recursive && rp.Err == "" && rp.Sensitive == "" {
			// From the resolved path: a reader follows the directory it
			// is given, a link included, and no link below it.
			a.Paths = append(a.Paths, sensitiveUnder(res, rp.Resolved)...)
		}
	}

	if len(a.Commands) > 0 {
		// Argv lists given in place of a command string are judged as
		// the shell would run them (see analyzeArgv).
		a.Code = analyzeArgv(a.Commands, cwd, opt.Home)
	}
	var sh *Shell
	var tracked gitindex.Checker // one per request: each index read once
	if req.Command != "" {
		analyse := opt.Shell
		if analyse == nil {
			analyse = func(c, cwd string) Shell { return Analyze(c, cwd, opt.Home) }
		}
		s := analyse(req.Command, cwd)
		sh = &s
		a.Classes = append(a.Classes, s.Classes...)
		a.Commands = append(a.Commands, s.Commands...)
		a.Code = s.Code
		a.Hosts = append(a.Hosts, s.Hosts...)
		a.Refs = append(a.Refs, s.Refs...)
		a.Flags = s.Flags
		a.Unresolved = s.Unresolved
		for _, sp := range s.Paths {
			for _, p := range expandGlob(sp.Path, cwd, opt.Home) {
				rp := res.Resolve(p, sp.Access)
				at := len(a.Paths)
				a.Paths = append(a.Paths, rp)
				if sp.Access == action.Write && sp.Truncate != "" {
					if del, ok := trackedTruncation(&tracked, rp, sp.Truncate); ok {
						a.Paths = append(a.Paths, del)
						a.Classes = append(a.Classes, action.FileDelete)
					}
				}
				switch {
				case !sp.Recursive || rp.Err != "" || rp.Sensitive != "":
				case sp.Access == action.Read:
					a.Paths = append(a.Paths, sensitiveUnder(res, rp.Resolved)...)
				case !a.Contained:
					// Names not known before it runs: any of them may
					// be a governance path. Contained, the sandbox
					// keeps those read-only and quarantines new ones.
					a.Paths[at].Governed = append(a.Paths[at].Governed, governance.Match{Path: rp.Resolved, Tier: governance.Guarded,
						Why: "a directory the command writes names into that are not known before it runs (an archive extracted, a directory copied), any of which may be a governance path"})
				}
			}
		}
	}
	governed(a, opt)
	return a, sh, nil
}

// trackedTruncation returns the delete that a write truncating the
// resolved path rp (with the redirection op) amounts to when rp is a
// regular file that git tracks: its content, which git knows, is gone,
// as with rm (docs/spec.md §3). Links and aliases count, since rp is
// resolved. A file that does not exist, or is not a regular file
// (/dev/null, a pipe, a terminal), is never deleted. When git's index
// cannot tell (too large, corrupt, a split index), an existing file is
// taken as tracked: the safe side.
func trackedTruncation(c *gitindex.Checker, rp action.Path, op string) (action.Path, bool) {
	if rp.Err != "" || rp.Resolved == "" {
		return action.Path{}, false // the floor denies it anyway
	}
	fi, err := os.Stat(rp.Resolved)
	if err != nil || !fi.Mode().IsRegular() {
		return action.Path{}, false
	}
	tracked, terr := c.Tracked(rp.Resolved)
	if !tracked {
		return action.Path{}, false
	}
	name := rp.Lexical
	if rp.Resolved != rp.Lexical {
		name += " (" + rp.Resolved + ")"
	}
	del := rp
	del.Access = action.Delete
	if terr != nil {
		del.Why = fmt.Sprintf("%s truncates %s, and whether git tracks it cannot be told (%v), so it is taken as tracked", op, name, terr)
	} else {
		del.Why = fmt.Sprintf("%s truncates %s, a file tracked by git", op, name)
	}
	return del, true
}

// maxGlob bounds how many files one shell pattern may expand to before
// the path is judged unresolvable.
const maxGlob = 4096

// expandGlob returns what bash would pass for a path holding a pattern
// (*, ?, [): the pattern itself (bash passes it unmatched when nothing
// matches) and every file it matches now, dot files included, so the
// floor judges the files a command like cat ~/.ss*/id_* really reaches.
// Go's matching lets * match a leading dot, which bash does not: the set
// judged is a superset, the safe side. Too many matches yield a NUL path,
// which resolution rejects, so the action is denied rather than guessed.
func expandGlob(p, cwd, home string) []string {
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}
	}
	pat := p
	if strings.HasPrefix(pat, "~/") && home != "" {
		pat = home + pat[1:]
	}
	if !strings.HasPrefix(pat, "/") {
		pat = cwd + "/" + pat
	}
	matches, err := filepath.Glob(pat)
	if err != nil {
		return []string{p}
	}
	if len(matches) > maxGlob {
		return []string{p + "\x00(matches more than 4096 files)"}
	}
	return append([]string{p}, matches...)
}

// sensitiveUnder returns the paths below a directory that a command reads
// recursively which the floor must deny, resolved, so that grep -r TOKEN .
// in a project that holds a .env is denied: every sensitive file, and
// every directory or multiply linked file that resolves to a secret (a
// bind mount of ~/.ssh, a hard link to a key) or cannot be resolved (see
// [pathguard.SensitiveUnder]). A directory too large to walk is returned
// as a path with an error: the action is denied rather than judged on a
// guess.
func sensitiveUnder(res *pathguard.Resolver, root string) []action.Path {
	var out []action.Path
	for _, p := range pathguard.SensitiveUnder(root, res.Home, true) {
		if strings.IndexByte(p, 0) >= 0 {
			// The walk stopped at pathguard.MaxWalk entries.
			out = append(out, action.Path{Raw: root, Lexical: root, Checked: true,
				Err: fmt.Sprintf("read recursively, and holds more than %d entries to check for secrets", pathguard.MaxWalk)})
			continue
		}
		// A sensitive name is always caught: resolution judges the
		// same name against the same floor.
		if rp := res.Resolve(p, action.Read); rp.Sensitive != "" || rp.Err != "" {
			out = append(out, rp)
		}
	}
	return out
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
