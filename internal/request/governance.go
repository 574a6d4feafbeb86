// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"path/filepath"
	"strings"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/governance"
)

// Governance says where Warden's own places are, for the floor's
// governance paths (DESIGN.md §5, package governance).
type Governance struct {
	// Own are Warden's configuration and state directories: no access.
	Own []string
	// Policies are the policy files in force: no write.
	Policies []string
	// Path is the PATH of the deciding process.
	Path string
}

// governed marks every path of a with the governance paths it reaches:
// each spelling of a write or a delete (as written, as resolved, and
// each re-spelt under the project), and for a read, Warden's own
// directories. The project's repositories and hooks directories are
// found once, on the first write.
func governed(a *action.Action, opt Options) {
	pl := governance.Places{Home: opt.Home, Own: opt.Governance.Own, Policies: opt.Governance.Policies}
	located := false
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
		if !located {
			locate(&pl, a.Project, opt)
			located = true
		}
		seen := ""
		for _, f := range forms {
			if f == "" || f == seen {
				continue
			}
			seen = f
			if m, ok := pl.Match(f); ok {
				p.Governed = append(p.Governed, m)
			}
		}
	}
}

// locate finds the places that need the filesystem: the git directories
// of the project's repository that are not under a .git entry, the
// core.hooksPath directories of every configuration level, and PATH.
func locate(pl *governance.Places, project string, opt Options) {
	var repo gitindex.Repo
	if project != "" {
		if r, err := gitindex.Discover(filepath.Join(project, ".git"), project, opt.Home); err == nil {
			repo = r
			for _, d := range []string{r.Dir, r.Common} {
				if !strings.Contains("/"+d+"/", "/.git/") {
					pl.GitDirs = append(pl.GitDirs, d)
				}
			}
		}
	}
	if repo.Dir != "" {
		pl.Hooks = repo.Hooks
	} else {
		pl.Hooks = gitindex.HooksPaths(repo, project, opt.Home)
	}
	for _, d := range filepath.SplitList(opt.Governance.Path) {
		// A relative entry is relative to wherever a command is run;
		// the root, the home or a directory holding the project would
		// make every write a question: PATH's own places are judged by
		// their other entries.
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if gitindex.NotProject(d, opt.Home) || project != "" && action.Within(d, project) {
			continue
		}
		pl.Path = append(pl.Path, d)
	}
}
