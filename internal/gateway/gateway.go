// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// Options are what a gateway runs with: warden mcp's flags, the policy
// they name, loaded, and where to report.
type Options struct {
	// Policy decides every call. It is loaded once, before the gateway
	// is built, so that a policy that does not load stops the gateway
	// before the server starts.
	Policy *config.Policy
	// Tools is the declaration of the server's tools: a file (a name
	// with a '.' or '/'), or the name of a built-in one (filesystem).
	// Empty chooses a built-in one by Command, else declares nothing.
	Tools string
	// Name is the server's name in tool names mcp:NAME/TOOL; empty
	// for the declaration's server, else Command's base name, else
	// "upstream".
	Name string
	// Project is the directory paths are judged against; empty for the
	// project of Dir ([gitindex.Project]), if it has one.
	Project string
	// Dir is the working directory calls are resolved in.
	Dir string
	// Command is the server's command over stdio (before --sandbox
	// wraps it), nil for an upstream server.
	Command []string
	// Contained says the server runs under warden run
	// ([SandboxedServer]): its calls are decided as contained.
	Contained bool
	// Headless refuses every call that prompts, even when the client
	// can answer an elicitation.
	Headless bool
	// Audit is the file each tools/call is appended to, one JSON line
	// each; empty records nothing.
	Audit string
	// Store records each tools/call too (the state directory's store);
	// nil records nothing there.
	Store audit.Sink
	// Approve puts a call that prompts, which the client's user cannot
	// be asked about, to a person through warden serve (mcp.Gate's
	// Approve); nil refuses such a call.
	Approve func(tool string, args json.RawMessage, d mcp.Decision) (allowed bool, reason string, ok bool)
	// Record records an allowed call before it is forwarded (mcp.Gate's
	// Record); nil records nothing then.
	Record func(tool string, d mcp.Decision) error
	// Warn reports a problem the gateway goes on after (a record that
	// cannot be written, a message dropped); nil discards it.
	Warn func(msg string)
	// Note reports what the gateway does (where it listens); nil
	// discards it.
	Note func(msg string)
}

// Gateway is one server's gate and the plumbing around it: it serves
// with [Gateway.RunStdio] or [Gateway.ListenAndServe].
type Gateway struct {
	gate    *mcp.Gate
	project string
	o       Options
}

// New builds the gate: the declaration, the server's name, the project
// and the decision, from o's policy. Its errors are [*Error]s.
func New(o Options) (*Gateway, error) {
	decl, err := declaration(o.Tools, o.Command)
	if err != nil {
		return nil, err
	}
	name := o.Name
	if name == "" && decl != nil {
		name = decl.Server
	}
	if name == "" && len(o.Command) > 0 {
		name = strings.TrimSuffix(filepath.Base(o.Command[0]), filepath.Ext(o.Command[0]))
	}
	if name == "" {
		name = "upstream"
	}
	if strings.ContainsAny(name, "/: \t") {
		return nil, &Error{Msg: fmt.Sprintf("--name %q must not hold '/', ':' or white space", name)}
	}
	dir, project := o.Dir, o.Project
	if project == "" {
		project = gitindex.Project(dir, o.Policy.Home())
	} else if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	lp, contained := o.Policy, o.Contained
	decide := func(req *request.Request) mcp.Decision {
		req.Cwd, req.Project, req.NoProject, req.Contained = dir, project, project == "", contained
		a, _, err := lp.Action(req, dir)
		if err != nil {
			return mcp.Decision{Rule: "mcp:invalid-call", Reason: err.Error()}
		}
		d, _ := lp.Engine.Evaluate(a, policy.Env{Now: time.Now()})
		return mcp.Decision{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason}
	}
	g := &mcp.Gate{
		Server:      name,
		Declaration: decl,
		Decide:      decide,
		Listed:      decide,
		Approve:     o.Approve,
		Record:      o.Record,
	}
	return &Gateway{gate: g, project: project, o: o}, nil
}

// declaration is the declaration tools names (see [Options.Tools]), or
// the built-in one for the server command argv, or nil.
func declaration(tools string, argv []string) (*mcp.Declaration, error) {
	switch {
	case tools != "" && !strings.ContainsAny(tools, "/."):
		d, ok := mcp.Builtin(tools)
		if !ok {
			return nil, &Error{Msg: fmt.Sprintf("--tools: no built-in declaration %q (built in: filesystem; a file name needs a '.' or '/')", tools)}
		}
		return d, nil
	case tools != "":
		src, err := os.ReadFile(tools)
		if err != nil {
			return nil, &Error{Msg: fmt.Sprintf("--tools: %v", err)}
		}
		d, err := mcp.ParseDeclaration(tools, src)
		if err != nil {
			return nil, &Error{Msg: err.Error()}
		}
		return d, nil
	}
	if b, ok := mcp.BuiltinFor(argv); ok {
		d, _ := mcp.Builtin(b)
		return d, nil
	}
	return nil, nil
}

// Project is the directory the gate judges paths against.
func (g *Gateway) Project() string { return g.project }

// SandboxedServer is the command that runs the server argv under warden
// run (binary exe) with the gate's project and policy (policyPath, empty
// for the embedded default), so that the floor holds even for a call the
// policy was fooled into allowing (a tool declared wrongly). --server: a
// server is long-lived by nature, and has no default timeout.
func SandboxedServer(exe, project, policyPath string, argv []string) []string {
	wrapped := []string{exe, "run", "--server", "--project", project}
	if policyPath != "" {
		abs, _ := filepath.Abs(policyPath)
		wrapped = append(wrapped, "--policy", abs)
	}
	return append(append(wrapped, "--"), argv...)
}

func (g *Gateway) warn(msg string) {
	if g.o.Warn != nil {
		g.o.Warn(msg)
	}
}
