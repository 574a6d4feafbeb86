// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex

// This file finds a project's git repositories on the host without running
// git: running it would cost milliseconds and would read the very
// configuration an agent may have planted. It parses what git would read:
// a .git directory, or a .git file ("gitdir: …") for linked worktrees and
// submodules, the commondir file, and the core.hooksPath setting of every
// configuration level. warden run protects what it finds; the policy
// engine's floor guards the same places (package governance).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// modulesDir is where a superproject keeps its submodules' git
// directories.
const modulesDir = "/.git/modules/"

// within reports whether p is strictly below dir (both clean).
func within(p, dir string) bool {
	return dir != "" && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// Repo is one repository of a project.
type Repo struct {
	// DotGit is the project's .git entry (a directory, a file or a link).
	DotGit string
	// Dir is the real git directory and Common its common directory
	// (Dir itself but in a linked worktree); both resolved.
	Dir, Common string
	// Hooks are the directories core.hooksPath names at any level,
	// absolute and cleaned; they may not exist.
	Hooks []string
}

// Discover finds the git directory behind dotGit, a .git entry of the
// project, and checks that a .git file points where git itself would put
// one: inside the project, at a linked worktree's git directory that
// points back at this file, or at a submodule's under a superproject's
// .git/modules/.
func Discover(dotGit, project, home string) (Repo, error) {
	r := Repo{DotGit: dotGit}
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return r, err
	}
	switch {
	case fi.IsDir():
		r.Dir = dotGit
	case fi.Mode()&os.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(dotGit)
		if err != nil {
			return r, fmt.Errorf("link to a git directory that cannot be resolved: %v", err)
		}
		// Held to the rules of a .git file: its git directory is made
		// writable, so it must be one git itself would put there.
		if err := checkGitFileTarget(dotGit, real, project); err != nil {
			return r, err
		}
		r.Dir = real
	case fi.Mode().IsRegular():
		data, err := readSmall(dotGit, maxGitFile)
		if err != nil {
			return r, err
		}
		target, err := ParseGitFile(data, filepath.Dir(dotGit))
		if err != nil {
			return r, err
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			return r, fmt.Errorf("points at %s, which cannot be resolved: %v", target, err)
		}
		if err := checkGitFileTarget(dotGit, real, project); err != nil {
			return r, err
		}
		r.Dir = real
	default:
		return r, errors.New("neither a directory, a file nor a link")
	}
	if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
		return r, fmt.Errorf("git directory %s is not a directory", r.Dir)
	}
	r.Common = r.Dir
	if data, err := readSmall(filepath.Join(r.Dir, "commondir"), maxGitFile); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(r.Dir, c)
		}
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			return r, fmt.Errorf("commondir of %s cannot be resolved: %v", r.Dir, err)
		}
		r.Common = real
	}
	r.Hooks = HooksPaths(r, filepath.Dir(dotGit), home)
	return r, nil
}

// checkGitFileTarget checks where the .git file dotGit points (real,
// resolved).
func checkGitFileTarget(dotGit, real, project string) error {
	if real == project || within(real, project) {
		return nil
	}
	// A linked worktree: its git directory names its common directory,
	// and its gitdir file names this .git file.
	if _, err := os.Stat(filepath.Join(real, "commondir")); err == nil {
		if data, err := readSmall(filepath.Join(real, "gitdir"), maxGitFile); err == nil {
			back := strings.TrimSpace(string(data))
			if !filepath.IsAbs(back) {
				back = filepath.Join(real, back)
			}
			if b, err := filepath.EvalSymlinks(back); err == nil {
				if d, err := filepath.EvalSymlinks(dotGit); err == nil && b == d {
					return nil
				}
			}
		}
	}
	// A submodule: under the .git/modules/ of a directory above it.
	if i := strings.Index(real, modulesDir); i > 0 {
		super := real[:i]
		if d, err := filepath.EvalSymlinks(filepath.Dir(dotGit)); err == nil && within(d, super) {
			return nil
		}
	}
	return fmt.Errorf("points at %s, outside the project and neither a linked worktree's git directory that points back at it nor a submodule's under a superproject's .git/modules", real)
}

// HooksPaths reads core.hooksPath from every configuration level git
// would read for r (system, global, the repository's config and
// config.worktree), following [include] and [includeIf] paths one level.
// A relative value is relative to the work tree, workTree. A zero r
// (no repository) reads the system and user levels only.
func HooksPaths(r Repo, workTree, home string) []string {
	files := []string{"/etc/gitconfig"}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if r.Dir != "" {
		files = append(files, filepath.Join(r.Common, "config"))
		if r.Dir != r.Common {
			files = append(files, filepath.Join(r.Dir, "config"))
		}
		files = append(files, filepath.Join(r.Dir, "config.worktree"))
	}
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if rest, ok := strings.CutPrefix(v, "~/"); ok && home != "" {
			v = filepath.Join(home, rest)
		} else if !filepath.IsAbs(v) {
			v = filepath.Join(workTree, v)
		}
		v = filepath.Clean(v)
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, f := range files {
		data, err := readSmall(f, maxGitConfig)
		if err != nil {
			continue
		}
		for _, e := range ParseConfig(data) {
			switch {
			case e.Section == "core" && e.Sub == "" && e.Key == "hookspath" && e.Value != "":
				add(e.Value)
			case (e.Section == "include" || e.Section == "includeif") && e.Key == "path" && e.Value != "":
				inc := e.Value
				if rest, ok := strings.CutPrefix(inc, "~/"); ok && home != "" {
					inc = filepath.Join(home, rest)
				} else if !filepath.IsAbs(inc) {
					inc = filepath.Join(filepath.Dir(f), inc)
				}
				// One level: what an included file includes is not
				// followed.
				if data, err := readSmall(inc, maxGitConfig); err == nil {
					for _, e := range ParseConfig(data) {
						if e.Section == "core" && e.Sub == "" && e.Key == "hookspath" && e.Value != "" {
							add(e.Value)
						}
					}
				}
			}
		}
	}
	return out
}

// ConfigEntry is one variable of a git configuration file. Section and
// key are lower case; sub (a subsection) keeps its case.
type ConfigEntry struct {
	Section, Sub, Key, Value string
}

// ParseConfig reads the variables of a git configuration file, as
// git-config(1) writes them: [section] and [section "sub"] headers (and
// the old [section.sub]), "key = value" with quotes, escapes, comments
// and line continuations; a key without "=" is true. Lines it cannot read
// are skipped.
func ParseConfig(data []byte) []ConfigEntry {
	var out []ConfigEntry
	var section, sub string
	if len(data) > maxGitConfig {
		data = data[:maxGitConfig]
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	pending := ""
lines:
	for i, raw := range lines {
		line := pending + raw
		pending = ""
		if continues(line) {
			line = strings.TrimSuffix(line, "\\")
			if i < len(lines)-1 {
				pending = line
				continue
			}
			// At the end of the file the value ends there.
		}
		s := strings.TrimSpace(line)
		// A variable, or another header, may follow a header on its line.
		for strings.HasPrefix(s, "[") {
			end := headerEnd(s)
			if end < 0 {
				continue lines
			}
			hdr := s[1:end]
			section, sub = hdr, ""
			if name, rest, ok := strings.Cut(hdr, " "); ok {
				section = name
				sub = strings.Trim(strings.TrimSpace(rest), `"`)
				sub = unescapeSub(sub)
			} else if name, rest, ok := strings.Cut(hdr, "."); ok {
				section, sub = name, rest
			}
			section = strings.ToLower(strings.TrimSpace(section))
			s = strings.TrimSpace(s[end+1:])
		}
		if s == "" || s[0] == '#' || s[0] == ';' {
			continue
		}
		key, val, hasVal := strings.Cut(s, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "" || strings.ContainsAny(key, " \t") {
			continue
		}
		v := "true"
		if hasVal {
			v = configValue(val)
		}
		out = append(out, ConfigEntry{Section: section, Sub: sub, Key: key, Value: v})
	}
	return out
}

// headerEnd is the index of the "]" that closes the header s starts, past
// a quoted subsection (which may hold "]" and escapes), or -1.
func headerEnd(s string) int {
	quoted := false
	for i := 1; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == ']':
			return i
		}
	}
	return -1
}

// unescapeSub decodes a quoted subsection name: a backslash stands for
// the character after it, whatever it is, as git reads it.
func unescapeSub(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// continues reports whether a configuration line goes on on the next one,
// as git reads it: a backslash that ends the line outside a comment (a
// backslash in a comment, "# \\", ends nothing: git skips the rest of a
// comment's line, and reads the next line as a line of its own) and not
// escaped by another.
func continues(line string) bool {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '#' || c == ';'):
			return false
		case c == '\\':
			if i == len(line)-1 {
				return true
			}
			i++
		}
	}
	return false
}

// configValue decodes a value: surrounding blanks dropped, quotes
// removed, \" \\ \n \t decoded, a comment outside quotes cut.
func configValue(s string) string {
	var b strings.Builder
	quoted := false
	pendingSpace := ""
	s = strings.TrimLeft(s, " \t")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			continue
		case !quoted && (c == '#' || c == ';'):
			return b.String()
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteString(pendingSpace)
			pendingSpace = ""
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				// backspace: drop the last byte, as git does
				str := b.String()
				b.Reset()
				if len(str) > 0 {
					b.WriteString(str[:len(str)-1])
				}
			default:
				b.WriteByte(s[i])
			}
			continue
		case !quoted && (c == ' ' || c == '\t'):
			// A run of inner blanks is one space, as git reads it;
			// trailing ones are dropped.
			pendingSpace = " "
			continue
		}
		b.WriteString(pendingSpace)
		pendingSpace = ""
		b.WriteByte(c)
	}
	return b.String()
}
