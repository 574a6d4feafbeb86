// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package preview says what an action would do, for the person asked to
// approve it, computed by Warden outside the agent: for a push, the
// remote, the refs and the commits that would go; for a delete, how many
// files and bytes, and the newest change; for a write, whether the file
// exists and how big it is; for egress, the hosts; for anything else,
// the commands. It reads the repository and the filesystem and never
// changes them; what it cannot find out it says.
package preview

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/action"
)

// maxLines bounds a preview; maxWalk the entries a delete's count visits.
const (
	maxLines  = 12
	maxWalk   = 100000
	gitBudget = 3 * time.Second
)

// Of is a's preview, a line each.
func Of(a *action.Action) []string {
	var out []string
	for _, c := range a.Classes {
		switch c {
		case action.GitPush:
			out = append(out, push(a)...)
		case action.FileDelete:
			out = append(out, deletes(a)...)
		case action.FileWriteOutsideWorktree:
			out = append(out, writes(a)...)
		case action.NetworkEgress:
			for _, h := range a.Hosts {
				out = append(out, fmt.Sprintf("reaches %s; the narrowest network rule that would allow it: allow: {host: %s, port: 443}", h, h))
			}
		case action.PackageInstall:
			out = append(out, installs(a)...)
		}
	}
	if len(out) == 0 {
		for _, argv := range a.Commands {
			out = append(out, "runs "+strings.Join(argv, " "))
		}
	}
	if len(out) > maxLines {
		out = append(out[:maxLines], fmt.Sprintf("… and %d more lines", len(out)-maxLines))
	}
	return out
}

// push previews each git push of a: what each ref would send.
func push(a *action.Action) []string {
	var out []string
	for _, argv := range a.Commands {
		remote, refs, ok := pushArgs(argv)
		if !ok {
			continue
		}
		dir := a.Cwd
		if dir == "" {
			dir = a.Project
		}
		if remote == "" {
			remote = "origin"
		}
		if len(refs) == 0 {
			if b, err := git(dir, "symbolic-ref", "--short", "HEAD"); err == nil {
				refs = []string{b}
			}
		}
		url, _ := git(dir, "remote", "get-url", "--push", remote)
		where := remote
		if url != "" {
			where += " (" + url + ")"
		}
		for _, ref := range refs {
			out = append(out, pushRef(dir, remote, where, ref)...)
		}
	}
	return out
}

// pushRef previews pushing one refspec.
func pushRef(dir, remote, where, spec string) []string {
	force := strings.HasPrefix(spec, "+")
	spec = strings.TrimPrefix(spec, "+")
	src, dst, ok := strings.Cut(spec, ":")
	if !ok {
		dst = src
	}
	if src == "" {
		return []string{fmt.Sprintf("deletes %s on %s", dst, where)}
	}
	if src == "HEAD" || dst == "HEAD" {
		if b, err := git(dir, "symbolic-ref", "--short", "HEAD"); err == nil {
			if src == "HEAD" {
				src = b
			}
			if dst == "HEAD" {
				dst = b
			}
		}
	}
	dst = strings.TrimPrefix(dst, "refs/heads/")
	tracking := "refs/remotes/" + remote + "/" + dst
	var count string
	var err error
	var logArgs []string
	if _, terr := git(dir, "rev-parse", "--verify", "--quiet", tracking); terr == nil {
		count, err = git(dir, "rev-list", "--count", tracking+".."+src)
		logArgs = []string{tracking + ".." + src}
	} else {
		count, err = git(dir, "rev-list", "--count", src, "--not", "--remotes="+remote)
		logArgs = []string{src, "--not", "--remotes=" + remote}
	}
	if err != nil {
		return []string{fmt.Sprintf("pushes %s to %s on %s (what it sends could not be read: %v)", src, dst, where, err)}
	}
	n, _ := strconv.Atoi(count)
	line := fmt.Sprintf("pushes %d commit%s to %s on %s", n, plural(n), dst, where)
	if force {
		line += ", forced"
	}
	out := []string{line}
	if n > 0 {
		subjects, err := git(dir, append([]string{"log", "--format=%h %s", "-n", "5"}, logArgs...)...)
		if err == nil {
			for _, l := range strings.Split(subjects, "\n") {
				if l != "" {
					out = append(out, "  "+l)
				}
			}
			if n > 5 {
				out = append(out, fmt.Sprintf("  … %d more", n-5))
			}
		}
	}
	return out
}

// pushArgs reads a git push command line: its remote and refspecs.
func pushArgs(argv []string) (remote string, refs []string, ok bool) {
	i := 0
	if i < len(argv) && filepath.Base(argv[i]) == "git" {
		i++
	} else {
		return "", nil, false
	}
	// Global options before the subcommand.
	for i < len(argv) && strings.HasPrefix(argv[i], "-") {
		if argv[i] == "-C" || argv[i] == "-c" {
			i++
		}
		i++
	}
	if i >= len(argv) || argv[i] != "push" {
		return "", nil, false
	}
	var pos []string
	for _, w := range argv[i+1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		pos = append(pos, w)
	}
	if len(pos) > 0 {
		remote, refs = pos[0], pos[1:]
	}
	return remote, refs, true
}

// installers are the package managers whose install commands a preview
// reads, with the words that install.
var installers = map[string][]string{
	"pip": {"install"}, "pip3": {"install"}, "uv": {"add", "install"}, "poetry": {"add"}, "pipx": {"install"},
	"npm": {"install", "i", "add"}, "pnpm": {"add", "install", "i"}, "yarn": {"add"}, "bun": {"add", "install", "i"},
	"cargo": {"add", "install"}, "go": {"get", "install"}, "gem": {"install"}, "apt": {"install"}, "apt-get": {"install"},
	"brew": {"install"},
}

// installs previews a's package installs: the exact names, as given.
func installs(a *action.Action) []string {
	var out []string
	for _, argv := range a.Commands {
		if len(argv) < 2 {
			continue
		}
		tool := filepath.Base(argv[0])
		words, ok := installers[tool]
		if !ok {
			continue
		}
		i := 1
		if tool == "uv" && argv[1] == "pip" && len(argv) > 2 {
			i = 2
		}
		if !slices.Contains(words, argv[i]) {
			continue
		}
		var names []string
		for _, w := range argv[i+1:] {
			if !strings.HasPrefix(w, "-") {
				names = append(names, w)
			}
		}
		if len(names) == 0 {
			out = append(out, fmt.Sprintf("installs what the project's manifest names, with %s", tool))
			continue
		}
		out = append(out, fmt.Sprintf("installs %s with %s", strings.Join(names, ", "), tool))
	}
	return out
}

// deletes previews removing a's paths: files and bytes, the newest change.
func deletes(a *action.Action) []string {
	var out []string
	for _, p := range a.Paths {
		if p.Access != action.Delete {
			continue
		}
		path := where(p)
		var files, bytes int64
		var newest time.Time
		visited := 0
		err := filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if visited++; visited > maxWalk {
				return filepath.SkipAll
			}
			if info, err := d.Info(); err == nil && !d.IsDir() {
				files++
				bytes += info.Size()
				if info.ModTime().After(newest) {
					newest = info.ModTime()
				}
			}
			return nil
		})
		switch {
		case err != nil && os.IsNotExist(err):
			out = append(out, fmt.Sprintf("deletes %s, which does not exist", path))
		case files == 0:
			out = append(out, fmt.Sprintf("deletes %s (no files in it)", path))
		default:
			line := fmt.Sprintf("deletes %s: %d file%s, %s, newest changed %s", path, files, plural(int(files)), size(bytes), newest.Format("2006-01-02 15:04"))
			if visited > maxWalk {
				line += fmt.Sprintf(" (counted the first %d entries)", maxWalk)
			}
			out = append(out, line)
		}
	}
	return out
}

// writes previews writing a's paths outside the worktree.
func writes(a *action.Action) []string {
	var out []string
	for _, p := range a.Paths {
		if p.Access == action.Read {
			continue
		}
		path := where(p)
		if a.Project != "" && (path == a.Project || strings.HasPrefix(path, a.Project+"/")) {
			continue
		}
		info, err := os.Lstat(path)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("writes %s, a new file outside the project", path))
		case info.IsDir():
			out = append(out, fmt.Sprintf("writes in %s, an existing directory outside the project", path))
		default:
			out = append(out, fmt.Sprintf("writes %s, an existing file of %s outside the project, changed %s", path, size(info.Size()), info.ModTime().Format("2006-01-02 15:04")))
		}
	}
	return out
}

// where is the path an action reaches: as resolved, else as meant.
func where(p action.Path) string {
	for _, s := range []string{p.Resolved, p.Lexical, p.Raw} {
		if s != "" {
			return s
		}
	}
	return ""
}

func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitBudget)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	// The person's git, not the agent's: no pager, no prompt.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxDiffLines bounds the lines a write's diff shows.
const maxDiffLines = 12

// Write previews a file tool's write of path: what changes in it, as the
// lines removed (-) and added (+) between the common beginning and end.
// content is the whole new text (a Write); else old and new are the
// replaced and the replacing text (an Edit), the rest of the file kept.
func Write(path string, content *string, old, new string) []string {
	before, err := os.ReadFile(path)
	exists := err == nil
	var after string
	switch {
	case content != nil:
		after = *content
	case exists && old != "" && strings.Contains(string(before), old):
		after = strings.Replace(string(before), old, new, 1)
	default:
		// The text to replace is not there to read: show the change
		// itself.
		return append([]string{fmt.Sprintf("edits %s:", path)}, diffLines(old, new)...)
	}
	head := fmt.Sprintf("writes %s, a new file of %s:", path, size(int64(len(after))))
	if exists {
		head = fmt.Sprintf("writes %s (%s now, %s after):", path, size(int64(len(before))), size(int64(len(after))))
	}
	return append([]string{head}, diffLines(string(before), after)...)
}

// diffLines is the one hunk between a and b: the lines of a between
// their common beginning and end, removed, then b's, added.
func diffLines(a, b string) []string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if a == "" {
		al = nil
	}
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	var out []string
	for _, l := range al[p : len(al)-s] {
		out = append(out, "  - "+l)
	}
	for _, l := range bl[p : len(bl)-s] {
		out = append(out, "  + "+l)
	}
	if len(out) == 0 {
		return []string{"  (no change)"}
	}
	if len(out) > maxDiffLines {
		out = append(out[:maxDiffLines], fmt.Sprintf("  … %d more changed lines", len(out)-maxDiffLines))
	}
	return out
}
