// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package governance holds, as data, the governance paths (docs/spec.md §5):
// what governs an agent or runs later on the host — agent settings, git's
// configuration and hooks, editor tasks, shell start-up files, the
// directories on PATH — and Warden's own configuration, state and policy
// files. Writing one is how an agent that was told to by a README or an
// issue turns itself loose for the next session, so the policy engine's
// floor holds them from every tool, and warden run protects the same
// entries of a project (package sandbox reads [HostExecuted] and
// [IsGitData] from here).
//
// How hard each is held is its [Tier]:
//
//   - [Own]: Warden's own configuration and state directories and the
//     policy files in force. Denied; no rule changes that (an agent never
//     governs itself).
//   - [Locked]: git's configuration and hooks (everything in a git
//     directory that is not git's data, and the core.hooksPath
//     directories) and the agents' hook settings. At least prompt; no
//     rule loosens them.
//   - [Guarded]: everything else here. At least prompt, unless the policy
//     exempts the path by name (policy file, governance.exempt).
//
// Matching is on clean absolute paths, case-insensitively (on a
// case-insensitive filesystem .Claude is .claude; elsewhere the
// difference costs one more question, never one less), and is pure:
// finding where the places are (the project, its repositories, PATH) is
// the caller's. The caller matches every spelling of a path: as written
// and as the kernel resolves it.
package governance

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Tier is how hard the floor holds a governance path. The zero value is
// no governance.
type Tier uint8

// The tiers, from least to most held.
const (
	None Tier = iota
	Guarded
	Locked
	Own
)

var tierNames = [...]string{None: "none", Guarded: "guarded", Locked: "locked", Own: "warden's own"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return "locked"
}

// Entry is one governance entry named by its place in a directory.
type Entry struct {
	// Name is a path.Match glob of one path component, or of several
	// separated by "/" (a file in a directory): ".claude",
	// ".claude/settings.json", ".config/fish".
	Name string
	// Anywhere says the host acts on the name in any directory of the
	// project, not only at its top (warden run protects it at every
	// depth).
	Anywhere bool
	// Tier is how hard the floor holds it; zero means Guarded.
	Tier Tier
	// Why says what reads or runs it.
	Why string
}

// HostExecuted lists the project entries the host executes or trusts
// after a run: agent settings and instructions, editor tasks, dev
// containers, direnv. warden run keeps each that exists read-only and
// quarantines each a run creates (package sandbox); the engine's floor
// holds every one at any depth, of any directory, since any directory
// can be where an agent or an editor is started next.
var HostExecuted = []Entry{
	// Agent settings and instructions: hooks, permission lists, MCP
	// servers, commands the agent CLI runs. Read where the agent is
	// started, the project top.
	{Name: ".claude", Why: "Claude Code settings, hooks and commands"},
	{Name: ".codex", Why: "Codex settings and hooks"},
	{Name: ".gemini", Why: "Gemini CLI settings and extensions"},
	{Name: ".cursor", Why: "Cursor rules, MCP servers and hooks"},
	{Name: ".windsurf", Why: "Windsurf rules and workflows"},
	{Name: ".continue", Why: "Continue settings and MCP servers"},
	{Name: ".aider.conf.yml", Why: "aider settings (lint and test commands)"},
	{Name: ".mcp.json", Why: "MCP servers the agent CLI starts"},
	{Name: ".opencode", Why: "OpenCode settings, commands and the plugins it loads and runs"},
	{Name: "opencode.json", Why: "OpenCode settings, plugins and MCP servers"},
	{Name: "opencode.jsonc", Why: "OpenCode settings, plugins and MCP servers"},
	{Name: ".kiro", Why: "Kiro hooks, agents and MCP servers"},
	{Name: ".amazonq", Why: "Amazon Q Developer agents and MCP servers"},
	{Name: ".roo", Why: "Roo Code rules and MCP servers"},
	{Name: ".qwen", Why: "Qwen Code settings and MCP servers"},
	{Name: "crush.json", Why: "Crush settings, MCP and language servers"},
	{Name: ".crush.json", Why: "Crush settings, MCP and language servers"},
	{Name: ".github/hooks", Tier: Locked, Why: "GitHub Copilot CLI hooks, run where the CLI starts"},
	// Editors: tasks and launch configurations run when the folder is
	// opened or a task is picked; the folder opened is the project.
	{Name: ".vscode", Why: "VS Code tasks, launch configurations and settings"},
	{Name: ".idea", Why: "JetBrains run configurations and settings"},
	{Name: ".zed", Why: "Zed tasks and settings"},
	{Name: "*.code-workspace", Why: "VS Code workspace with its own tasks and settings"},
	{Name: ".devcontainer", Why: "dev container definition (lifecycle commands run on the host's Docker)"},
	{Name: ".helix", Why: "Helix workspace settings and the language servers it starts"},
	{Name: "*.sublime-project", Why: "Sublime Text project with its build systems"},
	{Name: ".fleet", Why: "Fleet run configurations and settings"},
	// Read in whatever directory the user's shell or editor is in.
	{Name: ".nvim.lua", Anywhere: true, Why: "Neovim exrc, run when nvim starts in its directory"},
	{Name: ".nvimrc", Anywhere: true, Why: "Neovim exrc, run when nvim starts in its directory"},
	{Name: ".exrc", Anywhere: true, Why: "Vim and Neovim exrc, run when the editor starts in its directory"},
	{Name: ".vimrc", Anywhere: true, Why: "Vim exrc, run when vim starts in its directory"},
	{Name: ".gvimrc", Anywhere: true, Why: "Vim exrc, run when gvim starts in its directory"},
	{Name: ".dir-locals.el", Anywhere: true, Why: "Emacs directory variables (eval forms) for every file below it"},
	{Name: ".dir-locals-2.el", Anywhere: true, Why: "Emacs directory variables (eval forms) for every file below it"},
	{Name: ".envrc", Anywhere: true, Why: "direnv script, run by the shell on cd into its directory"},
	{Name: "mise*.toml", Anywhere: true, Why: "mise configuration: hooks run on cd into its directory, tasks, environment"},
	{Name: ".mise*.toml", Anywhere: true, Why: "mise configuration: hooks run on cd into its directory, tasks, environment"},
	{Name: ".mise", Anywhere: true, Why: "mise configuration: hooks run on cd into its directory, tasks, environment"},
}

// HookSettings are the files, inside the entries of [HostExecuted], that
// hold an agent's hooks: Warden's own hook entry among them. No rule
// exempts them.
var HookSettings = []Entry{
	{Name: ".claude/settings.json", Tier: Locked, Why: "Claude Code settings and hooks"},
	{Name: ".claude/settings.local.json", Tier: Locked, Why: "Claude Code local settings and hooks"},
	{Name: ".codex/hooks.json", Tier: Locked, Why: "Codex hooks"},
	{Name: ".codex/config.toml", Tier: Locked, Why: "Codex settings (sandbox, approvals, MCP servers)"},
	{Name: ".gemini/settings.json", Tier: Locked, Why: "Gemini CLI settings and hooks"},
}

// InHome are the governance entries of a home directory, beyond those of
// [HostExecuted] (which hold there too): the agents' user settings, shell
// start-up files, git's user configuration, what the session starts, and
// the user's own bin directories.
var InHome = []Entry{
	{Name: ".claude.json", Tier: Locked, Why: "Claude Code user state, MCP servers and per-project settings"},
	{Name: ".claude*", Why: "Claude Code user settings"},
	{Name: ".bashrc", Why: "shell start-up file"},
	{Name: ".bash_profile", Why: "shell start-up file"},
	{Name: ".bash_login", Why: "shell start-up file"},
	{Name: ".bash_logout", Why: "shell exit file"},
	{Name: ".profile", Why: "shell start-up file"},
	{Name: ".zshrc", Why: "shell start-up file"},
	{Name: ".zshenv", Why: "shell start-up file"},
	{Name: ".zprofile", Why: "shell start-up file"},
	{Name: ".zlogin", Why: "shell start-up file"},
	{Name: ".zlogout", Why: "shell exit file"},
	{Name: ".config/fish", Why: "fish configuration and functions"},
	{Name: ".pam_environment", Why: "environment of every login session"},
	{Name: ".config/environment.d", Why: "environment of the user's systemd session"},
	{Name: ".ssh/authorized_keys", Why: "who may log in as the user"},
	{Name: ".ssh/config", Why: "ssh client configuration (ProxyCommand, LocalCommand)"},
	{Name: ".gitconfig", Tier: Locked, Why: "git's user configuration (hooks, fsmonitor, aliases, pagers)"},
	{Name: ".config/git", Tier: Locked, Why: "git's user configuration (hooks, fsmonitor, aliases, pagers)"},
	{Name: ".config/systemd", Why: "systemd user units"},
	{Name: ".local/share/systemd", Why: "systemd user units"},
	{Name: ".config/autostart", Why: "programs the desktop session starts"},
	{Name: ".local/bin", Why: "the user's programs, early on PATH"},
	{Name: "bin", Why: "the user's programs, on PATH"},
}

// OnHost are the system's governance paths: what every login, every cron
// run and every boot executes.
var OnHost = []Entry{
	{Name: "/etc/profile", Why: "start-up file of every login shell"},
	{Name: "/etc/profile.d", Why: "start-up files of every login shell"},
	{Name: "/etc/bash.bashrc", Why: "start-up file of every interactive bash"},
	{Name: "/etc/bashrc", Why: "start-up file of every interactive bash"},
	{Name: "/etc/zsh", Why: "start-up files of every zsh"},
	{Name: "/etc/environment", Why: "environment of every session"},
	{Name: "/etc/gitconfig", Tier: Locked, Why: "git's system configuration"},
	{Name: "/etc/crontab", Why: "the system's cron table"},
	{Name: "/etc/cron.*", Why: "the system's cron jobs"},
	{Name: "/var/spool/cron", Why: "the users' crontabs"},
	{Name: "/etc/systemd", Why: "systemd units"},
	{Name: "/etc/sudoers", Why: "who may run what as root"},
	{Name: "/etc/sudoers.d", Why: "who may run what as root"},
	{Name: "/etc/ld.so.preload", Why: "libraries loaded into every program"},
}

// ProjectPolicy is where a project keeps its own policy (docs/spec.md §13):
// the project cannot loosen its rules by editing it, so the agent cannot
// either.
const ProjectPolicy = ".warden"

// gitData are the entries at the top of a git directory that git writes in
// ordinary work (commit, fetch, merge, rebase, bisect, gc), from git's
// repository-layout(5) and the files its commands leave: they hold
// objects, refs, state and messages, none of which git executes. Every
// other entry of a git directory is host-executed: config,
// config.worktree, commondir, gitdir, hooks/, info/, worktrees/,
// modules/, remotes/ and anything unknown.
var gitData = []string{
	"objects",  // the object database; but see GitObjectsInfoExec
	"refs",     // branches and tags
	"logs",     // reflogs
	"reftable", // refs in the reftable format
	"packed-refs",
	"index",
	"sharedindex.*", // split index
	"HEAD",
	"ORIG_HEAD",
	"FETCH_HEAD",
	"MERGE_*", // MERGE_HEAD, MERGE_MSG, MERGE_MODE, MERGE_RR, MERGE_AUTOSTASH
	"CHERRY_PICK_HEAD",
	"REVERT_HEAD",
	"REBASE_HEAD",
	"BISECT_*", // BISECT_LOG, BISECT_START, BISECT_TERMS, BISECT_EXPECTED_REV...
	"AUTO_MERGE",
	"COMMIT_EDITMSG",
	"TAG_EDITMSG",
	"SQUASH_MSG",
	"NOTES_EDITMSG",
	"NOTES_MERGE_*", // git notes merge state
	"*.lock",        // every lock file git takes (index.lock, HEAD.lock...)
	"rebase-merge",
	"rebase-apply",
	"sequencer", // cherry-pick and revert state
	"rr-cache",  // rerere's recorded resolutions
	"shallow",
	"gc.pid",
	"gc.log",
	"lost-found",    // git fsck --lost-found
	"description",   // gitweb's text
	"branches",      // legacy, read as remote shorthands without commands
	"filter-repo",   // git filter-repo's state
	"lfs",           // Git LFS's object store and temporary files
	"index.stash.*", // git stash's temporary index
}

// GitObjectsInfoExec are the entries of objects/info that redirect where
// git reads objects from: an alternate object store can hold a planted
// repository's objects and, through http-alternates, make the host fetch.
var GitObjectsInfoExec = []string{"alternates", "http-alternates"}

// IsGitData reports whether name, at the top of a git directory, is data
// git writes in ordinary work. Case counts: on a case-insensitive
// filesystem "Hooks" is hooks, and it is not data.
func IsGitData(name string) bool {
	for _, p := range gitData {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// HostExecRel reports whether the project-relative path rel is an entry
// of [HostExecuted] as warden run protects it (case as written): the
// entry's name matches rel's last components and, but for an entry that
// counts in any directory, they are all of rel.
func HostExecRel(rel string) bool {
	idx := hostExecIndex()
	for _, set := range [2][]compiled{idx.byLast[rel[strings.LastIndexByte(rel, '/')+1:]], idx.globs} {
		for _, c := range set {
			if c.matchRel(rel) {
				return true
			}
		}
	}
	return false
}

// hostExecIndex is [HostExecuted], case as written, by the last component
// of each entry's name, and the entries whose last component is a
// pattern: a walk asks about every entry of a project.
var hostExecIndex = sync.OnceValue(func() (idx struct {
	byLast map[string][]compiled
	globs  []compiled
}) {
	idx.byLast = make(map[string][]compiled, len(HostExecuted))
	for _, e := range HostExecuted {
		c := compile(e, e.Name)
		if last := len(c.parts) - 1; c.globs[last] {
			idx.globs = append(idx.globs, c)
		} else {
			idx.byLast[c.parts[last]] = append(idx.byLast[c.parts[last]], c)
		}
	}
	return idx
})

// Places are where the governance paths of one decision are: the
// caller finds them (the home, the project's repositories, PATH) and
// [Places.Match] judges paths against them without I/O. Every path is
// absolute and clean; empty ones are ignored.
type Places struct {
	Home string
	// Own are Warden's own directories, its configuration and state:
	// every access is refused. Policies are the policy files in force:
	// writing is.
	Own      []string
	Policies []string
	// GitDirs are the git directories of the project's repositories
	// that lie outside a ".git" entry (a linked worktree's, a
	// submodule's common directory); every ".git" is known by its name.
	GitDirs []string
	// Hooks are the directories core.hooksPath names.
	Hooks []string
	// Path are the directories on PATH as the deciding process sees it.
	Path []string
	// AgentHomes are agents' settings directories named by the deciding
	// process's environment rather than found in the home (Codex's
	// CODEX_HOME, Claude Code's CLAUDE_CONFIG_DIR): everything in one
	// is held as the agent's hook settings are.
	AgentHomes []string
}

// Match is a governance path found.
type Match struct {
	// Path is the path matched (one spelling of what was asked).
	Path string
	Tier Tier
	// Why names the entry and what reads it.
	Why string
}

// Match reports whether p, an absolute clean path, is a governance path,
// and the strongest entry it matches.
func (pl *Places) Match(p string) (Match, bool) {
	if p == "" || p[0] != '/' {
		return Match{}, false
	}
	best := Match{Path: p}
	take := func(t Tier, why string) {
		if t > best.Tier {
			best.Tier, best.Why = t, why
		}
	}
	if m, ok := pl.MatchRead(p); ok {
		return m, true
	}
	lp := strings.ToLower(p)
	for _, o := range pl.Policies {
		if under(lp, o) {
			return Match{Path: p, Tier: Own, Why: "a policy file in force (" + o + "): an agent never governs itself"}, true
		}
	}
	comps := strings.Split(p[1:], "/")
	// The .git entry, and what is in a git directory but its data.
	for i, c := range comps {
		if !strings.EqualFold(c, ".git") {
			continue
		}
		if why, ok := gitEntry(comps[i+1:]); ok {
			take(Locked, why)
		}
	}
	for _, g := range pl.GitDirs {
		if rel, ok := relUnder(p, g); ok && rel != "" {
			if why, ok := gitEntry(strings.Split(rel, "/")); ok {
				take(Locked, why+" ("+g+")")
			}
		}
	}
	for _, h := range pl.Hooks {
		if under(lp, h) {
			take(Locked, "git hooks directory named by core.hooksPath ("+h+")")
		}
	}
	// The entries of HostExecuted, in any directory; a project's policy.
	lcomps := strings.Split(lp[1:], "/")
	cs := compiledEntries()
	for i := range lcomps {
		if e, ok := cs.entryAt(lcomps, i); ok {
			take(e.tier(), e.Name+": "+e.Why)
		}
		if lcomps[i] == ProjectPolicy {
			take(Own, "a project's own policy ("+ProjectPolicy+"/): an agent never governs itself")
		}
	}
	if rel, ok := relUnder(p, pl.Home); ok && rel != "" {
		hc := strings.Split(strings.ToLower(rel), "/")
		for _, c := range cs.home {
			if c.matchPrefix(hc) {
				take(c.e.tier(), "~/"+c.e.Name+": "+c.e.Why)
			}
		}
	}
	for _, c := range cs.onHost {
		if c.matchPrefix(lcomps) {
			take(c.e.tier(), c.e.Name+": "+c.e.Why)
		}
	}
	for _, d := range pl.AgentHomes {
		if under(lp, d) {
			take(Locked, "an agent's settings directory ("+d+"): its hooks, settings and the commands it runs")
		}
	}
	for _, d := range pl.Path {
		if under(lp, d) && lp != strings.ToLower(path.Clean(d)) {
			take(Guarded, "a directory on PATH ("+d+"): what is put there runs in place of the commands the user types")
		}
	}
	return best, best.Tier != None
}

// MatchRead reports whether reading p reaches Warden's own directories:
// the store, the socket, the CA's key, the hooks' state.
func (pl *Places) MatchRead(p string) (Match, bool) {
	lp := strings.ToLower(p)
	for _, o := range pl.Own {
		if under(lp, o) {
			return Match{Path: p, Tier: Own, Why: "Warden's own configuration or state (" + o + "): an agent never reads or governs it"}, true
		}
	}
	return Match{}, false
}

// linkTargets are the governance files of a project or a home that a hard
// link elsewhere could reach: a write through the link is a write of
// them.
var linkTargets = []string{
	".claude/settings.json", ".claude/settings.local.json", ".codex/hooks.json", ".codex/config.toml",
	".gemini/settings.json", ".mcp.json", ".envrc", ".git/config", ".vscode/tasks.json",
	".vscode/settings.json", ".vscode/launch.json", ".devcontainer/devcontainer.json", ".aider.conf.yml",
	"opencode.json", "opencode.jsonc", "crush.json", ".crush.json", ".kiro/settings/mcp.json", ".amazonq/mcp.json",
	".roo/mcp.json", ".qwen/settings.json", ".nvim.lua", ".nvimrc", ".exrc", ".dir-locals.el", "mise.toml", ".mise.toml",
}

// LinkTargets lists the governance files below each root (a project, a
// repository's top, the home) that a hard link could reach, the home's
// start-up files and git configuration, and the policy files in force.
// The caller compares a multiply linked file it is asked to write with
// each that exists.
func (pl *Places) LinkTargets(roots ...string) []string {
	var out []string
	for _, r := range roots {
		if r == "" {
			continue
		}
		for _, t := range linkTargets {
			out = append(out, path.Join(r, t))
		}
	}
	if pl.Home != "" {
		for _, e := range InHome {
			if !strings.ContainsAny(e.Name, "*?[") {
				out = append(out, path.Join(pl.Home, e.Name))
			}
		}
	}
	return append(out, pl.Policies...)
}

func (e Entry) tier() Tier {
	if e.Tier == None {
		return Guarded
	}
	return e.Tier
}

// gitEntry reports whether the path rest, below a git directory, is not
// git's data: the directory itself (replacing a .git redirects the
// repository), any entry but gitData, or an object store redirection.
func gitEntry(rest []string) (string, bool) {
	switch {
	case len(rest) == 0:
		return ".git: a repository's git directory or gitdir file (replacing it redirects the repository)", true
	case !IsGitData(rest[0]):
		return ".git/" + rest[0] + ": git's configuration, hooks or layout (everything in .git but its data runs or steers git)", true
	case rest[0] == "objects" && len(rest) >= 3 && rest[1] == "info" && slices.ContainsFunc(GitObjectsInfoExec, func(n string) bool { return strings.EqualFold(n, rest[2]) }):
		return ".git/objects/info/" + rest[2] + ": redirects where git reads objects from", true
	}
	return "", false
}

// hostEntries are HostExecuted with the hook settings first: the more
// specific entry decides the tier.
var hostEntries = append(slices.Clone(HookSettings), HostExecuted...)

// compiled is an entry with name, its name or the part of it matched,
// cut into components once: a decision matches every path it names
// against every entry, and a walk every entry of a project.
type compiled struct {
	e     Entry
	parts []string
	globs []bool // parts[i] is a pattern, not a name
}

func compile(e Entry, name string) compiled {
	c := compiled{e: e, parts: strings.Split(name, "/")}
	for _, p := range c.parts {
		c.globs = append(c.globs, strings.ContainsAny(p, `*?[\`))
	}
	return c
}

// matchPart reports whether the component comp matches c's part i.
func (c compiled) matchPart(i int, comp string) bool {
	if !c.globs[i] {
		return c.parts[i] == comp
	}
	ok, _ := path.Match(c.parts[i], comp)
	return ok
}

// matchPrefix reports whether c's components match the first of comps.
func (c compiled) matchPrefix(comps []string) bool {
	if len(c.parts) > len(comps) {
		return false
	}
	for i := range c.parts {
		if !c.matchPart(i, comps[i]) {
			return false
		}
	}
	return true
}

// matchRel reports whether c's components match the last of the
// relative path rel and, unless c's entry counts in any directory, are
// all of it.
func (c compiled) matchRel(rel string) bool {
	if !c.e.Anywhere && strings.Count(rel, "/") != len(c.parts)-1 {
		return false
	}
	for i := len(c.parts) - 1; ; i-- {
		j := strings.LastIndexByte(rel, '/')
		if !c.matchPart(i, rel[j+1:]) {
			return false
		}
		if i == 0 {
			return j < 0 || c.e.Anywhere
		}
		if j < 0 {
			return false
		}
		rel = rel[:j]
	}
}

// compiledSets are hostEntries (by their first component, and those whose
// first component is a pattern), InHome and OnHost, compiled once in
// lower case: the floor matches any case.
type compiledSets struct {
	host     map[string][]compiled
	hostGlob []compiled
	home     []compiled
	onHost   []compiled
}

var compiledEntries = sync.OnceValue(func() *compiledSets {
	cs := &compiledSets{host: map[string][]compiled{}}
	for _, e := range hostEntries {
		c := compile(e, strings.ToLower(e.Name))
		if c.globs[0] {
			cs.hostGlob = append(cs.hostGlob, c)
		} else {
			cs.host[c.parts[0]] = append(cs.host[c.parts[0]], c)
		}
	}
	for _, e := range InHome {
		cs.home = append(cs.home, compile(e, strings.ToLower(e.Name)))
	}
	for _, e := range OnHost {
		cs.onHost = append(cs.onHost, compile(e, strings.ToLower(e.Name[1:])))
	}
	return cs
})

// entryAt reports the entry of [HostExecuted] (or its hook settings)
// that lcomps[i:] (lower case) starts with, the most held of them.
func (cs *compiledSets) entryAt(lcomps []string, i int) (Entry, bool) {
	var found Entry
	ok := false
	for _, set := range [2][]compiled{cs.host[lcomps[i]], cs.hostGlob} {
		for _, c := range set {
			if c.matchPrefix(lcomps[i:]) && (!ok || c.e.tier() > found.tier()) {
				found, ok = c.e, true
			}
		}
	}
	return found, ok
}

// under reports whether lp (lower case) is dir or below it.
func under(lp, dir string) bool {
	if dir == "" {
		return false
	}
	d := strings.ToLower(path.Clean(dir))
	if d == "/" {
		return true
	}
	return lp == d || strings.HasPrefix(lp, d+"/")
}

// relUnder returns p relative to dir when p is dir or below it
// (case-insensitively), "" for dir itself.
func relUnder(p, dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	d := path.Clean(dir)
	if !under(strings.ToLower(p), d) {
		return "", false
	}
	if len(p) == len(d) {
		return "", true
	}
	if d == "/" {
		return p[1:], true
	}
	return p[len(d)+1:], true
}
