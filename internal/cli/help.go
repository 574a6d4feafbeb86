// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"warden.dev/warden/internal/policyfile"
)

// This file holds what every command's --help says beyond its synopsis
// and flags: an example a user can paste and the exit statuses, and the
// suggestions made for a mistyped command. TestHelp walks every command
// and subcommand and checks each answers --help with all three.

// helpExtra is, per command (the name its flag set is given, or its
// first words), an example and its exit statuses.
var helpExtra = map[string]struct{ example, exit string }{
	"explain": {`echo '{"tool":"git_push","refs":["main"]}' | warden explain`,
		"0 for a completed decision of any verdict; 2 for bad input"},
	"run": {`warden run --audit-json run.json -- go test ./...`,
		"the command's own; 128+N when killed by signal N; 125 when the sandbox could not be built; 126 when the policy, the person or the post-run check refused; 2 for bad input"},
	"net check": {`warden net check --json https://proxy.golang.org/`,
		"0 for a completed decision of any verdict; 2 for bad input"},
	"policy show": {`warden policy show --json`,
		"0; 2 when the policy that would be in force does not load (its file:line:col), or for bad input"},
	"policy trust": {`warden policy trust`,
		"0 when the file's content is trusted; 2 for a file that does not load, one outside the project, or bad input"},
	"policy fmt": {`warden policy fmt -w policy.yaml`,
		"0; 1 with -l when a file's formatting differs; 2 for a file that does not parse"},
	"policy lint": {`warden policy lint policy.yaml`,
		"0 when there is nothing to report; 1 with findings; 2 for a file that does not parse"},
	"policy enumerate": {`warden policy enumerate --agent reviewer policy.yaml`,
		"0; 2 for a file that does not parse"},
	"policy test": {`warden policy test -v policy.yaml`,
		"0 when every example gives its expected verdict; 1 when one does not; 2 for a file that does not parse"},
	"policy remember": {`echo '{"tool":"bash","command":"npm test"}' | warden policy remember --scope workspace --ttl 720h policy.yaml`,
		"0 when the rules were written (or there was nothing to remember); 2 when nothing could be written, the file left as it was"},
	"policy import": {`warden policy import openshell sandbox-policy.yaml > policy.yaml`,
		"0 with the policy printed (a warning on stderr when constructs were narrowed or left out); 2 for a file that is not a valid OpenShell policy (file:line:col)"},
	"policy export": {`warden policy export openshell policy.yaml > sandbox-policy.yaml`,
		"0 with the OpenShell policy printed (with --lossy, a warning on stderr when rules were narrowed or left out); 1 when a rule cannot be exported exactly, nothing printed; 2 for a policy that does not load, or bad input"},
	"hook": {`warden hook claude-code --wrap < payload.json`,
		"0 with the agent's answer (allow, ask or deny, in its format); 2 for a payload Warden cannot read exactly as the agent does, which every agent treats as a block, and for --help (a hook never exits 0 without an answer)"},
	"hook install": {`warden hook install claude-code --wrap`,
		"0 when the settings hold Warden's hook (written, or already there); 2 when the settings cannot be read or written, left as they were"},
	"hook uninstall": {`warden hook uninstall claude-code --dry-run`,
		"0 when the settings hold no Warden hook (removed, or none there); 2 when the settings cannot be read or written, left as they were"},
	"init": {`warden init --dry-run`,
		"0 when Warden is set up (or already was); 2 when a file cannot be read or written, every file left as it was"},
	"mcp": {`warden mcp --tools filesystem -- npx -y @modelcontextprotocol/server-filesystem .`,
		"the server's own; 2 for bad input or a server that cannot be started"},
	"doctor": {`warden doctor --json`,
		"0 when every layer a run applies is enforced; 1 when one is not; 2 for bad input"},
	"audit": {`warden audit --since 24h --verdict deny`,
		"0; 2 for bad input or a store that cannot be read"},
	"audit export": {`warden audit export --ocsf --since 7d > warden.ocsf.jsonl`,
		"0; 2 for bad input or a store that cannot be read"},
	"audit verify": {`warden audit verify`,
		"0 when the chain holds (or nothing was recorded yet); 1 naming the first event that does not; 2 when the store cannot be read"},
	"serve": {`warden serve`,
		"0 when stopped by a signal; 2 when the store, the token or the socket cannot be made, or another warden serve runs there"},
	"approvals": {`warden approvals list`,
		"0; 2 when no warden serve answers, for an approval that does not exist or is no longer pending, or bad input"},
	"version":    {`warden version --json`, "0"},
	"completion": {`source <(warden completion bash)`, "0; 2 for a shell it does not know"},
	"man":        {`warden man run | man -l -`, "0; 2 when --dir cannot be written"},
}

// extraFor finds the help of the flag set name: the name itself, else
// its first two words, else its first.
func extraFor(name string) (example, exit string) {
	words := strings.Fields(name)
	for n := len(words); n > 0; n-- {
		if e, ok := helpExtra[strings.Join(words[:n], " ")]; ok {
			return e.example, e.exit
		}
	}
	return "", ""
}

// writeExtra writes the example and the exit statuses of name.
func writeExtra(w io.Writer, name string) {
	example, exit := extraFor(name)
	if example != "" {
		fmt.Fprintf(w, "\nExample:\n  $ %s\n", example)
	}
	if exit != "" {
		fmt.Fprintf(w, "\nExit status: %s.\n", exit)
	}
}

// group is a command with subcommands (policy, net, hook): its --help
// lists them, and an unknown one is answered with the closest.
type group struct {
	name string
	subs [][2]string // name, what it does
}

// usage writes the group's help.
func (g group) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: warden %s <subcommand> [flags] [args]\n\nSubcommands:\n", g.name)
	for _, s := range g.subs {
		fmt.Fprintf(w, "  %-12s %s\n", s[0], s[1])
	}
	fmt.Fprintf(w, "\nwarden %s SUBCOMMAND --help describes each.\n", g.name)
}

// help answers "warden NAME", "warden NAME --help" or "warden NAME
// help" without a subcommand: the list, exit 0 when asked for, 2 when
// the subcommand is missing. It reports whether it answered.
func (g group) help(args []string) (bool, error) {
	switch {
	case len(args) == 0:
		g.usage(Stderr)
		return true, &exitError{code: exitBadInput, msg: fmt.Sprintf("%s needs a subcommand: %s", g.name, g.names())}
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		g.usage(Stdout)
		return true, nil
	}
	return false, nil
}

// unknown is the error for an unknown subcommand, with the closest.
func (g group) unknown(sub string) error {
	var names []string
	for _, s := range g.subs {
		names = append(names, s[0])
	}
	return badInput(fmt.Sprintf("unknown %s subcommand %q (want %s)", g.name, sub, g.names()), suggest("warden "+g.name+" ", sub, names))
}

func (g group) names() string {
	var names []string
	for _, s := range g.subs {
		names = append(names, s[0])
	}
	return strings.Join(names, ", ")
}

// suggest is the hint for a mistyped word: the closest of names, when one
// is close (a likely typo, [policyfile.Suggest], or a name word begins).
func suggest(prefix, word string, names []string) string {
	best := policyfile.Suggest(word, names)
	if best == "" && word != "" {
		for _, n := range names {
			if strings.HasPrefix(n, word) {
				best = n
				break
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("did you mean '%s%s'?", prefix, best)
}

// runHelp is "warden help [TOPIC...]": the list of commands, or the help
// of the command TOPIC names ("warden help policy lint").
func runHelp(ctx context.Context, topic []string) int {
	if len(topic) == 0 {
		usage(Stdout)
		return exitOK
	}
	return Run(ctx, append(append([]string(nil), topic...), "--help"))
}
