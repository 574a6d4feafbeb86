// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex

// A patch of Codex's apply_patch tool, as codex-rs/apply-patch's grammar
// writes it:
//
//	*** Begin Patch
//	*** Add File: PATH        then lines starting with +
//	*** Delete File: PATH
//	*** Update File: PATH
//	*** Move to: PATH         optional, right after Update File
//	@@ …                      hunks: lines starting with space, + or -
//	*** End of File           optional, ends a hunk
//	*** End Patch
//
// Warden needs only which files the patch touches and how. The parse is
// strict: a patch it cannot read in full (no Begin or End line, a header
// it does not know, a file with no path, no file at all) is an error, and
// the call is refused rather than judged on part of it.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
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

// ParsePatch lists the files a patch touches, in order.
func ParsePatch(text string) ([]Change, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	// Blank lines around the patch are tolerated, as Codex tolerates them.
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "*** Begin Patch" {
		return nil, errors.New(`the patch does not start with "*** Begin Patch"`)
	}
	if strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, errors.New(`the patch does not end with "*** End Patch"`)
	}
	var out []Change
	for i, line := range lines[1 : len(lines)-1] {
		rest, header := strings.CutPrefix(line, "*** ")
		if !header {
			if len(out) == 0 && strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("patch line %d: %q before any file header", i+2, clip(line))
			}
			continue
		}
		name, arg, _ := strings.Cut(rest, ":")
		arg = strings.TrimSpace(arg)
		var c Change
		switch name {
		case "Add File":
			c = Change{Op: Add, Path: arg}
		case "Delete File":
			c = Change{Op: Delete, Path: arg}
		case "Update File":
			c = Change{Op: Update, Path: arg}
		case "Move to":
			if len(out) == 0 || out[len(out)-1].Op != Update || out[len(out)-1].MoveTo != "" {
				return nil, fmt.Errorf("patch line %d: a Move to that does not follow an Update File", i+2)
			}
			if err := checkPath(arg, i+2); err != nil {
				return nil, err
			}
			out[len(out)-1].MoveTo = arg
			continue
		case "End of File":
			if arg != "" || strings.Contains(rest, ":") {
				return nil, fmt.Errorf("patch line %d: %q is not a header Warden knows", i+2, clip(line))
			}
			continue
		default:
			return nil, fmt.Errorf("patch line %d: %q is not a header Warden knows", i+2, clip(line))
		}
		if err := checkPath(c.Path, i+2); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("the patch touches no file")
	}
	return out, nil
}

func checkPath(p string, line int) error {
	if p == "" {
		return fmt.Errorf("patch line %d: a file header with no path", line)
	}
	if strings.ContainsRune(p, 0) {
		return fmt.Errorf("patch line %d: a path with a NUL byte", line)
	}
	return nil
}

// shellPatch matches a shell command that runs apply_patch, as Codex
// intercepts it (apply_patch <<'EOF' … EOF, optionally after cd DIR &&).
var shellPatch = regexp.MustCompile(`^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s'"&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)(?:\s|$)`)

// patchInCommand finds the patch of a shell command that runs apply_patch:
// the directory it runs in (empty for the working directory), the patch
// text between its Begin and End lines, and whether it is one.
func patchInCommand(cmd string) (dir, patch string, ok bool) {
	m := shellPatch.FindStringSubmatch(cmd)
	if m == nil {
		return "", "", false
	}
	dir = strings.Trim(m[1], `'"`)
	begin := strings.Index(cmd, "*** Begin Patch")
	end := strings.LastIndex(cmd, "*** End Patch")
	if begin < 0 || end < begin {
		// apply_patch without a patch Warden can see: judged as the
		// command it is, and the patch is checked when Codex calls the
		// apply_patch tool with it.
		return "", "", false
	}
	return dir, cmd[begin : end+len("*** End Patch")], true
}

// clip bounds a value quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
