// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/server"
)

// approvalsGroup is warden approvals' subcommands.
var approvalsGroup = group{name: "approvals", subs: [][2]string{
	{"list", "the pending approvals (--all: every one), with their previews"},
	{"show", "one approval: what is asked, the rule, the preview, the answer"},
	{"allow", "allow the action once: allow ID [--reason R]"},
	{"deny", "deny it, with a reason the agent is told: deny ID [--reason R]"},
	{"remember", "allow it and write a scoped, expiring rule to your policy: remember ID --scope S --ttl D"},
	{"watch", "follow the pending approvals as they come (and notify-send each, where it exists)"},
}}

func runApprovals(ctx context.Context, args []string) error {
	if done, err := approvalsGroup.help(args); done {
		return err
	}
	switch args[0] {
	case "list":
		return approvalsList(ctx, args[1:])
	case "show":
		return approvalsShow(ctx, args[1:])
	case "allow", "deny", "remember":
		return approvalsAnswer(ctx, args[0], args[1:])
	case "watch":
		return approvalsWatch(ctx, args[1:])
	}
	return approvalsGroup.unknown(args[0])
}

// serveAPI calls warden serve's API on the state directory's socket.
func serveAPI(method, path, token string, body any, out any) error {
	dir := contain.StateDir()
	if dir == "" {
		return badInput("no state directory", "set WARDEN_STATE_DIR")
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://warden"+path, rd)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := serveClient(dir, 10*time.Second).Do(req)
	if err != nil {
		return badInput(fmt.Sprintf("no warden serve answers on %s: %v", filepath.Join(dir, socketName), err), "start it: warden serve")
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		json.Unmarshal(b, &e)
		if e.Error == "" {
			e.Error = strings.TrimSpace(string(b))
		}
		return badInput(e.Error)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

func approvalsList(_ context.Context, args []string) error {
	fs := newFlags("approvals list", "approvals list [--all] [--json]")
	all := fs.Bool("all", false, "every approval, answered and expired too")
	asJSON := fs.Bool("json", false, "print JSON")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return badInput(fmt.Sprintf("approvals list takes no arguments, got %q", pos[0]))
	}
	path := "/v1/approvals"
	if *all {
		path += "?all=1"
	}
	var as []server.ApprovalJSON
	if err := serveAPI("GET", path, "", nil, &as); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(as)
	}
	if len(as) == 0 {
		fmt.Fprintln(Stdout, "no approvals pending")
		return nil
	}
	for _, a := range as {
		report.Approval(Stdout, a, false)
	}
	return nil
}

func approvalsShow(_ context.Context, args []string) error {
	fs := newFlags("approvals show", "approvals show ID [--json]")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("approvals show takes one approval id", "warden approvals list shows them")
	}
	var a server.ApprovalJSON
	if err := serveAPI("GET", "/v1/approvals/"+pos[0], "", nil, &a); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(a)
	}
	report.Approval(Stdout, a, true)
	return nil
}

// approvalsAnswer answers an approval. A person answers at a terminal;
// anything else (a script a person wrote) says so with
// --yes-i-am-a-person and gives the token itself.
func approvalsAnswer(_ context.Context, answer string, args []string) error {
	name := "approvals " + answer
	synopsis := name + " ID [--reason R] [--yes-i-am-a-person --token T]"
	if answer == "remember" {
		synopsis = name + " ID --scope S --ttl D [--yes-i-am-a-person --token T]"
	}
	fs := newFlags(name, synopsis)
	reason := fs.String("reason", "", "why, told to the agent with a deny")
	scope := fs.String("scope", "", "remember: the rule's `scope`: workspace, agent:<id> or space:<id>")
	ttl := fs.String("ttl", "", "remember: how long the rule lasts, e.g. 8h")
	person := fs.Bool("yes-i-am-a-person", false, "answer without a terminal (a script a person wrote); needs --token")
	token := fs.String("token", "", "the API `token` (the token file in the state directory), with --yes-i-am-a-person")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput(name+" takes one approval id", "warden approvals list shows them")
	}
	tok := *token
	switch {
	case *person:
		if tok == "" {
			return badInput("--yes-i-am-a-person needs --token", "the token is the file "+filepath.Join(contain.StateDir(), tokenName))
		}
	case isTerminalFile(Stdin):
		b, err := readNoFollow(filepath.Join(contain.StateDir(), tokenName))
		if err != nil {
			return badInput(fmt.Sprintf("the API token: %v", err), "is warden serve running on this state directory?")
		}
		tok = strings.TrimSpace(string(b))
	default:
		return badInput("an approval is answered by a person, at a terminal",
			"a script a person wrote passes --yes-i-am-a-person --token T")
	}
	if answer == "remember" && (*scope == "" || *ttl == "") {
		return badInput("remember needs --scope and --ttl", "e.g. --scope workspace --ttl 8h")
	}
	var a server.ApprovalJSON
	body := server.AnswerRequest{Answer: answer, Reason: *reason, Scope: *scope, TTL: *ttl}
	if err := serveAPI("POST", "/v1/approvals/"+pos[0], tok, body, &a); err != nil {
		return err
	}
	fmt.Fprintf(Stdout, "%s: %s\n", a.ID, a.State)
	if a.Answer != nil && a.Answer.Rule != "" {
		fmt.Fprintf(Stdout, "remembered: %s\n", a.Answer.Rule)
	}
	return nil
}

// approvalsWatch prints each approval as it comes, until interrupted.
func approvalsWatch(ctx context.Context, args []string) error {
	fs := newFlags("approvals watch", "approvals watch")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return badInput(fmt.Sprintf("approvals watch takes no arguments, got %q", pos[0]))
	}
	notify, _ := exec.LookPath("notify-send")
	seen := map[string]bool{}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		var as []server.ApprovalJSON
		if err := serveAPI("GET", "/v1/approvals", "", nil, &as); err != nil {
			return err
		}
		for _, a := range as {
			if seen[a.ID] {
				continue
			}
			seen[a.ID] = true
			report.Approval(Stdout, a, false)
			fmt.Fprintf(Stdout, "    answer: warden approvals allow %s | deny %s --reason R | remember %s --scope S --ttl D\n", a.ID, a.ID, a.ID)
			if notify != "" {
				exec.Command(notify, "Warden: "+report.Dash(a.Request.Agent)+" asks", a.Request.Tool+": "+a.Request.Subject).Run()
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
