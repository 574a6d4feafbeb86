// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the git subcommands that run a command or reach another
// host: rebase, submodule and filter-branch, which run shell code, and
// archive --remote, clone, send-email and push. The rules, for these and
// the simpler ones gitSubcommand (git.go) reads inline:
//
//   - Options that run a program run code (--ext-diff, --textconv, grep -O,
//     rebase -i, --upload-pack, clone --template…); options that name a
//     command are peeled and the command analysed as shell code (rebase
//     --exec, bisect run, submodule foreach, filter-branch --*-filter).
//   - A remote given as a URL or an scp-like address names a host; the
//     ext:: transport runs a command.

import (
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// gitRebase: -i and --edit-todo start the sequence editor; every --exec
// command is run by the shell after each commit, and analysed as such.
func (a *analyzer) gitRebase(c *env, rest []field) {
	opts, _ := gitScan(rest, "xsXC", []string{"exec", "onto", "strategy", "strategy-option", "whitespace"},
		[]string{"interactive", "edit-todo", "root", "continue", "abort", "skip", "quit", "show-current-patch", "autosquash", "autostash", "update-refs", "rebase-merges"})
	if hasOpt(opts, "-i", "--interactive", "--edit-todo") {
		a.flag(action.FlagRunsCode)
	}
	for _, s := range optVals(opts, "-s", "--strategy") {
		if s.dyn || !slices.Contains([]string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}, s.s) {
			a.flag(action.FlagRunsCode)
		}
	}
	for _, o := range opts {
		if o.name == "-x" || o.name == "--exec" {
			if !o.has {
				a.unresolved("git rebase --exec without a command")
				continue
			}
			a.shellString(c, []field{o.val})
		}
	}
}

// gitSubmodule: foreach runs its command through the shell in every
// submodule (analysed as such); update and add fetch.
func (a *analyzer) gitSubmodule(c *env, idx int, rest []field) {
	i := 0
	for i < len(rest) && !rest[i].dyn && strings.HasPrefix(rest[i].s, "-") {
		i++ // --quiet, --cached before the verb
	}
	if i >= len(rest) {
		return // git submodule = git submodule status
	}
	if rest[i].dyn {
		a.unresolved("git submodule with a subcommand that is not static")
		return
	}
	verb, args := rest[i].s, rest[i+1:]
	switch verb {
	case "foreach":
		j := 0
		for j < len(args) && !args[j].dyn && (args[j].s == "--recursive" || args[j].s == "--quiet" || args[j].s == "-q") {
			j++
		}
		a.shellArgv(c, args[j:])
	case "status", "summary", "init", "set-branch", "set-url", "absorbgitdirs", "sync":
	case "deinit":
		a.class(action.FileDelete)
		_, ops := gitScan(args, "", nil, []string{"force", "all", "quiet"})
		for _, f := range ops {
			a.path(c, f, action.Delete)
		}
	default: // update, add, and what is not known
		a.class(action.NetworkEgress)
		a.gitNet(idx, args)
		opts, ops := gitScan(args, "b", []string{"branch", "name", "reference", "depth", "jobs", "filter"}, []string{"force", "init", "remote", "recursive", "rebase", "merge", "checkout"})
		if verb == "add" && len(ops) > 1 {
			a.path(c, ops[1], action.Write)
		}
		_ = opts
	}
}

// shellArgv runs what git runs "using the shell": one argument is a
// command line; with more, the first is shell code given the others as
// "$@", which is the argv itself when the first is a plain word.
func (a *analyzer) shellArgv(c *env, argv []field) {
	switch {
	case len(argv) == 0:
	case len(argv) == 1:
		a.shellString(c, argv)
	case !argv[0].dyn && argv[0].s != "" && strings.Trim(argv[0].s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-") == "":
		a.inner(c, argv, nil, false)
	default:
		a.unresolved("shell code given arguments by git")
		a.shellString(c, argv)
	}
}

// gitFilterBranch: every filter is shell code run for each commit.
func (a *analyzer) gitFilterBranch(c *env, rest []field) {
	filters := []string{"--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"}
	opts, _ := scan(rest, "d", []string{"subdirectory-filter", "original", "state-branch", "setup", "env-filter", "tree-filter",
		"index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"}, false)
	for _, o := range opts {
		if !slices.Contains(filters, o.name) {
			continue
		}
		if !o.has {
			a.unresolved("git filter-branch " + o.name + " without a command")
			continue
		}
		a.shellString(c, []field{o.val})
	}
	for _, f := range optVals(opts, "-d") {
		a.path(c, f, action.Write)
	}
}

// gitArchive: -o writes the archive; --remote fetches it, --exec runs a
// program there; the paths packed are read.
func (a *analyzer) gitArchive(c *env, idx int, rest []field) {
	opts, ops := gitScan(rest, "o", []string{"output", "remote", "exec", "prefix", "format", "add-file", "add-virtual-file", "mtime"}, []string{"list", "verbose", "worktree-attributes"})
	for _, f := range optVals(opts, "-o", "--output") {
		a.path(c, f, action.Write)
	}
	for _, f := range optVals(opts, "--add-file") {
		a.path(c, f, action.Read)
	}
	if hasOpt(opts, "--exec") {
		a.flag(action.FlagRunsCode)
	}
	if r := optVals(opts, "--remote"); len(r) > 0 {
		a.class(action.NetworkEgress)
		a.gitNet(idx, r)
		return
	}
	if len(ops) > 0 && !ops[0].dyn {
		a.gitObject(c, ops[0].s, true)
	}
	for _, f := range ops[min(1, len(ops)):] {
		if !f.dyn && f.s == "--" {
			continue
		}
		a.pathRec(c, f, action.Read, true)
	}
}

// gitClone: the directory cloned into is written (the last part of the
// URL without .git when none is given); --upload-pack and --template run
// programs, so does a -c key that is not harmless.
func (a *analyzer) gitClone(c *env, rest []field) {
	opts, ops := gitScan(rest, "obcuj", []string{"origin", "branch", "config", "upload-pack", "template", "reference", "reference-if-able",
		"separate-git-dir", "depth", "jobs", "filter", "shallow-since", "shallow-exclude", "server-option", "bundle-uri", "ref-format", "revision"},
		[]string{"bare", "mirror", "shared", "local", "no-checkout", "recurse-submodules", "single-branch", "quiet", "verbose"})
	if hasOpt(opts, "-u", "--upload-pack", "--template") {
		a.flag(action.FlagRunsCode)
	}
	for _, v := range optVals(opts, "-c", "--config") {
		if v.dyn || !gitConfigSafe(v.s) {
			a.flag(action.FlagRunsCode)
		}
	}
	for _, f := range optVals(opts, "--separate-git-dir") {
		a.path(c, f, action.Write)
	}
	for _, f := range optVals(opts, "--reference", "--reference-if-able") {
		a.path(c, f, action.Read)
	}
	switch {
	case len(ops) >= 2:
		a.path(c, ops[1], action.Write)
	case len(ops) == 1 && !ops[0].dyn:
		if name := cloneDir(ops[0].s); name != "" {
			a.path(c, field{s: name}, action.Write)
		}
	case len(ops) == 1:
		a.unresolved("git clone into a directory named after a URL that is not static")
	}
}

// cloneDir is the directory git clone URL creates: the URL's last part
// without .git (and without / or :).
func cloneDir(u string) string {
	u = strings.TrimRight(u, "/")
	u = strings.TrimSuffix(u, "/.git")
	if k := strings.LastIndexAny(u, "/:"); k >= 0 {
		u = u[k+1:]
	}
	u = strings.TrimSuffix(u, ".git")
	if u == "" || u == "." || u == ".." {
		return ""
	}
	return u
}

// gitSendEmail: mail goes to the SMTP server named (a path there is a
// sendmail-like program), the *-cmd options run programs, and the patch
// files given are read.
func (a *analyzer) gitSendEmail(c *env, rest []field) {
	opts, ops := gitScan(rest, "", []string{"smtp-server", "smtp-server-port", "smtp-user", "smtp-pass", "to", "cc", "bcc", "from",
		"subject", "in-reply-to", "to-cmd", "cc-cmd", "header-cmd", "identity", "smtp-domain", "smtp-encryption", "envelope-sender", "reply-to", "sendmail-cmd"}, nil)
	for _, o := range opts {
		switch o.name {
		case "--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd":
			a.flag(action.FlagRunsCode)
		case "--smtp-server":
			if o.val.dyn || strings.HasPrefix(o.val.s, "/") || strings.HasPrefix(o.val.s, ".") {
				a.flag(action.FlagRunsCode)
			} else {
				a.host(o.val.s)
			}
		}
	}
	for _, f := range ops {
		if f.dyn || looksLikeFile(f.s) && !looksLikeRev(f.s) {
			a.path(c, f, action.Read)
		}
	}
}

// push records the refs and remote of git push.
func (a *analyzer) push(e *env, args []field) {
	opts, ops := gitScan(args, "o", []string{"repo", "receive-pack", "exec", "push-option", "recurse-submodules"},
		[]string{"all", "branches", "mirror", "tags", "prune", "force", "delete", "dry-run", "follow-tags"})
	all := false
	for _, o := range opts {
		switch o.name {
		case "--all", "--branches", "--mirror", "--tags", "--prune":
			all = true
		case "--receive-pack", "--exec":
			a.flag(action.FlagRunsCode)
		case "--repo":
			if h := gitHost(o.val.s); h != "" {
				a.host(h)
			}
		}
	}
	if len(ops) > 0 {
		r := ops[0]
		if r.dyn {
			a.unresolved("git push to a remote that is not static")
		} else if h := gitHost(r.s); h != "" {
			a.host(h)
		} else if strings.HasPrefix(r.s, "ext::") {
			a.flag(action.FlagRunsCode)
		}
		ops = ops[1:]
	}
	if all {
		a.ref("**")
	}
	if len(ops) == 0 && !all {
		a.ref("HEAD")
	}
	for _, r := range ops {
		if r.dyn {
			a.unresolved("git push of a ref that is not static: " + r.s)
			continue
		}
		a.ref(r.s)
	}
}
