// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles git (and hub, which is git) and gh: global options
// before the subcommand, the subcommand's class, and its facets.
//
// Rules:
//
//   - -c key=value and --config-env key=VAR with a key outside a small
//     allowlist of harmless settings run code (core.pager, core.sshCommand,
//     alias.*, filter.*, include.path… all make git start a program of the
//     caller's choosing, and a key not listed is taken to be one of them).
//   - Options that run a program run code (--ext-diff, --textconv, grep -O,
//     rebase -i, --upload-pack, clone --template…); options that name a
//     command are peeled and the command analysed as shell code (rebase
//     --exec, bisect run, submodule foreach, filter-branch --*-filter).
//   - Files written by option are write facets (config --global|--system|
//     --file, --output, format-patch -o, archive -o, worktree add, clone,
//     init, bundle create), so that a write outside the project is seen.
//   - What discards work is fileDelete with the paths it discards where
//     they are known (reset --hard, checkout -- PATH, checkout -f, restore,
//     clean, stash drop|clear, branch -d, tag -d, worktree remove, gc
//     --prune, prune, reflog expire, update-ref -d).
//   - What git reads for the caller is a read facet, so that the sensitive
//     floor applies to it: rev:path and :path name the file path under the
//     top of the repository (the project, when git runs inside it), ./path
//     under the working directory; pathspecs and --no-index operands are
//     files.
//   - Long options of the subcommands parsed by git's parse-options may be
//     abbreviated (--exe for --exec): a prefix of one listed option is that
//     option.
//   - An unknown subcommand may be an alias or a git-* program found on
//     PATH: unresolved.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

// safeGitConfig lists -c keys (lower case, or prefixes ending in ".")
// that cannot make git run a program or contact another host. It is an
// allowlist: every key not listed runs code.
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
	"clean":     {},
	"rm":        {},
	"add":       {}, "checkout": {}, "switch": {}, "restore": {}, "reset": {}, "merge": {}, "rebase": {},
	"cherry-pick": {}, "revert": {}, "am": {}, "apply": {}, "init": {}, "gc": {}, "prune": {}, "bisect": {},
	"notes": {}, "sparse-checkout": {}, "format-patch": {}, "archive": {}, "mv": {}, "repack": {},
	"pack-refs": {}, "replace": {}, "update-index": {}, "update-ref": {}, "symbolic-ref": {}, "write-tree": {},
	"commit-tree": {}, "read-tree": {}, "hash-object": {}, "checkout-index": {}, "mktree": {}, "maintenance": {},
	"restore-": {}, "lfs": {class: action.NetworkEgress, net: true}, "submodule": {},
	"send-email":   {class: action.NetworkEgress, net: true},
	"request-pull": {}, "bundle": {},
	"difftool": {runs: true}, "mergetool": {runs: true}, "filter-branch": {}, "filter-repo": {runs: true},
	"daemon": {class: action.NetworkEgress, runs: true}, "instaweb": {class: action.NetworkEgress, runs: true},
	"gui": {runs: true}, "citool": {runs: true},
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
			// git itself refuses -Cdir and -ckey=value; read them as git
			// would if it did not.
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
		a.gitNet(idx, rest)
	}
	return a.gitSubcommand(c, idx, sub, rest, info.ro), true
}

// gitNet records a subcommand that contacts a remote: the hosts of its
// operands, and the ext:: transport, which runs a command.
func (a *analyzer) gitNet(idx int, rest []field) {
	a.meta[idx].fetch = true
	for _, f := range rest {
		if f.dyn {
			continue
		}
		if h := gitHost(f.s); h != "" {
			a.host(h)
		}
		if _, v, ok := strings.Cut(f.s, "="); strings.HasPrefix(f.s, "ext::") || ok && strings.HasPrefix(v, "ext::") {
			a.flag(action.FlagRunsCode)
		}
	}
}

// gitSubcommand classifies the arguments of one subcommand and reports
// whether it only reads.
func (a *analyzer) gitSubcommand(c *env, idx int, sub string, rest []field, ro bool) bool {
	switch sub {
	case "push":
		a.push(c, rest)
	case "commit":
		opts, _ := gitScan(rest, "mFCcSuto", []string{"message", "file", "reuse-message", "reedit-message", "template", "author", "date", "cleanup", "fixup", "squash", "trailer", "gpg-sign"}, nil)
		for _, f := range optVals(opts, "-F", "--file", "-t", "--template") {
			a.path(c, f, action.Read)
		}
	case "clean":
		opts, ops := gitScan(rest, "e", []string{"exclude"}, []string{"dry-run", "force", "interactive", "quiet"})
		if hasOpt(opts, "-n", "--dry-run") {
			ro = true
			break
		}
		a.class(action.FileDelete)
		if len(ops) == 0 {
			ops = []field{{s: "."}}
		}
		for _, f := range ops {
			a.gitPathspec(c, f, action.Delete)
		}
	case "rm":
		opts, ops := gitScan(rest, "", []string{"pathspec-from-file"}, []string{"cached", "dry-run", "force", "recursive"})
		if hasOpt(opts, "--cached", "-n", "--dry-run") {
			break // only the index: the file stays
		}
		a.class(action.FileDelete)
		for _, f := range ops {
			a.gitPathspec(c, f, action.Delete)
		}
		for _, f := range optVals(opts, "--pathspec-from-file") {
			a.path(c, f, action.Read)
		}
	case "mv":
		_, ops := scan(rest, "", nil, false)
		for _, f := range ops {
			a.path(c, f, action.Write)
		}
	case "add":
		a.gitAdd(c, rest)
	case "branch", "tag":
		ro = a.gitBranch(c, sub, rest)
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
				if strings.HasPrefix(f.s, "ext::") {
					a.flag(action.FlagRunsCode) // the next fetch runs it
				}
			}
		}
	case "help":
		if hasAny(rest, "-w", "--web") || hasPrefix(rest, "--web") {
			a.flag(action.FlagRunsCode) // the browser of web.browser
		}
	case "config":
		ro = a.gitConfig(c, rest)
	case "stash":
		ro = a.gitStash(c, rest)
	case "reflog":
		if len(rest) > 0 && !rest[0].dyn && (rest[0].s == "expire" || rest[0].s == "delete") {
			ro = false
			a.class(action.FileDelete)
		}
	case "worktree":
		ro = a.gitWorktree(c, rest)
	case "reset":
		opts, _ := gitScan(rest, "", []string{"pathspec-from-file"}, []string{"hard", "soft", "mixed", "merge", "keep", "patch", "quiet", "recurse-submodules"})
		if hasOpt(opts, "--hard", "--merge", "--keep") {
			// --hard discards every change of the work tree; --merge and
			// --keep refuse to, but overwrite the files that differ.
			a.class(action.FileDelete)
			a.gitWorkTree(c, action.Delete)
		}
		for _, f := range optVals(opts, "--pathspec-from-file") {
			a.path(c, f, action.Read)
		}
	case "checkout":
		a.gitCheckout(c, rest)
	case "switch":
		opts, _ := gitScan(rest, "cC", []string{"create", "force-create", "orphan", "conflict"}, []string{"force", "discard-changes", "merge", "detach", "guess", "track", "quiet", "progress", "ignore-other-worktrees", "recurse-submodules"})
		if hasOpt(opts, "-f", "--force", "--discard-changes") {
			a.class(action.FileDelete)
			a.gitWorkTree(c, action.Delete)
		}
	case "restore":
		a.gitRestore(c, rest)
	case "gc":
		opts, _ := gitScan(rest, "", nil, []string{"prune", "no-prune", "aggressive", "auto", "quiet", "force", "keep-largest-pack"})
		if hasOpt(opts, "--prune") {
			a.class(action.FileDelete)
		}
	case "prune":
		opts, _ := gitScan(rest, "", []string{"expire"}, []string{"dry-run", "verbose", "progress"})
		if !hasOpt(opts, "-n", "--dry-run") {
			a.class(action.FileDelete)
		}
	case "read-tree":
		// -u with --reset or -m overwrites the work tree.
		if hasAny(rest, "-u") && (hasAny(rest, "--reset", "-m") || hasPrefix(rest, "--reset")) {
			a.class(action.FileDelete)
			a.gitWorkTree(c, action.Delete)
		}
	case "checkout-index":
		// -f overwrites the files it checks out; -a is every file.
		opts, ops := gitScan(rest, "", []string{"prefix", "stage"}, []string{"force", "all", "index", "quiet", "stdin", "temp", "no-create"})
		if hasOpt(opts, "-f", "--force") {
			a.class(action.FileDelete)
			if hasOpt(opts, "-a", "--all") || hasOpt(opts, "--stdin") {
				a.gitWorkTree(c, action.Delete)
			}
			for _, f := range ops {
				a.gitPathspec(c, f, action.Delete)
			}
		}
		for _, f := range optVals(opts, "--prefix") {
			a.path(c, f, action.Write)
		}
	case "update-ref", "symbolic-ref":
		opts, _ := gitScan(rest, "m", nil, []string{"delete", "stdin", "no-deref", "create-reflog", "quiet", "short", "recurse"})
		if hasOpt(opts, "-d", "--delete") || sub == "update-ref" && hasOpt(opts, "--stdin") {
			a.class(action.FileDelete)
		}
	case "rebase":
		a.gitRebase(c, rest)
	case "merge", "pull", "cherry-pick", "revert":
		opts, _ := gitScan(rest, "sXmF", []string{"strategy", "strategy-option", "message", "file", "upload-pack", "mainline", "cleanup"}, []string{"edit"})
		for _, s := range optVals(opts, "-s", "--strategy") {
			if s.dyn || !slices.Contains([]string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}, s.s) {
				// git merge-<strategy> is a program found on PATH.
				a.flag(action.FlagRunsCode)
			}
		}
		for _, f := range optVals(opts, "-F", "--file") {
			a.path(c, f, action.Read)
		}
		if hasOpt(opts, "--upload-pack", "-e", "--edit") {
			a.flag(action.FlagRunsCode) // --edit: the editor
		}
	case "bisect":
		if len(rest) > 1 && !rest[0].dyn && rest[0].s == "run" {
			// git bisect run CMD ARGS quotes CMD ARGS for the shell: it
			// runs them as they are.
			a.inner(c, rest[1:], nil, false)
		}
	case "submodule":
		a.gitSubmodule(c, idx, rest)
	case "filter-branch":
		a.gitFilterBranch(c, rest)
	case "diff", "log", "show", "whatchanged", "format-patch", "diff-tree", "diff-index", "diff-files", "range-diff":
		ro = a.gitDiff(c, sub, rest, ro)
	case "blame", "annotate":
		opts, ops := gitScan(rest, "LS", []string{"contents", "ignore-rev", "ignore-revs-file", "date"}, []string{"textconv", "incremental", "porcelain"})
		if hasOpt(opts, "--textconv") {
			a.flag(action.FlagRunsCode)
			ro = false
		}
		for _, f := range optVals(opts, "--contents", "--ignore-revs-file", "-S") {
			a.path(c, f, action.Read)
		}
		a.gitReads(c, ops, true)
	case "cat-file":
		opts, ops := gitScan(rest, "", []string{"path"}, []string{"textconv", "filters", "batch", "batch-check", "batch-command", "batch-all-objects"})
		if hasOpt(opts, "--textconv", "--filters") {
			a.flag(action.FlagRunsCode)
			ro = false
		}
		if hasOpt(opts, "--batch", "--batch-check", "--batch-command") && !hasOpt(opts, "--batch-all-objects") {
			a.unresolved("git cat-file reads the names of the objects it prints from standard input")
		}
		for _, f := range optVals(opts, "--path") {
			a.gitTop(c, f, action.Read, false)
		}
		for _, f := range ops {
			if f.dyn {
				a.unresolved("git cat-file of an object that is not static")
				continue
			}
			a.gitObject(c, f.s, false)
		}
	case "grep":
		ro = a.gitGrep(c, rest, ro)
	case "archive":
		a.gitArchive(c, idx, rest)
	case "clone":
		a.gitClone(c, rest)
	case "init":
		opts, ops := gitScan(rest, "b", []string{"template", "separate-git-dir", "object-format", "ref-format", "initial-branch"}, []string{"bare", "quiet"})
		if hasOpt(opts, "--template") {
			// The template's hooks run at the next commit, merge or push.
			a.flag(action.FlagRunsCode)
		}
		for _, f := range optVals(opts, "--separate-git-dir") {
			a.path(c, f, action.Write)
		}
		if len(ops) == 0 {
			ops = []field{{s: "."}}
		}
		a.path(c, ops[0], action.Write)
	case "bundle":
		if len(rest) > 1 && !rest[0].dyn {
			_, ops := scan(rest[1:], "", nil, false)
			if len(ops) > 0 {
				acc := action.Read
				if rest[0].s == "create" {
					acc = action.Write
				}
				a.path(c, ops[0], acc)
			}
		}
	case "apply", "am":
		opts, ops := gitScan(rest, "p", []string{"directory", "exclude", "include", "whitespace", "patch-format", "resolvemsg", "build-fake-ancestor"}, []string{"unsafe-paths"})
		for _, f := range ops {
			a.path(c, f, action.Read)
		}
		if hasOpt(opts, "--unsafe-paths") {
			// The patch may then write outside the work tree.
			if d := optVals(opts, "--directory"); len(d) > 0 {
				for _, f := range d {
					a.path(c, f, action.Write)
				}
			} else {
				a.unresolved("git apply --unsafe-paths writes the paths its patch names")
			}
		}
	case "hash-object":
		opts, ops := gitScan(rest, "t", []string{"path"}, []string{"stdin", "stdin-paths", "no-filters"})
		for _, f := range ops {
			a.path(c, f, action.Read)
		}
		if hasOpt(opts, "--stdin-paths") {
			a.unresolved("git hash-object reads the paths it hashes from standard input")
		}
	case "notes":
		opts, ops := gitScan(rest, "FmcC", []string{"file", "message", "reuse-message", "reedit-message", "ref"}, nil)
		for _, f := range optVals(opts, "-F", "--file") {
			a.path(c, f, action.Read)
		}
		if len(ops) > 0 && !ops[0].dyn && (ops[0].s == "edit" || (ops[0].s == "add" || ops[0].s == "append") &&
			!hasOpt(opts, "-m", "--message", "-F", "--file", "-C", "--reuse-message")) {
			a.flag(action.FlagRunsCode) // the editor
		}
	case "replace":
		if hasAny(rest, "-e", "--edit") || hasPrefix(rest, "--ed") {
			a.flag(action.FlagRunsCode) // the editor
		}
	case "send-email":
		a.gitSendEmail(c, rest)
	case "fetch", "ls-remote":
		opts, _ := gitScan(rest, "", []string{"upload-pack"}, nil)
		if hasOpt(opts, "--upload-pack") {
			a.flag(action.FlagRunsCode)
		}
	}
	// The diff options that run a program are taken by every command that
	// shows a diff (stash show, range-diff, log…).
	if before, _, _ := splitDash(rest); hasAny(before, "--ext-diff", "--textconv") {
		a.flag(action.FlagRunsCode)
		ro = false
	}
	return ro
}

// gitScan is scan for the git subcommands parsed by git's parse-options,
// which take an unambiguous prefix of a long option for the option: a
// prefix of exactly one name of long (options with a value) or flags is
// reported under that name. Other names stay as written.
func gitScan(args []field, short string, long, flags []string) ([]opt, []field) {
	exp := args
	for i, f := range args {
		if f.dyn {
			continue
		}
		if f.s == "--" {
			break
		}
		if !strings.HasPrefix(f.s, "--") {
			continue
		}
		name, val, has := strings.Cut(f.s[2:], "=")
		full := gitLong(name, long, flags)
		if full == "" || full == name {
			continue
		}
		if len(exp) > 0 && &exp[0] == &args[0] {
			exp = slices.Clone(args)
		}
		s := "--" + full
		if has {
			s += "=" + val
		}
		exp[i] = field{s: s}
	}
	return scan(exp, short, long, false)
}

// gitLong returns the listed option that name spells or abbreviates
// without ambiguity, or "".
func gitLong(name string, long, flags []string) string {
	if name == "" || slices.Contains(long, name) || slices.Contains(flags, name) {
		return name
	}
	found := ""
	for _, l := range [][]string{long, flags} {
		for _, o := range l {
			if strings.HasPrefix(o, name) {
				if found != "" && found != o {
					return ""
				}
				found = o
			}
		}
	}
	return found
}

// splitDash splits args at the first static "--": what follows is
// pathspecs.
func splitDash(args []field) (before, after []field, dash bool) {
	for i, f := range args {
		if !f.dyn && f.s == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

// gitObjectPath returns the path an object name rev:path, :path or
// :stage:path names, "" when it names no path (:/text searches the
// commit messages; rev: is a tree).
func gitObjectPath(s string) string {
	var p string
	switch {
	case strings.HasPrefix(s, ":/"):
		return ""
	case strings.HasPrefix(s, ":"):
		p = s[1:]
		if len(p) >= 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
			p = p[2:]
		}
	default:
		depth, at := 0, -1
		for j := 0; j < len(s) && at < 0; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth = max(depth-1, 0)
			case ':':
				if depth == 0 {
					at = j
				}
			}
		}
		if at <= 0 {
			return ""
		}
		p = s[at+1:]
	}
	return p
}

// gitObject records the read of the file an object name names, and
// reports whether it names one.
func (a *analyzer) gitObject(e *env, s string, rec bool) bool {
	p := gitObjectPath(s)
	if p == "" {
		return false
	}
	a.gitTop(e, field{s: p}, action.Read, rec)
	return true
}

// gitTop records a path that git takes relative to the top of the
// repository, or to the working directory when it starts with ./ or
// ../. The top is the project when git runs inside it, else the
// working directory.
func (a *analyzer) gitTop(e *env, f field, acc action.Access, rec bool) {
	if f.dyn {
		a.pathRec(e, f, acc, rec)
		return
	}
	p := path.Clean(f.s)
	if e.cwd == nil || strings.HasPrefix(p, "/") || p == "." || p == ".." || strings.HasPrefix(f.s, "./") || strings.HasPrefix(p, "../") {
		a.pathRec(e, field{s: p}, acc, rec)
		return
	}
	if acc != action.Read {
		a.notRO = true
	}
	for _, top := range a.gitTops(e) {
		a.addPath(join(top, p), acc, rec)
	}
}

// gitTops returns the candidate tops of the repository: the project when
// git runs inside it, else the working directory; nil if that is not
// known.
func (a *analyzer) gitTops(e *env) []string {
	if e.cwd == nil {
		return nil
	}
	root := path.Clean(a.opt.Cwd)
	out := make([]string, 0, len(e.cwd))
	for _, d := range e.cwd {
		top := d
		if cd := path.Clean(d); root != "." && (cd == root || strings.HasPrefix(cd, strings.TrimSuffix(root, "/")+"/")) {
			top = root
		}
		if !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	return out
}

// gitWorkTree records the whole work tree: its top.
func (a *analyzer) gitWorkTree(e *env, acc action.Access) {
	tops := a.gitTops(e)
	if tops == nil {
		a.pathRec(e, field{s: "."}, acc, false)
		return
	}
	if acc != action.Read {
		a.notRO = true
	}
	for _, t := range tops {
		a.addPath(t, acc, false)
	}
}

// gitPathspec records a pathspec operand: a file under the working
// directory, or under the top of the repository with the :/ and :(top)
// magic; an excluding pathspec names nothing.
func (a *analyzer) gitPathspec(e *env, f field, acc action.Access) {
	if f.dyn || !strings.HasPrefix(f.s, ":") {
		a.pathRec(e, f, acc, false)
		return
	}
	s := f.s[1:]
	top := false
	switch {
	case strings.HasPrefix(s, "("):
		magic, after, ok := strings.Cut(s[1:], ")")
		if !ok || strings.Contains(magic, "exclude") {
			return
		}
		top = strings.Contains(magic, "top")
		s = after
	case strings.HasPrefix(s, "!") || strings.HasPrefix(s, "^"):
		return
	case strings.HasPrefix(s, "/"):
		top = true
		s = s[1:]
	}
	if top {
		if s == "" || s == "." {
			a.gitWorkTree(e, acc)
			return
		}
		a.gitTop(e, field{s: s}, acc, false)
		return
	}
	a.pathRec(e, field{s: s}, acc, false)
}

// gitReads records the reads of the operands of a command that takes
// revisions and paths (show, diff, log, blame): an object name's file,
// and every operand that looks like a file rather than a revision; with
// files, every operand that is not a revision (blame); after "--",
// every operand.
func (a *analyzer) gitReads(e *env, ops []field, files bool) {
	dash := false
	for _, f := range ops {
		if f.dyn {
			if !dash && gitRevSubst(f.s) {
				continue
			}
			a.unresolved(fmt.Sprintf("the git operand %s, a revision or a path", f.s))
			continue
		}
		if f.s == "--" && !dash {
			dash = true
			continue
		}
		if !dash && a.gitObject(e, f.s, false) {
			continue
		}
		if dash || (files || looksLikeFile(f.s)) && !looksLikeRev(f.s) {
			a.gitPathspec(e, f, action.Read)
		}
	}
}

// gitRevSubst reports an operand that is one command substitution of a
// git command printing commits or ref names from static words
// ($(git merge-base main HEAD), $(git describe --tags --abbrev=0)): its
// output names no file (a ref name holds no ":" and no component
// starting with "."), and the command itself is analysed where it
// stands.
func gitRevSubst(src string) bool {
	// The word may join such substitutions with range and ancestry
	// operators: $(git merge-base a b)..HEAD, $(git describe)^.
	n := 0
	for src != "" {
		i := strings.Index(src, "$(")
		if i < 0 {
			i = len(src)
		}
		if strings.Trim(src[:i], ".^~@{}0123456789HEAD") != "" {
			return false
		}
		if i == len(src) {
			break
		}
		j := strings.IndexByte(src[i:], ')')
		if j < 0 || !gitRevCmd(src[i+2:i+j]) {
			return false
		}
		n++
		src = src[i+j+1:]
	}
	return n > 0
}

// gitRevCmd reports the text of a git command printing commits or ref
// names, with static words only.
func gitRevCmd(inner string) bool {
	if strings.ContainsAny(inner, "$`()|;&<>:'\"\\\n*?[") {
		return false
	}
	w := strings.Fields(inner)
	if len(w) < 2 || w[0] != "git" {
		return false
	}
	switch w[1] {
	case "merge-base", "describe", "symbolic-ref":
		return true
	case "rev-parse":
		// Not --show-toplevel and the like, which print paths.
		for _, x := range w[2:] {
			if strings.HasPrefix(x, "--") && !slices.Contains([]string{"--verify", "--short", "--abbrev-ref", "--quiet", "--symbolic-full-name"}, x) && !strings.HasPrefix(x, "--short=") {
				return false
			}
		}
		return true
	case "branch":
		return len(w) == 3 && w[2] == "--show-current"
	}
	return false
}

// looksLikeRev reports an operand that names a revision or a range.
func looksLikeRev(s string) bool {
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") {
		return false
	}
	if s == "HEAD" || s == "@" || strings.HasSuffix(s, "_HEAD") || strings.Contains(s, "..") ||
		strings.ContainsAny(s, "^~") || strings.Contains(s, "@{") {
		return true
	}
	if len(s) >= 7 && len(s) <= 64 && strings.Trim(s, "0123456789abcdef") == "" {
		return true
	}
	return false
}

// looksLikeFile reports an operand that is more likely a file than a
// branch: a relative or absolute path, a glob, a dotfile, a name with an
// extension, a secret.
func looksLikeFile(s string) bool {
	if s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") ||
		strings.HasPrefix(s, "~") || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[") || secretPath(s) {
		return true
	}
	base := path.Base(s)
	if strings.HasPrefix(base, ".") {
		return true
	}
	k := strings.LastIndexByte(base, '.')
	if k <= 0 || len(base)-k-1 > 8 {
		return false
	}
	ext := base[k+1:]
	letter := false
	for _, r := range ext {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '_' || r == '-':
		default:
			return false
		}
	}
	return letter
}

// gitDiffVals are the options of the diff and revision machinery that
// take their value as the next argument.
var gitDiffVals = []string{"max-count", "skip", "since", "after", "until", "before", "author", "committer", "grep",
	"grep-reflog", "output", "exclude", "diff-filter", "find-object", "anchored", "ignore-matching-lines",
	"inter-hunk-context", "diff-algorithm", "src-prefix", "dst-prefix", "line-prefix", "word-diff-regex",
	"output-indicator-new", "output-indicator-old", "output-indicator-context", "since-as-filter", "encoding",
	"output-directory", "in-reply-to", "subject-prefix", "suffix", "to", "cc", "from", "add-header",
	"signature", "signature-file", "base", "interdiff", "range-diff", "creation-factor", "description-file", "start-number"}

// gitDiff handles the commands of the diff machinery: show, diff, log and
// format-patch.
func (a *analyzer) gitDiff(c *env, sub string, rest []field, ro bool) bool {
	before, after, dash := splitDash(rest)
	opts, ops := scan(before, "nSGOLIov", gitDiffVals, false)
	if hasOpt(opts, "--ext-diff", "--textconv") {
		a.flag(action.FlagRunsCode)
		ro = false
	}
	for _, f := range optVals(opts, "--output") {
		a.path(c, f, action.Write)
		ro = false
	}
	for _, f := range optVals(opts, "-O", "--signature-file", "--description-file") {
		a.path(c, f, action.Read)
	}
	for _, f := range optVals(opts, "-L") {
		if f.dyn {
			a.path(c, f, action.Read)
		} else if k := strings.LastIndexByte(f.s, ':'); k >= 0 {
			a.path(c, field{s: f.s[k+1:]}, action.Read)
		}
	}
	if sub == "format-patch" {
		dirs := optVals(opts, "-o", "--output-directory")
		if len(dirs) == 0 && !hasOpt(opts, "--stdout") {
			dirs = []field{{s: "."}}
		}
		for _, f := range dirs {
			a.path(c, f, action.Write)
		}
	}
	if sub == "diff" && hasOpt(opts, "--no-index") {
		for _, f := range append(ops, after...) {
			a.path(c, f, action.Read)
		}
		return ro
	}
	if dash {
		ops = append(append(ops, field{s: "--"}), after...)
	}
	a.gitReads(c, ops, false)
	return ro
}

// gitAdd: git add reads the files it adds into the repository, from
// where a push publishes them; -f adds ignored files, so a directory is
// read whole.
func (a *analyzer) gitAdd(c *env, rest []field) {
	opts, ops := gitScan(rest, "", []string{"chmod", "pathspec-from-file"}, []string{"force", "edit", "interactive", "patch", "all", "update", "dry-run", "intent-to-add"})
	if hasOpt(opts, "-e", "--edit") {
		a.flag(action.FlagRunsCode) // the editor
	}
	force := hasOpt(opts, "-f", "--force")
	for _, f := range optVals(opts, "--pathspec-from-file") {
		a.path(c, f, action.Read)
	}
	if len(ops) == 0 && hasOpt(opts, "-A", "--all") {
		ops = []field{{s: ":/"}}
	}
	for _, f := range ops {
		if force && !f.dyn && !strings.HasPrefix(f.s, ":") {
			a.pathRec(c, f, action.Read, true)
			continue
		}
		a.gitPathspec(c, f, action.Read)
	}
}

// gitBranch handles branch and tag: listing reads; deleting is
// fileDelete.
func (a *analyzer) gitBranch(c *env, sub string, rest []field) bool {
	vals := []string{"contains", "no-contains", "merged", "no-merged", "sort", "format", "points-at", "set-upstream-to", "message", "file", "local-user", "cleanup", "trailer"}
	flags := []string{"delete", "move", "copy", "force", "list", "all", "remotes", "show-current", "verbose", "unset-upstream", "edit-description", "sign", "annotate", "track", "no-track"}
	short := "u"
	if sub == "tag" {
		short = "mFu"
	}
	opts, ops := gitScan(rest, short, vals, flags)
	ro := true
	listing := hasOpt(opts, "-l", "--list", "-a", "--all", "-r", "--remotes", "--show-current", "-v", "-vv", "--verbose", "-n")
	if sub == "tag" {
		listing = hasOpt(opts, "-l", "--list", "-n")
	}
	if len(ops) > 0 && !listing {
		ro = false
	}
	if sub == "branch" && hasOpt(opts, "-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-f", "--force") {
		ro = false
	}
	if sub == "tag" && hasOpt(opts, "-d", "--delete", "-f", "--force", "-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-m", "--message", "-F", "--file") {
		ro = false
	}
	if hasOpt(opts, "-d", "-D", "--delete") || hasOpt(opts, "-M", "-C") || hasOpt(opts, "-f", "--force") && len(ops) > 0 && !listing {
		// Deleting (or forcing over) a branch or tag drops the commits
		// only it reached.
		a.class(action.FileDelete)
		ro = false
	}
	for _, f := range optVals(opts, "-F", "--file") {
		a.path(c, f, action.Read)
	}
	return ro
}

// gitConfig handles git config: reading keeps read-only; setting a key
// that makes git run a program runs code; the file written is a write
// facet (--global, --system, --file), so is the file read (--file,
// --blob).
func (a *analyzer) gitConfig(c *env, rest []field) bool {
	opts, ops := gitScan(rest, "f", []string{"file", "blob", "type", "default", "comment", "value"},
		[]string{"global", "system", "local", "worktree", "get", "get-all", "get-regexp", "get-urlmatch", "list", "show-origin",
			"show-scope", "name-only", "unset", "unset-all", "add", "replace-all", "edit", "rename-section", "remove-section",
			"get-color", "get-colorbool", "includes", "null", "all", "regexp", "fixed-value"})
	verb := ""
	if len(ops) > 0 && !ops[0].dyn {
		switch ops[0].s {
		case "get", "list", "set", "unset", "edit", "rename-section", "remove-section":
			verb, ops = ops[0].s, ops[1:]
		}
	}
	reading := verb == "get" || verb == "list" ||
		hasOpt(opts, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool")
	edit := verb == "edit" || hasOpt(opts, "-e", "--edit")
	writing := !reading && (edit || verb != "" || len(ops) >= 2 ||
		hasOpt(opts, "--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section"))
	if edit {
		a.flag(action.FlagRunsCode) // the editor
	}
	if keys := strings.ToLower(joinFields(ops)); strings.Contains(keys, "credential") || strings.Contains(keys, "extraheader") ||
		strings.Contains(keys, "password") || strings.Contains(keys, "token") {
		a.class(action.SecretAccess) // credential helpers, and the tokens CI leaves in http.extraHeader
	}
	if !writing {
		for _, f := range optVals(opts, "-f", "--file") {
			a.path(c, f, action.Read)
		}
		for _, f := range optVals(opts, "--blob") {
			if f.dyn || !a.gitObject(c, f.s, false) {
				a.path(c, f, action.Read)
			}
		}
		return true
	}
	setting := verb == "set" || verb == "" && !hasOpt(opts, "--unset", "--unset-all", "--rename-section", "--remove-section")
	if setting && len(ops) >= 1 && !edit {
		if key := ops[0]; key.dyn || !gitConfigSafe(key.s) {
			a.flag(action.FlagRunsCode)
		}
	}
	if hasOpt(opts, "--rename-section") || verb == "rename-section" {
		// The section renamed to may be one that runs a program.
		if len(ops) < 2 || ops[1].dyn || !gitConfigSafe(ops[1].s+".x") {
			a.flag(action.FlagRunsCode)
		}
	}
	for _, f := range optVals(opts, "-f", "--file") {
		a.path(c, f, action.Write)
	}
	if hasOpt(opts, "--global") {
		if h := a.home(); h == "" {
			a.unresolved("git config --global writes under a home directory that is not known")
		} else {
			a.pathStr(c, join(h, ".gitconfig"), action.Write, false)
			a.pathStr(c, join(h, ".config/git/config"), action.Write, false)
		}
	}
	if hasOpt(opts, "--system") {
		a.pathStr(c, "/etc/gitconfig", action.Write, false)
	}
	return false
}

// gitStash: drop and clear lose what was stashed.
func (a *analyzer) gitStash(c *env, rest []field) bool {
	if len(rest) == 0 {
		return false // git stash = git stash push
	}
	if rest[0].dyn {
		a.class(action.FileDelete)
		return false
	}
	switch rest[0].s {
	case "list":
		return true
	case "show":
		// stash show takes the diff options and may be given paths.
		before, after, dash := splitDash(rest[1:])
		_, ops := scan(before, "nSGOLI", gitDiffVals, false)
		if dash {
			ops = append(append(ops, field{s: "--"}), after...)
		}
		a.gitReads(c, ops, false)
		return true
	case "drop", "clear":
		a.class(action.FileDelete)
	case "push", "save":
		opts, _ := gitScan(rest[1:], "m", []string{"message", "pathspec-from-file"}, nil)
		for _, f := range optVals(opts, "--pathspec-from-file") {
			a.path(c, f, action.Read)
		}
	}
	return false
}

// gitWorktree: add writes the new work tree, move moves one, remove
// deletes one.
func (a *analyzer) gitWorktree(c *env, rest []field) bool {
	if len(rest) == 0 || rest[0].dyn {
		return false
	}
	verb := rest[0].s
	opts, ops := gitScan(rest[1:], "bB", []string{"reason", "expire"}, []string{"force", "detach", "checkout", "lock", "orphan", "guess-remote", "track", "quiet", "porcelain", "verbose", "dry-run"})
	_ = opts
	switch verb {
	case "list":
		return true
	case "add":
		if len(ops) > 0 {
			a.path(c, ops[0], action.Write)
		}
	case "move":
		if len(ops) > 0 {
			a.path(c, ops[0], action.Delete)
		}
		if len(ops) > 1 {
			a.path(c, ops[1], action.Write)
		}
	case "remove":
		a.class(action.FileDelete)
		for _, f := range ops {
			a.path(c, f, action.Delete)
		}
	}
	return false
}

// gitCheckout: checking out paths overwrites their changes, -f every
// change; switching to a branch does neither. Without "--", the operands
// after the first are paths, and the first is one if it looks like a
// file.
func (a *analyzer) gitCheckout(c *env, rest []field) {
	before, after, dash := splitDash(rest)
	opts, ops := gitScan(before, "bB", []string{"orphan", "conflict", "pathspec-from-file"}, []string{"force", "patch", "merge", "detach", "ours", "theirs", "overwrite-ignore", "ignore-other-worktrees", "no-overlay", "overlay", "quiet", "progress", "guess", "track", "recurse-submodules"})
	var paths []field
	branch := hasOpt(opts, "-b", "-B", "--orphan")
	switch {
	case dash:
		paths = after
	case branch:
	case len(ops) > 1:
		paths = ops[1:]
	case len(ops) == 1 && (ops[0].dyn || looksLikeFile(ops[0].s) && !looksLikeRev(ops[0].s)):
		paths = ops
	}
	if hasOpt(opts, "-f", "--force") {
		a.class(action.FileDelete)
		a.gitWorkTree(c, action.Delete)
	}
	a.gitDiscard(c, opts, paths)
}

// gitRestore: restoring the work tree (the default, or -W) overwrites the
// changes of the paths; --staged alone only the index.
func (a *analyzer) gitRestore(c *env, rest []field) {
	opts, ops := gitScan(rest, "s", []string{"source", "pathspec-from-file", "conflict"}, []string{"staged", "worktree", "patch", "ours", "theirs", "merge", "overlay", "no-overlay", "ignore-unmerged", "quiet", "progress", "recurse-submodules", "ignore-skip-worktree-bits"})
	if hasOpt(opts, "-S", "--staged") && !hasOpt(opts, "-W", "--worktree") {
		return
	}
	a.gitDiscard(c, opts, ops)
}

// gitDiscard reports what checkout and restore overwrite: the paths
// given, and those a --pathspec-from-file lists, which it reads.
func (a *analyzer) gitDiscard(c *env, opts []opt, paths []field) {
	if len(paths) > 0 || hasOpt(opts, "--pathspec-from-file") {
		a.class(action.FileDelete)
	}
	for _, f := range paths {
		a.gitPathspec(c, f, action.Delete)
	}
	for _, f := range optVals(opts, "--pathspec-from-file") {
		a.path(c, f, action.Read)
	}
}

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

// gitGrep: git grep reads the work tree under the working directory; -O
// opens the files in a pager of the caller's choosing.
func (a *analyzer) gitGrep(c *env, rest []field, ro bool) bool {
	before, after, dash := splitDash(rest)
	opts, ops := gitScan(before, "efABCm", []string{"file", "max-depth", "after-context", "before-context", "context", "max-count", "threads"},
		[]string{"open-files-in-pager", "no-index", "untracked", "textconv"})
	if hasOpt(opts, "-O", "--open-files-in-pager", "--textconv") {
		a.flag(action.FlagRunsCode)
		ro = false
	}
	for _, f := range optVals(opts, "-f", "--file") {
		a.path(c, f, action.Read)
	}
	if len(optVals(opts, "-e", "-f", "--file")) == 0 && len(ops) > 0 {
		ops = ops[1:] // the pattern
	}
	if dash {
		ops = append(append(ops, field{s: "--"}), after...)
	}
	a.gitReads(c, ops, false)
	a.recRead(c, field{s: "."})
	return ro
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

func gitPrograms() map[string]handler {
	return map[string]handler{
		"git": func(a *analyzer, e *env, c call) (bool, bool) { return a.git(e, c.i, c.args) },
		// hub is git: hub … is reported as git … as well, so that a rule
		// on "git push" sees hub push.
		"hub": func(a *analyzer, e *env, c call) (bool, bool) { return a.hub(e, c.args) },
		"gh":  func(a *analyzer, e *env, c call) (bool, bool) { return a.gh(e, c.args) },
	}
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
