// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles gh, the GitHub CLI, and hub, which is git with GitHub
// commands of its own that are gh's; both are registered with git
// (gitPrograms, git.go). Every use of gh talks to the GitHub host:
// networkEgress; pr create is prCreate, pr merge, review, ready and
// comment prPublish; the files it uploads are reads, its downloads
// writes; secrets and tokens are secretAccess; repo and release delete
// are fileDelete; an extension or alias, and a config key naming a
// program, run code.

import (
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// hub is git with GitHub commands of its own, which are gh's: hub
// pull-request is gh pr create, hub delete gh repo delete, and so on.
// Anything else is git, and reported as git … as well, so that a rule on
// "git push" sees hub push.
func (a *analyzer) hub(e *env, args []field) (bool, bool) {
	if len(args) > 0 && !args[0].dyn {
		rest := args[1:]
		switch args[0].s {
		case "pull-request":
			return a.gh(e, append([]field{{s: "pr"}, {s: "create"}}, rest...))
		case "pr", "release", "issue", "gist", "api":
			return a.gh(e, args)
		case "delete":
			return a.gh(e, append([]field{{s: "repo"}, {s: "delete"}}, rest...))
		case "create", "fork", "ci-status", "browse", "compare", "sync":
			return a.gh(e, append([]field{{s: "repo"}}, args...))
		}
	}
	return a.git(e, a.record(e, append([]field{{s: "git"}}, args...), nil, nil), args)
}

// ghCommands are gh's own top-level commands; any other word is an
// extension or an alias, which runs code.
var ghCommands = strings.Fields(`agent-task alias api attestation auth browse cache codespace completion config copilot
	extension extensions ext gist gpg-key help issue label org pr project release repo ruleset run search secret
	ssh-key status variable workflow version accessibility licenses preview cs`)

// ghConfigSafe are the gh config keys that do not name a program.
var ghConfigSafe = []string{"git_protocol", "prompt", "prefer_editor_prompt", "spinner", "color_labels",
	"accessible_colors", "accessible_prompter", "telemetry"}

// gh: the GitHub CLI. Every use talks to the GitHub host; the files it
// uploads (release assets, gists, --body-file, api --input and -F k=@f)
// are reads; downloads write; secrets and tokens are secretAccess;
// repo and release delete are fileDelete; an extension or alias, and a
// config key naming a program, run code.
func (a *analyzer) gh(e *env, args []field) (bool, bool) {
	a.class(action.NetworkEgress)
	i := len(a.meta) - 1
	a.meta[i].fetch = true
	host := "github.com"
	var words []string
	var others []field
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn {
			if len(words) < 2 {
				a.unresolved("gh with a subcommand that is not static")
			}
			others = append(others, f)
			continue
		}
		switch {
		case f.s == "--":
			others = append(others, args[j:]...)
			j = len(args)
		case f.s == "--hostname" || f.s == "-R" || f.s == "--repo":
			if j+1 < len(args) && !args[j+1].dyn {
				if f.s == "--hostname" {
					host = args[j+1].s
				} else if strings.Count(args[j+1].s, "/") == 2 {
					host = args[j+1].s[:strings.IndexByte(args[j+1].s, '/')]
				}
			}
			j++
		case strings.HasPrefix(f.s, "--hostname="):
			host = f.s[len("--hostname="):]
		case strings.HasPrefix(f.s, "-") || len(words) >= 2:
			others = append(others, f)
		default:
			words = append(words, f.s)
		}
	}
	a.host(host)
	if len(words) == 0 {
		return false, true
	}
	w0, w1 := words[0], ""
	if len(words) > 1 {
		w1 = words[1]
	}
	if !slices.Contains(ghCommands, w0) {
		a.flag(action.FlagRunsCode) // an extension or an alias
		return false, true
	}
	switch w0 {
	case "pr", "pull-request", "issue":
		if w0 != "issue" {
			switch w1 {
			case "create", "new":
				a.class(action.PRCreate)
			case "merge", "review", "ready", "comment":
				a.class(action.PRPublish)
			}
		}
		opts, _ := scan(others, "FtbBHlamprRsAS", []string{"body-file", "title", "body", "base", "head", "label", "assignee", "milestone", "project", "reviewer", "repo", "template"}, false)
		for _, f := range optVals(opts, "-F", "--body-file") {
			a.path(e, f, action.Read)
		}
	case "release":
		opts, ops := scan(others, "tnFRDOpAam", []string{"title", "notes", "notes-file", "target", "discussion-category", "notes-start-tag", "repo", "dir", "output", "pattern", "archive", "attach", "message", "file"}, false)
		// -a, --attach and -m, --file are hub release's.
		for _, f := range optVals(opts, "-F", "--notes-file", "-a", "--attach", "--file") {
			a.path(e, f, action.Read)
		}
		switch w1 {
		case "create", "new", "upload":
			// release create TAG FILES…, release upload TAG FILES…; a
			// file may carry a #label.
			for _, f := range ops[min(1, len(ops)):] {
				if !f.dyn {
					if p, _, ok := strings.Cut(f.s, "#"); ok {
						f = field{s: p}
					}
				}
				a.path(e, f, action.Read)
			}
		case "download":
			out := append(optVals(opts, "-D", "--dir"), optVals(opts, "-O", "--output")...)
			if len(out) == 0 {
				out = []field{{s: "."}}
			}
			for _, f := range out {
				a.path(e, f, action.Write)
			}
		case "delete", "delete-asset":
			a.class(action.FileDelete)
		}
	case "gist":
		opts, ops := scan(others, "dfa", []string{"desc", "filename", "add"}, false)
		if w1 == "create" || w1 == "new" {
			for _, f := range ops {
				a.path(e, f, action.Read)
			}
		}
		for _, f := range optVals(opts, "-a", "--add") {
			a.path(e, f, action.Read)
		}
	case "api":
		opts, ops := scan(others, "XHfFqtp", []string{"method", "header", "field", "raw-field", "jq", "template", "input", "preview", "cache", "hostname"}, false)
		for _, f := range optVals(opts, "--input") {
			a.path(e, f, action.Read)
		}
		for _, f := range optVals(opts, "-F", "--field") {
			if f.dyn {
				a.unresolved("gh api -F with a value that is not static")
				continue
			}
			if _, v, ok := strings.Cut(f.s, "="); ok && strings.HasPrefix(v, "@") {
				a.path(e, field{s: v[1:]}, action.Read)
			}
		}
		for _, f := range ops {
			if !f.dyn && strings.Contains(f.s, "://") {
				a.host(hostOf(f.s, false))
			}
		}
	case "secret":
		a.class(action.SecretAccess)
		opts, _ := scan(others, "bfeoavru", []string{"body", "env-file", "env", "org", "app", "visibility", "repos", "user"}, false)
		for _, f := range optVals(opts, "-f", "--env-file") {
			a.path(e, f, action.Read)
		}
	case "variable":
		opts, _ := scan(others, "bfeor", []string{"body", "env-file", "env", "org", "repos", "visibility"}, false)
		for _, f := range optVals(opts, "-f", "--env-file") {
			a.path(e, f, action.Read)
		}
	case "auth":
		switch w1 {
		case "token", "git-credential", "login", "refresh":
			a.class(action.SecretAccess)
		case "status":
			if hasAny(others, "-t", "--show-token") {
				a.class(action.SecretAccess)
			}
		}
	case "repo":
		switch w1 {
		case "delete":
			a.class(action.FileDelete)
		case "clone":
			a.ghClone(e, others)
		}
	case "run":
		if w1 == "download" {
			opts, _ := scan(others, "Dnp", []string{"dir", "name", "pattern"}, false)
			out := optVals(opts, "-D", "--dir")
			if len(out) == 0 {
				out = []field{{s: "."}}
			}
			for _, f := range out {
				a.path(e, f, action.Write)
			}
		}
	case "config":
		if w1 == "set" {
			_, ops := scan(others, "h", []string{"host"}, false)
			if len(ops) == 0 || ops[0].dyn || !slices.Contains(ghConfigSafe, ops[0].s) {
				a.flag(action.FlagRunsCode) // editor, pager, browser…
			}
		}
	case "ssh-key", "gpg-key":
		if w1 == "add" {
			_, ops := scan(others, "tw", []string{"title", "type"}, false)
			for _, f := range ops {
				a.path(e, f, action.Read)
			}
		}
	case "extension", "extensions", "ext", "alias":
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

// ghClone: gh repo clone REPO [DIR] [-- git clone flags] writes DIR (the
// repository's name by default); git flags beyond a few harmless ones
// are taken to run code, as git clone's -c, -u and --template do.
func (a *analyzer) ghClone(e *env, others []field) {
	before, after, _ := splitDash(others)
	_, ops := scan(before, "u", []string{"upstream-remote-name"}, false)
	switch {
	case len(ops) >= 2:
		a.path(e, ops[1], action.Write)
	case len(ops) == 1 && !ops[0].dyn:
		if name := cloneDir(ops[0].s); name != "" {
			a.path(e, field{s: name}, action.Write)
		}
	}
	for _, f := range after {
		name, _, _ := strings.Cut(f.s, "=")
		if f.dyn || !slices.Contains([]string{"--depth", "--branch", "-b", "--single-branch", "--filter", "--recurse-submodules", "-q", "--quiet", "--no-tags", "--shallow-submodules"}, name) && strings.HasPrefix(f.s, "-") {
			a.flag(action.FlagRunsCode)
		}
	}
}
