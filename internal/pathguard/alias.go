// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// This file re-spells a path under the project when it reaches the project
// through an alias. The rules:
//
//   - A spelling is changed only when it is proven to name the same file:
//     a leading part of the path resolves, as the kernel would resolve it,
//     to the project or to a directory inside it; or a directory on the
//     way is the project by device and inode (a bind mount), and every
//     component after it is the same file, by device and inode, under the
//     bind and under the project (up to a link, in the path as written:
//     where the link leads is the real path's to prove, and the real path
//     has no links).
//   - Nothing is ever re-spelt out of the project: these functions only
//     ever return a path inside it, and the engine still needs both the
//     path as written and the real path inside.
//   - A leading part that leads through a process's working directory
//     (/proc/self/cwd, /proc/<pid>/cwd) or another process's root or open
//     file is no alias: which directory it is cannot be known from here,
//     or changes with no file operation.
//   - The work is bounded by the number of components: one extra walk of
//     the path as written, and two lstat calls per component after a bind.

// lexicalAlias returns lexical spelt under the project when a leading part
// of it reaches the project through an alias, or "". lexical is absolute,
// clean and not inside the project as written.
func (r *Resolver) lexicalAlias(lexical string) string {
	if action.Within(r.proj, lexical) {
		return ""
	}
	w := r.walk(lexical, true)
	if w.err != "" || len(w.marks) == 0 {
		return ""
	}
	// rest is what follows the component of the current mark.
	rest := lexical[1:]
	for _, m := range w.marks {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i+1:]
		} else {
			rest = ""
		}
		if m.tainted {
			// Everything after a tainted mark is tainted too.
			return ""
		}
		// The first, shortest, leading part that is an alias keeps the
		// most of the names as written.
		if action.Within(r.proj, m.at) {
			return under(m.at, rest)
		}
		if p, ok := r.bindOf(m, rest); ok {
			return p
		}
	}
	return ""
}

// resolvedAlias returns resolved spelt under the project when it lies
// under a bind mount of the project, or "". resolved is the result of w.
func (r *Resolver) resolvedAlias(resolved string, w *walk) string {
	if action.Within(r.proj, resolved) {
		return ""
	}
	for _, at := range w.proj {
		switch {
		case at == resolved:
			// A bind mount of the project itself.
			return r.proj
		case !action.Within(at, resolved):
			// A bind the walk left again with "..".
			continue
		}
		if p, ok := r.bindOf(mark{at: at, id: r.projID, known: true}, resolved[len(at)+1:]); ok {
			return p
		}
	}
	return ""
}

// bindOf reports whether m is the project by device and inode and rest,
// taken from m, names the same file as rest taken from the project; it
// returns the latter. rest is relative and clean, possibly empty.
func (r *Resolver) bindOf(m mark, rest string) (string, bool) {
	if !r.projDir || agentProc(m.at) != "" || strings.HasPrefix(m.at, "/proc/") {
		// Warden's /proc/self is not the agent's: never stat it.
		return "", false
	}
	id, known := m.id, m.known
	if !known {
		n, err := lstat(m.at)
		if err != nil || n.kind != kindDir {
			return "", false
		}
		id, known = n.id, n.known
	}
	if !known || id != r.projID {
		return "", false
	}
	a, b := m.at, r.proj
	for c := range strings.SplitSeq(rest, "/") {
		if c == "" {
			continue
		}
		if c == "." || c == ".." {
			return "", false // not clean: never expected
		}
		a, b = join(a, c), join(b, c)
		na, ea := lstat(a)
		nb, eb := lstat(b)
		switch {
		case ea != nil || eb != nil:
			// Both missing: the rest would be created in the same
			// directory, already proven the same. Anything else (a
			// mount over one of them, an error) proves nothing.
			if ea != nil && eb != nil && missing(ea) && missing(eb) {
				return under(r.proj, rest), true
			}
			return "", false
		case !na.known || !nb.known || na.id != nb.id:
			// Something is mounted over one of them.
			return "", false
		case na.kind == kindLink:
			// The same link. Its target is walked from the bind on the
			// real path, which resolvedAlias verifies to its end; the
			// name as written stays the project's name.
			return under(r.proj, rest), true
		}
	}
	return under(r.proj, rest), true
}

// under joins dir and a relative rest, either of which may be "/" or "".
func under(dir, rest string) string {
	switch {
	case rest == "":
		return dir
	case dir == "/":
		return "/" + rest
	}
	return dir + "/" + rest
}
