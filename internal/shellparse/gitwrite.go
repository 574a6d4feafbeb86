// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the git subcommands that write files or discard work
// and have more to read than gitSubcommand (git.go) does inline: add,
// branch and tag, config, stash, worktree, checkout and restore. The
// rules, for these and the simpler ones (clean, rm, reset, switch, gc,
// prune, init…):
//
//   - Files written by option are write facets (config --global|--system|
//     --file, --output, format-patch -o, archive -o, worktree add, clone,
//     init, bundle create), so that a write outside the project is seen.
//   - What discards work is fileDelete with the paths it discards where
//     they are known (reset --hard, checkout -- PATH, checkout -f, restore,
//     clean, stash drop|clear, branch -d, tag -d, worktree remove, gc
//     --prune, prune, reflog expire, update-ref -d).

import (
	"strings"

	"warden.dev/warden/internal/action"
)

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
	if !hasOpt(opts, "--global", "--system", "-f", "--file") {
		// The repository's configuration (config.worktree with
		// --worktree): named from the directory git runs in, which is
		// enough for the floor to know a git directory's configuration.
		a.pathStr(c, ".git/config", action.Write, false)
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
