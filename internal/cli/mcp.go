// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden mcp is the MCP gateway: the agent speaks MCP to warden, warden
// speaks it to the server, and every tools/call is decided on the way.
// Package adapter/mcp holds the rules, package gateway the plumbing (and
// the rules of the transports); this file is the wiring:
//
//   - Bad flags and a policy that does not load stop warden mcp before
//     any server starts: exit 2 with "warden: error: …".
//   - The gateway's errors are bad input too (exit 2, with their hints),
//     but for the server's exit: warden exits with the server's status
//     (128+signal when killed), and says nothing of its own.
//   - Warnings go to stderr as "warden: warning: …", and where the HTTP
//     gateway listens as "warden: mcp: …".

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/approval"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/gateway"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/store"
)

const mcpUsage = `mcp [--policy FILE] [--tools DECL.yaml|filesystem] [--name SERVER] [--project DIR] [--audit-json FILE] [--sandbox] [--headless] -- SERVER CMD...
       warden mcp [flags] --listen ADDR --upstream URL`

func runMCP(ctx context.Context, args []string) error {
	fs := newFlags("mcp", mcpUsage)
	policyPath := fs.String("policy", "", "policy `file` (default: the one discovery finds, see warden policy show)")
	toolsPath := fs.String("tools", "", "declaration `file` of the server's tools, or the name of a built-in one (filesystem)")
	name := fs.String("name", "", "the server's `name` in tool names mcp:NAME/TOOL (default: the declaration's server, else the command's base name)")
	project := fs.String("project", "", "the project `dir` paths are judged against (default: the git work tree of the current directory; with --sandbox, else the current directory, never the home)")
	headless := fs.Bool("headless", false, "never ask the user: a call that prompts is refused even when the client can answer an elicitation")
	auditPath := fs.String("audit-json", "", "append one JSON line per tools/call to `file`")
	listen := fs.String("listen", "", "serve MCP over streamable HTTP on `addr` (loopback only) instead of stdio")
	upstream := fs.String("upstream", "", "with --listen: the streamable-HTTP `url` of the server")
	sandboxed := fs.Bool("sandbox", false, "run the server under warden run (with the same --policy and --project); its calls are then decided as contained")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return badInput(err.Error())
	}
	argv := fs.Args()
	if (*listen == "") != (*upstream == "") {
		return badInput("--listen and --upstream go together")
	}
	if *listen == "" && len(argv) == 0 {
		return badInput("warden mcp needs the server's command after --", "warden "+strings.SplitN(mcpUsage, "\n", 2)[0])
	}
	if *listen != "" && len(argv) > 0 {
		return badInput("give --upstream or a server command, not both")
	}
	if *listen != "" && *sandboxed {
		return badInput("--sandbox runs a server command; an --upstream server runs elsewhere")
	}
	if *policyPath != "" {
		abs, err := filepath.Abs(*policyPath)
		if err != nil {
			return badInput(fmt.Sprintf("--policy: %v", err))
		}
		*policyPath = abs
	}
	lp, err := loadPolicy(*policyPath)
	if err != nil {
		return err
	}
	// A sandboxed server's run applies the very file the gateway
	// decides with, discovered or named.
	*policyPath = lp.Path
	if *sandboxed {
		// The server's project is the one warden run takes (never the
		// home): the gateway judges paths against the project the
		// sandbox makes writable.
		p, err := contain.Project(*project, cwd(), homeDir())
		if err != nil {
			return runError(err)
		}
		*project = p
	}
	// Every call is recorded in the store; a gateway that could not
	// record starts only with audit: best-effort.
	rec := &store.Recorder{Dir: contain.StateDir()}
	defer rec.Close()
	var sink audit.Sink = rec
	if err := rec.Ready(); err != nil {
		if lp.File.Audit != policyfile.AuditBestEffort {
			return storeError(fmt.Errorf("the gateway's calls cannot be recorded: %w", err))
		}
		warningf("the gateway's calls are not recorded in the store: %v (audit: best-effort)", err)
		sink = nil
	}
	// An allowed call is recorded before it is forwarded; one that
	// cannot be is refused, unless audit: best-effort.
	var recordAllowed func(string, mcp.Decision) error
	if sink != nil {
		recordAllowed = func(tool string, d mcp.Decision) error {
			err := sink.Write(audit.DecisionEvent(now(), &audit.Decision{Surface: "mcp", Project: *project, Tool: tool,
				Verdict: d.Verdict.String(), Answered: d.Verdict.String(), Rule: d.Rule, Reason: d.Reason, Policy: lp.Revision, PolicyPath: lp.Path}))
			if err != nil && lp.File.Audit == policyfile.AuditBestEffort {
				warningf("the call %s was not recorded: %v (audit: best-effort)", tool, err)
				return nil
			}
			return err
		}
	}
	// A call the client's user cannot be asked about waits for a person
	// when a warden serve runs.
	var approve func(string, json.RawMessage, mcp.Decision) (bool, string, bool)
	if state := contain.StateDir(); serveRunning(state) {
		approve = func(tool string, args json.RawMessage, d mcp.Decision) (bool, string, bool) {
			s, err := rec.Store()
			if err != nil || !serveRunning(state) {
				return false, "", false
			}
			req := store.ApprovalRequest{Surface: "mcp " + *name, Project: *project, Tool: tool, Subject: approval.Args(args),
				Rule: d.Rule, Reason: d.Reason}
			expiry := approvalExpiry
			if e := lp.File.Approvals.Expiry; e > 0 {
				expiry = e
			}
			got, waitedOut, err := waitForApproval(s, req, expiry, mcpWait)
			if err != nil {
				return false, "", false
			}
			allowed, why := approvalOutcome(got, waitedOut, mcpWait)
			return allowed, why, true
		}
	}
	gw, err := gateway.New(gateway.Options{
		Policy: lp, Tools: *toolsPath, Name: *name, Project: *project, Dir: cwd(),
		Command: argv, Contained: *sandboxed, Headless: *headless, Audit: *auditPath, Store: sink, Approve: approve, Record: recordAllowed,
		Warn: func(msg string) { warningf("%s", msg) },
		Note: func(msg string) { fmt.Fprintf(Stderr, "warden: mcp: %s\n", msg) },
	})
	if err != nil {
		return err
	}
	if *listen != "" {
		return gw.ListenAndServe(ctx, *listen, *upstream)
	}
	if *sandboxed {
		exe, err := os.Executable()
		if err != nil {
			return badInput(fmt.Sprintf("--sandbox: cannot find the warden binary: %v", err))
		}
		argv = gateway.SandboxedServer(exe, gw.Project(), *policyPath, argv)
	}
	err = gw.RunStdio(ctx, argv, Stdin, Stdout, Stderr)
	var ee *gateway.ExitError
	if errors.As(err, &ee) {
		return &exitError{code: ee.Status}
	}
	return err
}

// mcpWait is how long a gateway's call waits for a person's answer
// through warden serve.
var mcpWait = 30 * time.Second
