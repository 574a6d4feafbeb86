// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file finds the git repositories of a project on the host before a
// run, without running git: running it would cost milliseconds and would
// read the very configuration a previous run may have planted. It parses
// what git would read: a .git directory, or a .git file ("gitdir: …") for
// linked worktrees and submodules, the commondir file, and the
// core.hooksPath setting of every configuration level.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"warden.dev/warden/internal/gitindex"
)

// gitRepo is one repository of the project.
type gitRepo struct {
	// DotGit is the project's .git entry (a directory, a file or a link).
	DotGit string
	// Dir is the real git directory and Common its common directory
	// (Dir itself but in a linked worktree); both resolved.
	Dir, Common string
	// Hooks are the directories core.hooksPath names at any level,
	// absolute and cleaned; they may not exist.
	Hooks []string
}

// maxGitFile bounds what is read of a .git file, a commondir or gitdir
// file, and a configuration file.
const (
	maxGitFile    = 4 << 10
	maxGitConfig  = 1 << 20
	gitModulesDir = "/.git/modules/"
)

// readSmall reads at most limit bytes of p.
func readSmall(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// discoverRepo finds the git directory behind dotGit, a .git entry of the
// project, and checks that a .git file points where git itself would put
// one: inside the project, at a linked worktree's git directory that
// points back at this file, or at a submodule's under a superproject's
// .git/modules/.
func discoverRepo(dotGit, project, home string) (gitRepo, error) {
	r := gitRepo{DotGit: dotGit}
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
		target, err := gitindex.ParseGitFile(data, filepath.Dir(dotGit))
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
	r.Hooks = hooksPaths(r, filepath.Dir(dotGit), home)
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
	if i := strings.Index(real, gitModulesDir); i > 0 {
		super := real[:i]
		if d, err := filepath.EvalSymlinks(filepath.Dir(dotGit)); err == nil && within(d, super) {
			return nil
		}
	}
	return fmt.Errorf("points at %s, outside the project and neither a linked worktree's git directory that points back at it nor a submodule's under a superproject's .git/modules", real)
}

// hooksPaths reads core.hooksPath from every configuration level git
// would read for r (system, global, the repository's config and
// config.worktree), following [include] and [includeIf] paths one level.
// A relative value is relative to the work tree, workTree.
func hooksPaths(r gitRepo, workTree, home string) []string {
	files := []string{"/etc/gitconfig"}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	files = append(files, filepath.Join(r.Common, "config"))
	if r.Dir != r.Common {
		files = append(files, filepath.Join(r.Dir, "config"))
	}
	files = append(files, filepath.Join(r.Dir, "config.worktree"))
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
		for _, e := range parseGitConfig(data) {
			switch {
			case e.section == "core" && e.sub == "" && e.key == "hookspath" && e.value != "":
				add(e.value)
			case (e.section == "include" || e.section == "includeif") && e.key == "path" && e.value != "":
				inc := e.value
				if rest, ok := strings.CutPrefix(inc, "~/"); ok && home != "" {
					inc = filepath.Join(home, rest)
				} else if !filepath.IsAbs(inc) {
					inc = filepath.Join(filepath.Dir(f), inc)
				}
				// One level: what an included file includes is not
				// followed.
				if data, err := readSmall(inc, maxGitConfig); err == nil {
					for _, e := range parseGitConfig(data) {
						if e.section == "core" && e.sub == "" && e.key == "hookspath" && e.value != "" {
							add(e.value)
						}
					}
				}
			}
		}
	}
	return out
}

// gitConfigEntry is one variable of a git configuration file. Section and
// key are lower case; sub (a subsection) keeps its case.
type gitConfigEntry struct {
	section, sub, key, value string
}

// parseGitConfig reads the variables of a git configuration file, as
// git-config(1) writes them: [section] and [section "sub"] headers (and
// the old [section.sub]), "key = value" with quotes, escapes, comments
// and line continuations; a key without "=" is true. Lines it cannot read
// are skipped.
func parseGitConfig(data []byte) []gitConfigEntry {
	var out []gitConfigEntry
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
			v = gitConfigValue(val)
		}
		out = append(out, gitConfigEntry{section: section, sub: sub, key: key, value: v})
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

// gitConfigValue decodes a value: surrounding blanks dropped, quotes
// removed, \" \\ \n \t decoded, a comment outside quotes cut.
func gitConfigValue(s string) string {
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

// benignConfig are the variables that git clone and git init write in a
// new repository's config (and a few an agent sets there), none of which
// makes git run anything: a new repository whose config holds only these,
// with only .sample hooks and only info/exclude, is left to the host.
// Everything else (core.fsmonitor, core.hooksPath, core.sshCommand,
// aliases, filters, include, remote.*.uploadpack, submodule.*.update…)
// sends its entry to the quarantine. Section and key, lower case; "*"
// for any subsection, "" for none.
var benignConfig = map[[3]string]bool{
	{"core", "", "repositoryformatversion"}: true,
	{"core", "", "filemode"}:                true,
	{"core", "", "bare"}:                    true,
	{"core", "", "logallrefupdates"}:        true,
	{"core", "", "ignorecase"}:              true,
	{"core", "", "precomposeunicode"}:       true,
	{"core", "", "symlinks"}:                true,
	{"extensions", "", "objectformat"}:      true,
	{"extensions", "", "partialclone"}:      true,
	{"init", "", "defaultbranch"}:           true,
	{"user", "", "name"}:                    true,
	{"user", "", "email"}:                   true,
	{"pull", "", "rebase"}:                  true,
	{"pull", "", "ff"}:                      true,
	{"remote", "*", "url"}:                  true, // see benignValue
	{"remote", "*", "pushurl"}:              true,
	{"remote", "*", "fetch"}:                true,
	{"remote", "*", "tagopt"}:               true,
	{"remote", "*", "promisor"}:             true,
	{"remote", "*", "partialclonefilter"}:   true,
	{"branch", "*", "remote"}:               true,
	{"branch", "*", "merge"}:                true,
	{"branch", "*", "pushremote"}:           true,
	{"submodule", "*", "url"}:               true,
	{"submodule", "*", "active"}:            true,
	{"lfs", "", "repositoryformatversion"}:  true,
}

// canonicalLine matches the lines of a configuration as git config
// writes them: a header, or a variable. Compiled on first use: most
// processes (init among them) never need it.
var canonicalLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\[[A-Za-z0-9-]+( "[^"\\\x00-\x1f\x7f]*")?\]|\t[A-Za-z][A-Za-z0-9-]* = [^"\\#;\x00-\x1f\x7f]*)$`)
})

// benignGitConfig reports whether every variable of a configuration file
// is in benignConfig, with a value that runs nothing: a URL is not a
// remote helper's ("transport::address", as ext:: is) and no option.
func benignGitConfig(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		// Only the form git clone and git init write: a header or a
		// "\tkey = value" line, no comment, quote, escape or
		// continuation. Any other syntax is one more place where this
		// parser and git's could read different variables (a comment
		// ending in a backslash hid the next line from an earlier
		// version), so it is not benign.
		if line != "" && !canonicalLine().MatchString(line) {
			return false
		}
	}
	for _, e := range parseGitConfig(data) {
		sub := ""
		if e.sub != "" {
			sub = "*"
		}
		if !benignConfig[[3]string{e.section, sub, e.key}] {
			return false
		}
		if (e.key == "url" || e.key == "pushurl") && (strings.Contains(e.value, "::") || strings.HasPrefix(e.value, "-")) {
			return false
		}
	}
	return true
}

// benignNewGitEntry reports whether the entry name of a git directory the
// run created is what git clone and git init make and runs nothing: a
// config of benignConfig, a hooks directory of .sample files only, an info
// directory holding only exclude.
func benignNewGitEntry(p, name string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	switch name {
	case "config":
		if !fi.Mode().IsRegular() {
			return false
		}
		data, err := readSmall(p, maxGitConfig)
		return err == nil && len(data) < maxGitConfig && benignGitConfig(data)
	case "hooks", "info":
		if !fi.IsDir() {
			return false
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return false
		}
		for _, e := range ents {
			ok := e.Type().IsRegular() && (name == "hooks" && strings.HasSuffix(e.Name(), ".sample") || name == "info" && e.Name() == "exclude")
			if !ok {
				return false
			}
		}
		return true
	}
	return false
}
