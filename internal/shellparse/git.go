// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file handles git: global options before the subcommand, the
// subcommand's class, and the facets of the subcommands read in
// gitSubcommand. Those with more to read have files of their own: the
// files git names and reads (gitpath.go), what writes or discards work
// (gitwrite.go), what runs a command or reaches another host (gitexec.go).
// gh, and hub, which is git with gh's GitHub commands, are in gh.go.
//
// Rules:
//
//   - -c key=value and --config-env key=VAR with a key outside a small
//     allowlist of harmless settings run code (core.pager, core.sshCommand,
//     alias.*, filter.*, include.path… all make git start a program of the
//     caller's choosing, and a key not listed is taken to be one of them).
//   - Long options of the subcommands parsed by git's parse-options may be
//     abbreviated (--exe for --exec): a prefix of one listed option is that
//     option.
//   - An unknown subcommand may be an alias or a git-* program found on
//     PATH: unresolved.

import (
	"fmt"
	"slices"
	"strings"
	"sync"

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

var gitSubs = sync.OnceValue(func() map[string]gitSub {
	return map[string]gitSub{
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
})

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
	info, ok := gitSubs()[sub]
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

func gitPrograms() map[string]handler {
	return map[string]handler{
		"git": func(a *analyzer, e *env, c call) (bool, bool) { return a.git(e, c.i, c.args) },
		// hub is git: hub … is reported as git … as well, so that a rule
		// on "git push" sees hub push.
		"hub": func(a *analyzer, e *env, c call) (bool, bool) { return a.hub(e, c.args) },
		"gh":  func(a *analyzer, e *env, c call) (bool, bool) { return a.gh(e, c.args) },
	}
}
