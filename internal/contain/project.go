// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"fmt"
	"os"
	"path/filepath"

	"warden.dev/warden/internal/gitindex"
)

// Project is the project of a run started in dir that names project
// (--project; empty for none), with its links resolved (docs/spec.md §11):
// the one named, else the git work tree that holds dir, else dir. The
// home, the root and an ancestor of the home are never a project,
// named or not: the project is writable, and the whole home would be
// (shell start-up files, agent settings, every other project). Its
// error is an [*Exit] with status 2 and a hint. warden mcp --sandbox
// takes its server's project here too, so that the gateway judges paths
// against the project the sandbox makes writable.
func Project(project, dir, home string) (string, error) {
	if project == "" {
		p := gitindex.RunProject(dir, home)
		if p == "" {
			return "", badInput(fmt.Sprintf("no project: warden run was started in %s, %s, which is never a project (the command could write all of it)", dir, neverProject(dir, home)),
				"cd into the project first (a git work tree, or a directory of its own), or name it: warden run --project DIR -- CMD")
		}
		return p, nil
	}
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return "", badInput(fmt.Sprintf("project directory %q is not a directory", project),
			"pass an existing directory with --project")
	}
	real := realPath(project)
	if gitindex.NotProject(real, home) {
		return "", badInput(fmt.Sprintf("--project %s: %s is never a project (the command could write all of it)", project, neverProject(real, home)),
			"name the project's own directory, below your home: warden run --project ~/src/app -- CMD")
	}
	return real, nil
}

// neverProject says what dir is of the directories that are never a
// project.
func neverProject(dir, home string) string {
	dir = realPath(dir)
	switch {
	case dir == "/":
		return "the root"
	case home != "" && dir == realPath(home):
		return "your home directory"
	}
	return "an ancestor of your home directory"
}

// workDir is where the command starts: warden's own working directory
// when it is in the project (a subdirectory stays one), else the
// project's top.
func workDir(dir, project string) string {
	if dir == "" {
		return project
	}
	d := realPath(dir)
	if d == project || within(d, project) {
		return d
	}
	return project
}

// realPath is p absolute, with its links resolved.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}
