// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

// A patch of Codex's apply_patch tool, read as codex-rs/apply-patch's
// parser (src/parser.rs, parse_patch) reads it, so that Warden judges the
// files Codex writes and no others:
//
//	*** Begin Patch
//	*** Add File: PATH        then the lines starting with +
//	*** Delete File: PATH
//	*** Update File: PATH
//	*** Move to: PATH         optional, the line right after Update File
//	@@ [context]              chunks: lines starting with space, +, - or empty
//	*** End of File           optional, ends a chunk
//	*** End Patch
//
// The rules, Codex's own:
//
//   - The text is trimmed of white space, then split into lines at \n
//     (a \r before it is dropped).
//   - The first line, trimmed, must be "*** Begin Patch" and the last,
//     trimmed, "*** End Patch". Failing that, a patch wrapped in a heredoc
//     (first line exactly <<EOF, <<'EOF' or <<"EOF", last line ending in
//     EOF, four lines at least) is read without those two lines.
//   - Each file header is a line that, trimmed, starts with the marker
//     and its space; the path is the rest of the trimmed line. An Add
//     File takes the lines starting with + after it. "*** Move to: " is
//     matched on the untrimmed line after Update File, and its path is the
//     rest of that line, untrimmed.
//   - An Update File needs one chunk at least. Blank lines between chunks
//     are skipped; a line starting with * ends the file's chunks. A chunk
//     starts with @@ lines (only the first chunk may go without), then
//     holds lines starting with space, + or -, or empty, and ends at
//     "*** End of File" or at any other line (which must not be its
//     first).
//   - Any line that is none of these — between files, after an Add
//     File's content, in a chunk's place — makes the patch invalid.
//
// Codex has read consecutive @@ lines as one chunk's context in some
// versions and as an error in others; both read the same files, and they
// are accepted here.
//
// Codex then resolves every path against the directory the patch applies
// in (AbsolutePathBuf::resolve_path_against_base): ~ and ~/… are the home
// directory, and . and .. are removed lexically, before any link is
// followed. Older versions joined the path to the directory as it is. A
// path is judged both ways where they differ (patchFiles).
//
// On top of Codex's grammar, Warden refuses a patch that touches no file
// and a path that is empty or holds a NUL byte.

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Op is what a patch does to one file.
type Op string

// The operations of a patch.
const (
	Add    Op = "add"
	Update Op = "update"
	Delete Op = "delete"
)

// Change is one file a patch touches.
type Change struct {
	Op   Op     `json:"op"`
	Path string `json:"path"`
	// MoveTo is the new path of an updated file that is renamed: the old
	// path is removed and this one written.
	MoveTo string `json:"move_to,omitempty"`
}

// The markers of the patch grammar (parser.rs).
const (
	beginMarker        = "*** Begin Patch"
	endMarker          = "*** End Patch"
	addMarker          = "*** Add File: "
	deleteMarker       = "*** Delete File: "
	updateMarker       = "*** Update File: "
	moveMarker         = "*** Move to: "
	eofMarker          = "*** End of File"
	contextMarker      = "@@ "
	emptyContextMarker = "@@"
)

// ParsePatch lists the files a patch touches, in order, as Codex reads
// them. It fails when Codex would reject the patch, when the patch touches
// no file, and when a path is empty or holds a NUL byte.
func ParsePatch(text string) ([]Change, error) {
	hunks, err := parseHunks(text)
	if err != nil {
		return nil, err
	}
	if len(hunks) == 0 {
		return nil, errors.New("the patch touches no file")
	}
	out := make([]Change, len(hunks))
	for i, h := range hunks {
		for _, p := range []*string{&h.path, h.move} {
			switch {
			case p == nil:
			case *p == "":
				return nil, fmt.Errorf("patch line %d: a file header with no path", h.line)
			case strings.ContainsRune(*p, 0):
				return nil, fmt.Errorf("patch line %d: a path with a NUL byte", h.line)
			}
		}
		out[i] = Change{Op: h.op, Path: h.path}
		if h.move != nil {
			out[i].MoveTo = *h.move
		}
	}
	return out, nil
}

// hunk is one file of a patch, as the grammar reads it.
type hunk struct {
	op   Op
	path string
	move *string // an Update File's Move to, which may be empty
	line int
}

// parseHunks is parse_patch: Codex's grammar, without Warden's checks.
func parseHunks(text string) ([]hunk, error) {
	if !utf8.ValidString(text) {
		return nil, errors.New("the patch is not UTF-8") // a Rust string always is
	}
	lines := patchLines(text)
	body, first, err := boundaries(lines)
	if err != nil {
		return nil, err
	}
	var out []hunk
	for n := first; len(body) > 0; {
		h, used, err := parseHunk(body, n)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
		body, n = body[used:], n+used
	}
	return out, nil
}

// patchLines is Rust's text.trim().lines().
func patchLines(text string) []string {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	lines := strings.Split(t, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// boundaries checks the Begin and End lines, or a heredoc's around them,
// and returns the lines between and the line number of the first.
func boundaries(lines []string) ([]string, int, error) {
	body, err := strictBoundaries(lines)
	if err == nil {
		return body, 2, nil
	}
	if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) && strings.HasSuffix(lines[n-1], "EOF") {
		body, err := strictBoundaries(lines[1 : n-1])
		return body, 3, err
	}
	return nil, 0, err
}

func strictBoundaries(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker {
		return nil, errors.New(`the first line of the patch must be "*** Begin Patch"`)
	}
	if strings.TrimSpace(lines[len(lines)-1]) != endMarker {
		return nil, errors.New(`the last line of the patch must be "*** End Patch"`)
	}
	return lines[1 : len(lines)-1], nil
}

// parseHunk reads one file from the start of lines, numbered from n,
// and returns how many lines it took.
func parseHunk(lines []string, n int) (hunk, int, error) {
	first := strings.TrimSpace(lines[0])
	if p, ok := strings.CutPrefix(first, addMarker); ok {
		used := 1
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "+") {
				break
			}
			used++
		}
		return hunk{op: Add, path: p, line: n}, used, nil
	}
	if p, ok := strings.CutPrefix(first, deleteMarker); ok {
		return hunk{op: Delete, path: p, line: n}, 1, nil
	}
	p, ok := strings.CutPrefix(first, updateMarker)
	if !ok {
		return hunk{}, 0, fmt.Errorf("patch line %d: %q is not a file header (*** Add File:, *** Delete File: or *** Update File:)", n, clip(first))
	}
	h := hunk{op: Update, path: p, line: n}
	rest, used := lines[1:], 1
	if len(rest) > 0 {
		if m, ok := strings.CutPrefix(rest[0], moveMarker); ok {
			h.move = &m
			rest, used = rest[1:], used+1
		}
	}
	chunks := 0
	for len(rest) > 0 {
		if strings.TrimSpace(rest[0]) == "" {
			rest, used = rest[1:], used+1
			continue
		}
		if strings.HasPrefix(rest[0], "*") {
			break
		}
		k, err := parseChunk(rest, n+used, chunks == 0)
		if err != nil {
			return hunk{}, 0, err
		}
		rest, used, chunks = rest[k:], used+k, chunks+1
	}
	if chunks == 0 {
		return hunk{}, 0, fmt.Errorf("patch line %d: the Update File of %q has no change", n, clip(p))
	}
	return h, used, nil
}

// parseChunk reads one chunk of an Update File from the start of lines,
// numbered from n; only the first may go without @@.
func parseChunk(lines []string, n int, first bool) (int, error) {
	start := 0
	for start < len(lines) && (lines[start] == emptyContextMarker || strings.HasPrefix(lines[start], contextMarker)) {
		start++
	}
	if start == 0 && !first {
		return 0, fmt.Errorf("patch line %d: %q where a change starting with @@ was expected", n, clip(lines[0]))
	}
	if start >= len(lines) {
		return 0, fmt.Errorf("patch line %d: a change with no lines", n+start)
	}
	taken := 0
	for _, l := range lines[start:] {
		if l == eofMarker {
			if taken == 0 {
				return 0, fmt.Errorf("patch line %d: a change with no lines", n+start)
			}
			taken++
			break
		}
		if l == "" || l[0] == ' ' || l[0] == '+' || l[0] == '-' {
			taken++
			continue
		}
		if taken == 0 {
			return 0, fmt.Errorf("patch line %d: %q in a change, whose lines start with space, + or -", n+start, clip(l))
		}
		break
	}
	return start + taken, nil
}

// patchFiles are the files the changes write and delete when the patch
// applies in dir (absolute), each as Codex resolves it: see resolve.
func patchFiles(dir string, changes []Change) (writes, deletes []string, err error) {
	add := func(list *[]string, p string) {
		var ps []string
		if ps, err = resolve(dir, p); err == nil {
			for _, p := range ps {
				if !slices.Contains(*list, p) {
					*list = append(*list, p)
				}
			}
		}
	}
	for _, ch := range changes {
		switch {
		case ch.Op == Delete:
			add(&deletes, ch.Path)
		case ch.MoveTo != "":
			add(&deletes, ch.Path)
			add(&writes, ch.MoveTo)
		default:
			add(&writes, ch.Path)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return writes, deletes, nil
}

// resolve is the file a patch path names when the patch applies in dir
// (and a path view_image or a sub-agent's item names, relative to the
// turn's directory, dir):
// ~ and ~/… in the home directory, the rest joined to dir, with . and ..
// removed lexically, as Codex resolves it now; and the path joined to dir
// as it is, as older versions did, where that differs. A path above the
// home directory (~/../x) is refused: the home directory's parent is not
// known here.
func resolve(dir, p string) ([]string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		rest := path.Clean(strings.TrimLeft(p[1:], "/"))
		if rest == ".." || strings.HasPrefix(rest, "../") {
			return nil, fmt.Errorf("the path %q leaves the home directory", clip(p))
		}
		home := "~"
		if rest != "." {
			home += "/" + rest
		}
		return []string{home, dir + "/" + p}, nil
	}
	abs := p
	if !path.IsAbs(p) {
		abs = dir + "/" + p
	}
	if c := path.Clean(abs); c != abs {
		return []string{c, abs}, nil
	}
	return []string{abs}, nil
}

// clip bounds a value quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
