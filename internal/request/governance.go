// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/governance"
	"warden.dev/warden/internal/pathguard"
)

// Governance says where Warden's own places are, for the floor's
// governance paths (docs/spec.md §5, package governance).
type Governance struct {
	// Own are Warden's configuration and state directories: no access.
	Own []string
	// Policies are the policy files in force: no write.
	Policies []string
	// Path is the PATH of the deciding process.
	Path string
	// AgentHomes are agents' settings directories the deciding
	// process's environment names ([governance.Places.AgentHomes]).
	AgentHomes []string
}

// governed marks every path of a with the governance paths it reaches:
// each spelling of a write or a delete (as written, as resolved, and
// each re-spelt under the project), and for a read, Warden's own
// directories.
func governed(a *action.Action, opt Options) {
	pl := governance.Places{Home: opt.Home, Own: opt.Governance.Own, Policies: opt.Governance.Policies, AgentHomes: opt.Governance.AgentHomes}
	var repos map[string]bool // the work trees whose places are in pl
	for i := range a.Paths {
		p := &a.Paths[i]
		if !p.Checked || p.Err != "" {
			continue // the floor denies it anyway
		}
		forms := [...]string{p.Lexical, p.Resolved, p.InLexical, p.InResolved}
		if p.Access == action.Read {
			for _, f := range forms {
				if m, ok := pl.MatchRead(f); ok {
					p.Governed = append(p.Governed, m)
					break
				}
			}
			continue
		}
		if repos == nil {
			repos = map[string]bool{}
			pl.Path = pathDirs(opt.Governance.Path, a.Project, opt.Home)
			// The user's and the system's hooks directories, which
			// hold in every repository.
			pl.Hooks = gitindex.HooksPaths(gitindex.Repo{}, "", opt.Home)
		}
		for j, f := range forms {
			if f == "" || slices.Contains(forms[:j], f) {
				continue
			}
			locateRepo(&pl, repos, f, opt.Home)
			if m, ok := pl.Match(f); ok {
				p.Governed = append(p.Governed, m)
			}
		}
		if m, ok := hardLinked(&pl, p.Resolved, a.Project); ok {
			p.Governed = append(p.Governed, m)
		}
	}
}

// hardLinked reports whether p, a file about to be written, is a hard
// link to a governance file (one of [governance.Places.LinkTargets], or
// a git hook): writing it writes that file, whatever its name. Only a
// multiply linked regular file is compared.
func hardLinked(pl *governance.Places, p, project string) (governance.Match, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !pathguard.MultiplyLinked(fi) {
		return governance.Match{}, false
	}
	top := gitindex.Enclosing(p)
	targets := pl.LinkTargets(project, top, pl.Home)
	for _, r := range []string{project, top} {
		if r == "" {
			continue
		}
		hooks, _ := os.ReadDir(filepath.Join(r, ".git", "hooks"))
		for _, h := range hooks {
			targets = append(targets, filepath.Join(r, ".git", "hooks", h.Name()))
		}
	}
	for _, t := range targets {
		if t == p {
			continue
		}
		if ti, err := os.Lstat(t); err == nil && os.SameFile(fi, ti) {
			if m, ok := pl.Match(t); ok {
				m.Path, m.Why = p, "a hard link to "+t+", "+m.Why
				return m, true
			}
		}
	}
	return governance.Match{}, false
}

// locateRepo adds to pl the places of the repository that holds the path
// p, once per repository: its git directories that are not under a .git
// entry (a linked worktree's, a submodule's) and the hooks directories
// its configuration names. A write in any repository counts, not only in
// the project's: an agent started in the home writes in all of them.
func locateRepo(pl *governance.Places, repos map[string]bool, p, home string) {
	top := gitindex.Enclosing(p)
	if top == "" || repos[top] {
		return
	}
	repos[top] = true
	r, err := gitindex.Discover(filepath.Join(top, ".git"), top, home)
	if err != nil {
		return
	}
	for _, d := range []string{r.Dir, r.Common} {
		if !strings.Contains(d+"/", "/.git/") && !slices.Contains(pl.GitDirs, d) {
			pl.GitDirs = append(pl.GitDirs, d)
		}
	}
	for _, h := range r.Hooks {
		if !slices.Contains(pl.Hooks, h) {
			pl.Hooks = append(pl.Hooks, h)
		}
	}
}

// pathDirs are the absolute directories of PATH that are governance
// paths: a relative entry is relative to wherever a command runs, and
// the root, the home or a directory holding the project would make every
// write a question (their programs are judged by the other entries).
func pathDirs(path, project, home string) []string {
	var out []string
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if gitindex.NotProject(d, home) || project != "" && action.Within(d, project) {
			continue
		}
		out = append(out, d)
	}
	return out
}
