// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The paths a run masks, found on the host before init covers them
// (mounts_linux.go). The rules:
//
//   - The candidates are the sensitive set's places in the home and what
//     a bounded walk of the home finds (hide.go), Spec.Mask, Spec.Hide
//     (literal paths, absolute globs expanded on the host, and
//     project-relative patterns, matched by the project walk) and the
//     sensitive names the project walk finds (walk.go).
//   - Each is resolved on the host to the real path it names. One that
//     does not exist is passed over; one that cannot be resolved fails
//     the run, since a path that cannot be resolved cannot be masked;
//     masking / or the project itself is refused.
//   - The other names in the project of a masked file (hard links) are
//     masked too, but for Spec.MaskOwn's.
//   - Masks are listed parents first.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/pathguard"
)

// planMasks lists the real paths to mask: the fixed places of the
// sensitive set in the home, Spec.Mask, sensitive names in the home (a
// bounded walk, see homeSensitive) and anywhere in the project, Spec.Hide,
// and the other names (hard links) in the project of what is masked. It
// returns the project walk too.
func planMasks(spec Spec, project string) ([]string, []string, *projectWalk, error) {
	var candidates, notes []string
	inHome, truncated := homeSensitive(spec.Home, project)
	candidates = append(append(append(candidates, inHome...), spec.Mask...), spec.MaskOwn...)
	ownFrom, ownTo := len(candidates)-len(spec.MaskOwn), len(candidates) // MaskOwn's, among them
	if truncated {
		notes = append(notes, fmt.Sprintf("sensitive names in the home past its first %d entries or %d directories are not masked (sandbox.filesystem.home: hidden hides them all)", maxHomeEntries, maxHomeDirs))
	}
	var rel []string // project-relative patterns of Spec.Hide
	for _, h := range spec.Hide {
		switch {
		case !filepath.IsAbs(h):
			if err := checkPattern(h); err != nil {
				return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			rel = append(rel, strings.TrimPrefix(h, "./"))
		case hasGlob(h):
			ms, err := globHost(h)
			if err != nil {
				return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide pattern %q: %v", h, err), Hint: "write hide entries as paths or globs (*, ?, [...], **)"}
			}
			candidates = append(candidates, ms...)
		default:
			candidates = append(candidates, h)
		}
	}
	for _, pat := range spec.Protect {
		if filepath.IsAbs(pat) || checkPattern(pat) != nil {
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("protect pattern %q: not a pattern relative to the project", pat), Hint: "write protect entries as project-relative paths or globs (*, ?, [...], **), as hide entries"}
		}
	}
	pw := walkProject(project, spec.Home, rel, spec.Protect)
	candidates = append(candidates, pw.found...)
	if pw.truncated {
		what := fmt.Sprintf("the project walk stopped at its bound (%d entries, %d levels): files past it are neither masked nor protected", walkBound.entries, walkBound.depth)
		if !slices.Contains(spec.Degraded, LayerWalk) {
			return nil, nil, nil, &SetupError{What: what, Hint: "hide or remove what makes the project this large (a vendored tree, generated files), run in a smaller directory, or accept it by name with --degraded=" + string(LayerWalk)}
		}
		notes = append(notes, what)
	}

	var masks []string
	seen := map[string]bool{}
	// own are MaskOwn's real paths that no other candidate names: a
	// path masked for another reason too keeps its other names masked.
	own, other := map[string]bool{}, map[string]bool{}
	mr := planResolver(spec, project)
	defer mr.close()
	for i, p := range candidates {
		real, err := mr.maskTarget(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			// Fail closed: a path we cannot resolve is a path we
			// cannot mask.
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("mask %s: %v", p, err), Hint: "make the path resolvable or remove it"}
		}
		if real == "/" || real == project {
			return nil, nil, nil, &SetupError{What: fmt.Sprintf("hide %s would mask the whole view or the project", p), Hint: "hide the files inside it instead"}
		}
		if !seen[real] {
			seen[real] = true
			masks = append(masks, real)
		}
		if ownFrom <= i && i < ownTo {
			own[real] = true
		} else {
			other[real] = true
		}
	}
	for p := range other {
		delete(own, p)
	}
	masks = append(masks, otherNames(masks, own, project, seen)...)
	slices.SortStableFunc(masks, func(a, b string) int { return depth(a) - depth(b) })
	return masks, notes, pw, nil
}

// otherNames returns the other names in the project of the masked files
// (hard links): only a regular file with more than one link can have one,
// on the project's own device, so the project is walked again, statting
// its files, only when a masked file is such (the common case costs one
// lstat a mask, and a walk of each masked directory). own are masks whose
// files none looks for (Spec.MaskOwn); seen are the masks already listed.
func otherNames(masks []string, own map[string]bool, project string, seen map[string]bool) []string {
	pfi, err := os.Stat(project)
	if err != nil {
		return nil
	}
	pdev, _, _ := inodeOf(pfi)
	want := map[[2]uint64]bool{}
	add := func(fi fs.FileInfo) {
		if pathguard.MultiplyLinked(fi) {
			if dev, ino, ok := inodeOf(fi); ok && dev == pdev {
				want[[2]uint64{dev, ino}] = true
			}
		}
	}
	for _, m := range masks {
		if own[m] {
			continue
		}
		fi, err := os.Lstat(m)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			add(fi)
			continue
		}
		if dev, _, ok := inodeOf(fi); !ok || dev != pdev {
			continue // no hard link crosses devices
		}
		n := 0
		filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > maxWalk {
				return fs.SkipAll
			}
			if d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					add(fi)
				}
			}
			return nil
		})
	}
	if len(want) == 0 {
		return nil
	}
	var out []string
	var n int64
	filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > walkBound.entries {
			return fs.SkipAll
		}
		if seen[p] {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && pathguard.MultiplyLinked(fi) {
				if dev, ino, ok := inodeOf(fi); ok && want[[2]uint64{dev, ino}] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
		return nil
	})
	return out
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// maxDoubleStars bounds the "**" segments of a pattern: matching costs
// grow with the path's depth to the power of their number.
const maxDoubleStars = 4

// checkPattern reports whether a hide pattern is well formed.
func checkPattern(p string) error {
	stars := 0
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if seg == "**" {
			if stars++; stars > maxDoubleStars {
				return fmt.Errorf("more than %d ** segments", maxDoubleStars)
			}
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// matchPattern reports whether the slash-separated relative path rel
// matches pat, whose segments are path.Match globs or "**" (any number of
// segments). A pattern without a slash matches the name at any depth, as
// in .gitignore; a trailing slash matches directories only.
func matchPattern(pat, rel string, dir bool) bool {
	if strings.HasSuffix(pat, "/") {
		if !dir {
			return false
		}
		pat = strings.TrimSuffix(pat, "/")
	}
	if !strings.Contains(pat, "/") {
		pat = "**/" + pat
	}
	return matchSegs(strings.Split(pat, "/"), strings.Split(rel, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globHost expands an absolute pattern on the host: its fixed leading
// directories, then a walk of the rest (bounded like the project walk).
func globHost(pat string) ([]string, error) {
	if err := checkPattern(pat); err != nil {
		return nil, err
	}
	segs := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	i := 0
	for i < len(segs) && !hasGlob(segs[i]) {
		i++
	}
	root := "/" + strings.Join(segs[:i], "/")
	rest := strings.Join(segs[i:], "/")
	var out []string
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		if n++; n > maxWalk {
			return fs.SkipAll
		}
		r := strings.TrimPrefix(p[len(root):], "/")
		if matchSegs(strings.Split(strings.TrimSuffix(rest, "/"), "/"), strings.Split(r, "/")) {
			out = append(out, p)
			if d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	return out, nil
}
