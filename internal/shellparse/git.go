// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles git: global options before the subcommand, the
// subcommand's class, and the refs and hosts of network subcommands.
//
// Rules: -c key=value with a key outside a small allowlist of harmless
// settings runs code (core.pager, core.sshCommand, alias.*, filter.*,
// include.path… all make git start a program of the caller's choosing).
// An unknown subcommand may be an alias or a git-* program found on PATH:
// unresolved.

import (
	"fmt"
	"strings"

	"warden.dev/warden/internal/action"
)

// safeGitConfig lists -c keys (lower case, or prefixes ending in ".")
// that cannot make git run a program or contact another host.
var safeGitConfig = []string{
	"user.name", "user.email", "color.", "core.quotepath", "core.autocrlf", "core.safecrlf", "core.filemode",
	"core.ignorecase", "core.abbrev", "core.precomposeunicode", "advice.", "init.defaultbranch", "log.",
	"diff.renames", "diff.algorithm", "diff.noprefix", "diff.mnemonicprefix", "diff.indentheuristic",
	"merge.conflictstyle", "pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "fetch.prune",
	"commit.gpgsign", "tag.gpgsign", "gc.auto", "maintenance.auto", "safe.directory", "protocol.version",
	"column.ui", "status.", "i18n.", "rerere.enabled", "rebase.autosquash", "rebase.autostash",
	"branch.autosetupmerge", "versionsort.suffix", "format.pretty", "blame.", "grep.",
}

func gitConfigSafe(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	k = strings.ToLower(k)
	for _, s := range safeGitConfig {
		if k == s || strings.HasSuffix(s, ".") && strings.HasPrefix(k, s) {
			return true
		}
	}
	return false
}

// gitSub describes a git subcommand.
type gitSub struct {
	class action.Class
	ro    bool
	net   bool
	runs  bool
}

var gitSubs = map[string]gitSub{
	"status": {ro: true}, "diff": {ro: true}, "log": {ro: true}, "show": {ro: true}, "rev-parse": {ro: true},
	"ls-files": {ro: true}, "ls-tree": {ro: true}, "cat-file": {ro: true}, "blame": {ro: true}, "annotate": {ro: true},
	"describe": {ro: true}, "shortlog": {ro: true}, "grep": {ro: true}, "rev-list": {ro: true}, "name-rev": {ro: true},
	"merge-base": {ro: true}, "show-ref": {ro: true}, "for-each-ref": {ro: true}, "whatchanged": {ro: true},
	"version": {ro: true}, "help": {ro: true}, "count-objects": {ro: true}, "check-ignore": {ro: true},
	"check-attr": {ro: true}, "var": {ro: true}, "cherry": {ro: true}, "range-diff": {ro: true},
	"show-branch": {ro: true}, "verify-commit": {ro: true}, "verify-tag": {ro: true}, "fsck": {ro: true},
	"diff-tree": {ro: true}, "diff-files": {ro: true}, "diff-index": {ro: true}, "check-ref-format": {ro: true},
	"branch": {ro: true}, "tag": {ro: true}, "remote": {ro: true}, "config": {ro: true}, "stash": {ro: true},
	"reflog": {ro: true}, "worktree": {ro: true},
	"commit":    {class: action.GitCommit},
	"push":      {class: action.GitPush},
	"fetch":     {class: action.NetworkEgress, net: true},
	"pull":      {class: action.NetworkEgress, net: true},
	"clone":     {class: action.NetworkEgress, net: true},
	"ls-remote": {class: action.NetworkEgress, net: true},
	"clean":     {class: action.FileDelete},
	"rm":        {class: action.FileDelete},
	"add":       {}, "checkout": {}, "switch": {}, "restore": {}, "reset": {}, "merge": {}, "rebase": {},
	"cherry-pick": {}, "revert": {}, "am": {}, "apply": {}, "init": {}, "gc": {}, "prune": {}, "bisect": {},
	"notes": {}, "sparse-checkout": {}, "format-patch": {}, "archive": {}, "mv": {}, "repack": {},
	"pack-refs": {}, "replace": {}, "update-index": {}, "update-ref": {}, "symbolic-ref": {}, "write-tree": {},
	"commit-tree": {}, "read-tree": {}, "hash-object": {}, "checkout-index": {}, "mktree": {}, "maintenance": {},
	"restore-": {}, "lfs": {class: action.NetworkEgress, net: true}, "submodule": {class: action.NetworkEgress, net: true},
	"send-email":   {class: action.NetworkEgress, net: true},
	"request-pull": {},
	"difftool":     {runs: true}, "mergetool": {runs: true}, "filter-branch": {runs: true}, "filter-repo": {runs: true},
	"credential": {class: action.SecretAccess}, "credential-store": {class: action.SecretAccess},
	"credential-cache": {class: action.SecretAccess},
}

// git analyses git [global options] subcommand [args].
func (a *analyzer) git(e *env, idx int, args []field) (bool, bool) {
	return a.gitAliased(e, idx, args, true)
}

func (a *analyzer) gitAliased(e *env, idx int, args []field, expand bool) (bool, bool) {
	c := e
	i := 0
	aliases := map[string]string{}
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn {
			a.unresolved("git with an option or subcommand that is not static: " + s)
			return false, false
		}
		if !strings.HasPrefix(s, "-") {
			break
		}
		name, val, has := strings.Cut(s, "=")
		next := func() (field, bool) {
			if has {
				return field{s: val}, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return field{}, false
		}
		switch name {
		case "-C":
			v, ok := next()
			if !ok {
				return true, true
			}
			c = a.chdir(c, v)
		case "-c", "--config-env":
			v, ok := next()
			if !ok || v.dyn || !gitConfigSafe(v.s) {
				a.flag(action.FlagRunsCode)
			}
			if k, val, ok := strings.Cut(v.s, "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") && name == "-c" {
				aliases[strings.ToLower(k[len("alias."):])] = val
			}
			if v.dyn {
				a.unresolved("git -c with a value that is not static")
			} else if codeText(v.s) {
				a.flag(action.FlagRunsCode)
			}
		case "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source", "--list-cmds":
			v, ok := next()
			if ok && (name == "--git-dir" || name == "--work-tree") {
				a.path(c, v, action.Read)
			}
		case "--exec-path":
			if has {
				a.flag(action.FlagRunsCode)
			} else {
				return true, true
			}
		case "-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects", "--literal-pathspecs",
			"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice", "--no-lazy-fetch":
		case "--version", "-v", "--help", "-h", "--html-path", "--man-path", "--info-path":
			return true, true
		default:
			if strings.HasPrefix(s, "-C") && len(s) > 2 {
				c = a.chdir(c, field{s: s[2:]})
				continue
			}
			if strings.HasPrefix(s, "-c") && len(s) > 2 {
				if !gitConfigSafe(s[2:]) {
					a.flag(action.FlagRunsCode)
				}
				continue
			}
			a.unresolved("git: unknown global option " + s)
			return false, false
		}
	}
	if i >= len(args) {
		return true, true
	}
	subf := args[i]
	sub := subf.s
	rest := args[i+1:]
	if i > 0 {
		// Global options peeled: report git <subcommand> … as well, so
		// that a rule on "git push" sees it.
		idx = a.record(e, append([]field{{s: "git"}}, args[i:]...), nil, nil)
	}
	info, ok := gitSubs[sub]
	if val, isAlias := aliases[sub]; !ok && isAlias {
		// An alias given on the command line: "!cmd" is shell code run
		// with the remaining arguments, anything else a git command line.
		if !expand {
			a.unresolved("a git alias expands to another alias")
			return false, false
		}
		if sh, ok := strings.CutPrefix(val, "!"); ok {
			a.shellString(c, append([]field{{s: sh}}, rest...))
			return false, true
		}
		var argv []field
		for _, w := range strings.Fields(val) {
			argv = append(argv, field{s: w})
		}
		j := a.record(c, append(append([]field{{s: "git"}}, argv...), rest...), nil, nil)
		return a.gitAliased(c, j, append(argv, rest...), false)
	}
	if !ok {
		a.unresolved(fmt.Sprintf("unknown git subcommand %q (an alias or an external git-%s program)", sub, sub))
		return false, false
	}
	if info.class != 0 {
		a.class(info.class)
	}
	if info.runs {
		a.flag(action.FlagRunsCode)
	}
	if info.net {
		a.meta[idx].fetch = true
		for _, f := range rest {
			if !f.dyn {
				if h := gitHost(f.s); h != "" {
					a.host(h)
				}
			}
		}
	}
	ro := info.ro
	switch sub {
	case "push":
		a.push(c, rest)
	case "commit":
		opts, _ := scan(rest, "mFCcSuto", []string{"message", "file", "reuse-message", "reedit-message", "template", "author", "date", "cleanup", "fixup", "squash", "trailer", "gpg-sign"}, false)
		for _, f := range optVals(opts, "-F", "--file", "-t", "--template") {
			a.path(c, f, action.Read)
		}
	case "clean":
		opts, ops := scan(rest, "e", []string{"exclude"}, false)
		if hasOpt(opts, "-n", "--dry-run") {
			a.classes &^= 1 << action.FileDelete
			ro = true
			break
		}
		if len(ops) == 0 {
			ops = []field{{s: "."}}
		}
		for _, f := range ops {
			a.path(c, f, action.Delete)
		}
	case "rm":
		opts, ops := scan(rest, "", []string{"pathspec-from-file"}, false)
		if hasOpt(opts, "--cached", "-n", "--dry-run") {
			a.classes &^= 1 << action.FileDelete
			break
		}
		for _, f := range ops {
			a.path(c, f, action.Delete)
		}
	case "mv":
		_, ops := scan(rest, "", nil, false)
		for _, f := range ops {
			a.path(c, f, action.Write)
		}
	case "branch", "tag":
		opts, ops := scan(rest, "", []string{"contains", "no-contains", "merged", "no-merged", "sort", "format", "points-at", "color", "column"}, false)
		listing := hasOpt(opts, "-l", "--list", "-a", "--all", "-r", "--remotes", "--show-current", "-v", "-vv", "--verbose", "-n")
		if len(ops) > 0 && !listing || hasOpt(opts, "-d", "-D", "--delete", "-m", "-M", "-c", "-C", "--move", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-s", "-a", "--sign", "--annotate") && sub == "tag" && len(ops) > 0 {
			ro = false
		}
		if hasOpt(opts, "-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description") {
			ro = false
		}
	case "remote":
		_, ops := scan(rest, "t m", nil, false)
		if len(ops) > 0 && !ops[0].dyn && ops[0].s != "show" && ops[0].s != "get-url" {
			ro = false
		}
		for _, f := range ops {
			if !f.dyn {
				if h := gitHost(f.s); h != "" {
					a.host(h)
				}
			}
		}
	case "config":
		opts, ops := scan(rest, "f", []string{"file", "blob", "type", "default"}, false)
		reading := hasOpt(opts, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--show-origin", "--show-scope", "--name-only")
		if len(ops) >= 1 && !ops[0].dyn && (ops[0].s == "get" || ops[0].s == "list") {
			reading = true
		}
		if !reading && len(ops) >= 2 {
			ro = false
			key := ops[0]
			if key.s == "set" && len(ops) >= 3 {
				key = ops[1]
			}
			if key.dyn || !gitConfigSafe(key.s) {
				a.flag(action.FlagRunsCode)
			}
		} else if !reading && len(ops) == 1 {
			// git config key: a read.
		} else if !reading && hasOpt(opts, "--unset", "--unset-all", "--add", "--replace-all", "-e", "--edit", "--rename-section", "--remove-section") {
			ro = false
		}
		if strings.Contains(strings.ToLower(joinFields(ops)), "credential") {
			a.class(action.SecretAccess)
		}
	case "stash":
		if len(rest) > 0 && !rest[0].dyn && rest[0].s != "list" && rest[0].s != "show" {
			ro = false
		} else if len(rest) == 0 {
			ro = false // git stash = git stash push
		}
	case "reflog":
		if len(rest) > 0 && !rest[0].dyn && (rest[0].s == "expire" || rest[0].s == "delete") {
			ro = false
		}
	case "worktree":
		if len(rest) == 0 || rest[0].dyn || rest[0].s != "list" {
			ro = false
		}
	case "rebase":
		if hasAny(rest, "-x", "--exec", "-i", "--interactive") || hasPrefix(rest, "--exec=") {
			a.flag(action.FlagRunsCode)
		}
	case "bisect":
		if len(rest) > 0 && rest[0].s == "run" {
			a.flag(action.FlagRunsCode)
		}
	case "submodule":
		if len(rest) > 0 && rest[0].s == "foreach" {
			a.flag(action.FlagRunsCode)
		}
	case "diff", "log", "show":
		if hasAny(rest, "--ext-diff") || hasPrefix(rest, "--textconv") {
			a.flag(action.FlagRunsCode)
			ro = false
		}
		if hasPrefix(rest, "--output") {
			ro = false
			for _, f := range rest {
				if v, ok := strings.CutPrefix(f.s, "--output="); ok {
					a.path(c, field{s: v}, action.Write)
				}
			}
		}
	case "clone":
		_, ops := scan(rest, "obcujs", []string{"origin", "branch", "config", "upload-pack", "template", "reference", "separate-git-dir", "depth", "jobs", "filter"}, false)
		if hasAny(rest, "-u", "--upload-pack") || hasPrefix(rest, "--upload-pack=") || hasPrefix(rest, "--template") {
			a.flag(action.FlagRunsCode)
		}
		for _, o := range rest {
			if !o.dyn && (o.s == "-c" || o.s == "--config") {
				a.flag(action.FlagRunsCode)
			}
		}
		if len(ops) >= 2 {
			a.path(c, ops[1], action.Write)
		}
	case "grep":
		// git grep reads the work tree under the working directory.
		opts, _ := scan(rest, "efABCmO", []string{"file", "max-depth", "after-context", "before-context", "context", "max-count", "threads", "open-files-in-pager"}, false)
		if hasOpt(opts, "-O", "--open-files-in-pager") || hasPrefix(rest, "--open-files-in-pager") {
			a.flag(action.FlagRunsCode)
			ro = false
		}
		for _, f := range optVals(opts, "-f", "--file") {
			a.path(c, f, action.Read)
		}
		a.recRead(c, field{s: "."})
	case "fetch", "pull", "ls-remote":
		if hasAny(rest, "--upload-pack") || hasPrefix(rest, "--upload-pack=") {
			a.flag(action.FlagRunsCode)
		}
	}
	return ro, true
}

func hasPrefix(args []field, p string) bool {
	for _, f := range args {
		if !f.dyn && strings.HasPrefix(f.s, p) {
			return true
		}
	}
	return false
}

func joinFields(fs []field) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.s)
		b.WriteByte(' ')
	}
	return b.String()
}

// gitHost returns the host of a git remote URL or scp-like address.
func gitHost(s string) string {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "file://") {
		return ""
	}
	if strings.HasPrefix(s, "ext::") {
		return ""
	}
	if strings.Contains(s, "://") {
		return hostOf(s, false)
	}
	return remoteHost(s)
}

// push records the refs and remote of git push.
func (a *analyzer) push(e *env, args []field) {
	opts, ops := scan(args, "o", []string{"repo", "receive-pack", "exec", "push-option", "recurse-submodules"}, false)
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

// gh: the GitHub CLI.
func (a *analyzer) gh(e *env, args []field) (bool, bool) {
	a.class(action.NetworkEgress)
	i := len(a.meta) - 1
	a.meta[i].fetch = true
	host := "github.com"
	var words []string
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn {
			if len(words) < 2 {
				a.unresolved("gh with a subcommand that is not static")
			}
			continue
		}
		switch {
		case f.s == "--hostname" || f.s == "-R" || f.s == "--repo":
			if j+1 < len(args) && !args[j+1].dyn {
				if f.s == "--hostname" {
					host = args[j+1].s
				} else if strings.Count(args[j+1].s, "/") == 2 {
					host = args[j+1].s[:strings.IndexByte(args[j+1].s, '/')]
				}
			}
			j++
		case strings.HasPrefix(f.s, "-"):
		default:
			if len(words) < 2 {
				words = append(words, f.s)
			}
		}
	}
	a.host(host)
	if len(words) >= 2 && (words[0] == "pr" || words[0] == "pull-request") {
		switch words[1] {
		case "create", "new":
			a.class(action.PRCreate)
		case "merge", "review", "ready", "comment":
			a.class(action.PRPublish)
		}
	}
	if len(words) >= 1 && words[0] == "auth" && len(words) >= 2 && words[1] == "token" {
		a.class(action.SecretAccess)
	}
	if len(words) >= 2 && words[0] == "extension" || len(words) >= 1 && words[0] == "alias" {
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

func gitPrograms() map[string]handler {
	return map[string]handler{
		"git": func(a *analyzer, e *env, c call) (bool, bool) { return a.git(e, c.i, c.args) },
		"hub": func(a *analyzer, e *env, c call) (bool, bool) { return a.git(e, c.i, c.args) },
		"gh":  func(a *analyzer, e *env, c call) (bool, bool) { return a.gh(e, c.args) },
	}
}
