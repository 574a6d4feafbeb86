// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"warden.dev/warden/internal/action"
)

// Limits of the Linux path walk.
const (
	maxLinks = 40   // MAXSYMLINKS: links followed in one resolution
	nameMax  = 255  // NAME_MAX: bytes in one component
	pathMax  = 4096 // PATH_MAX: bytes in a path, its NUL included
)

// Resolver resolves the paths one agent names. Set the fields before the
// first call to [Resolver.Resolve] and do not change or copy the Resolver
// afterwards; Resolve is safe for concurrent use.
//
// The identities of the secrets under Home are read once, on the first
// call, and kept: a secret created later is still caught by name, but a
// hard link to it is caught only by a new Resolver. Make one per session.
type Resolver struct {
	// Home is the user's home, for ~, $HOME and ${HOME}, and where the
	// known secrets are looked for. It must be absolute when used.
	Home string
	// Cwd is the agent's absolute working directory. Relative paths are
	// made absolute against it, and /proc/self/cwd leads to it.
	Cwd string
	// PID is the agent's process id, when known: /proc/<PID> is then
	// treated as /proc/self.
	PID int
	// LookupHome finds ~user's home; nil means os/user.Lookup.
	LookupHome func(user string) (string, error)
	// Extra adds patterns to the sensitive set (the managed tier extends
	// it; nothing shrinks it). See [ValidatePattern]. An invalid pattern
	// makes every path fail to resolve, so that a typo denies rather than
	// silently protecting nothing.
	Extra []string
	// Project is the project directory, resolved on first use like any
	// path. When it is set, a path that reaches the project through an
	// alias gets [action.Path.InLexical] and [action.Path.InResolved]
	// (see "Aliases of the project" in the package documentation).
	Project string

	once     sync.Once
	extra    []pattern
	extraErr string
	secrets  map[fileID]secret
	pid      string
	home     []string // Home's components, nil when unknown
	proj     string   // Project resolved; empty when unset or unresolvable
	projID   fileID
	projDir  bool // projID is known and the project is a directory
}

// NewResolver returns a Resolver for an agent whose home is home and whose
// working directory is cwd.
func NewResolver(home, cwd string) *Resolver {
	return &Resolver{Home: home, Cwd: cwd}
}

func (r *Resolver) init() {
	for _, x := range r.Extra {
		p, err := compile(x, r.Home)
		if err != nil {
			r.extraErr = err.Error()
			break
		}
		r.extra = append(r.extra, p)
	}
	r.secrets = loadSecrets(r.Home, r.Extra)
	r.home = homeComponents(r.Home)
	if r.PID > 0 {
		r.pid = strconv.Itoa(r.PID)
	}
	if path.IsAbs(r.Project) && strings.IndexByte(r.Project, 0) < 0 {
		// A project that cannot be resolved has no aliases: its paths
		// are judged as written, the safe side.
		if w := r.walk(r.Project, false); w.err == "" {
			r.proj = w.resolved
			if n, err := lstat(r.proj); err == nil && n.known && n.kind == kindDir {
				r.projID, r.projDir = n.id, true
			}
		}
	}
}

// Resolve resolves raw as the kernel would for the agent, and checks it
// against the sensitive floor. It always returns a Path with Checked set;
// the engine must deny it when Err or Sensitive is not empty. See the
// package documentation for the rules.
func (r *Resolver) Resolve(raw string, acc action.Access) action.Path {
	r.once.Do(r.init)
	p := action.Path{Raw: raw, Access: acc, Checked: true}
	abs, err := r.absolute(raw)
	if abs != "" {
		p.Lexical = path.Clean(abs)
	}
	if err == "" {
		err = r.extraErr
	}
	var w walk
	if err == "" {
		w = r.walk(abs, false)
		err = w.err
	}
	if err == "" {
		p.Resolved = w.resolved
		if r.proj != "" {
			p.InLexical = r.lexicalAlias(p.Lexical)
			p.InResolved = r.resolvedAlias(p.Resolved, &w)
		}
	}
	p.Err = err
	p.Sensitive = r.sensitive(p.Lexical, w.entry, p.Resolved, &w)
	if p.Sensitive == "" {
		// The spellings under the project name the same files; they
		// are judged too, so that no spelling is left unchecked.
		p.Sensitive = r.sensitive(p.InLexical, "", p.InResolved, nil)
	}
	return p
}

// sensitive returns the first sensitive entry that the lexical path, the
// link itself or the resolved path matches, by name or by identity.
func (r *Resolver) sensitive(lexical, entry, resolved string, w *walk) string {
	for _, p := range [...]string{lexical, entry, resolved} {
		// A path of PATH_MAX bytes or more cannot be opened, and its
		// error (ENAMETOOLONG) denies it already; matching its
		// components would cost memory and time in proportion to a
		// payload that may be megabytes.
		if p == "" || len(p) >= pathMax {
			continue
		}
		if e, ok := match(builtin(), p, r.home); ok {
			return e
		}
		if e, ok := match(r.extra, p, nil); ok {
			return e
		}
	}
	if resolved == "" || w == nil {
		return ""
	}
	for _, h := range w.hits {
		// A secret directory that the walk left again with ".." does not
		// contain the result.
		if !action.Within(h.at, resolved) {
			continue
		}
		switch {
		case h.dir:
			return "same directory as " + h.name
		case h.nlink > 1:
			return "hard link to " + h.name
		default:
			return "same file as " + h.name
		}
	}
	return ""
}

// absolute expands raw and makes it absolute. It returns the expanded path
// whenever it could be computed, and a non-empty error string when the path
// must be denied.
func (r *Resolver) absolute(raw string) (string, string) {
	if raw == "" {
		return "", "empty path"
	}
	s, err := r.expand(raw)
	if err != "" {
		return "", err
	}
	if !path.IsAbs(s) {
		if !path.IsAbs(r.Cwd) {
			return "", "relative path and no absolute working directory"
		}
		s = r.Cwd + "/" + s
	}
	switch {
	case strings.IndexByte(raw, 0) >= 0:
		// Go's syscalls refuse it; C would truncate the path at the
		// NUL and open something else than what was checked.
		return s, "path contains a NUL byte"
	case len(s) >= pathMax:
		return s, syscall.ENAMETOOLONG.Error()
	}
	return s, ""
}

// expand replaces a leading ~, ~user, $HOME or ${HOME}. Nothing else is
// expanded: other variables are literal file names to a tool that is not a
// shell, and shell analysis expands commands before they get here.
func (r *Resolver) expand(raw string) (string, string) {
	head, tail := raw, ""
	if i := strings.IndexByte(raw, '/'); i >= 0 {
		head, tail = raw[:i], raw[i:]
	}
	var home string
	switch {
	case head == "~" || head == "$HOME" || head == "${HOME}":
		home = r.Home
		if home == "" {
			return "", "home directory unknown"
		}
	case strings.HasPrefix(head, "~"):
		name := head[1:]
		lookup := r.LookupHome
		if lookup == nil {
			lookup = lookupHome
		}
		h, err := lookup(name)
		if err != nil {
			return "", fmt.Sprintf("expanding %q: %v", head, err)
		}
		if h == "" {
			return "", fmt.Sprintf("expanding %q: no home directory", head)
		}
		home = h
	default:
		return raw, ""
	}
	if !path.IsAbs(home) {
		return "", fmt.Sprintf("home directory %q is not absolute", home)
	}
	return home + tail, ""
}

func lookupHome(name string) (string, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return "", err
	}
	return u.HomeDir, nil
}

// walk is the state and result of one resolution.
type walk struct {
	resolved string
	// entry is the final component's own directory entry: the directory
	// it resolved to, plus its name. It is what unlink and rename touch.
	entry string
	// hits are the secrets met on the way, by identity.
	hits []hit
	// proj are the directories met on the way that are the project by
	// device and inode: the project itself or a bind mount of it.
	proj []string
	// marks, in a marking walk, say where the walk stood once each
	// component of the path was resolved, in order.
	marks []mark
	err   string
}

// mark is where a walk stood once one component of the path it was given
// had been resolved, the links it led to included.
type mark struct {
	at string // the path resolved so far
	// id is at's device and inode, when known is set: at is the
	// component's own directory entry, seen by lstat.
	id    fileID
	known bool
	// tainted: the walk has gone through a working directory (the
	// agent's /proc/self/cwd, or another process's /proc/<pid>/cwd) or
	// another process's root or open file: what follows is not an alias
	// of anything (see "Aliases of the project" in the package doc).
	tainted bool
}

type hit struct {
	at    string // where the walk met it
	name  string // ~/.ssh/id_rsa
	dir   bool
	nlink uint64
}

// walk resolves the absolute path abs component by component, like namei.
// A marking walk records marks, for lexicalAlias; it must be given a clean
// path.
func (r *Resolver) walk(abs string, marking bool) walk {
	var w walk
	// A trailing / or /. changes nothing here (every link is followed
	// anyway) and removing it lets the loop tell the final component.
	for len(abs) > 1 && (strings.HasSuffix(abs, "/") || strings.HasSuffix(abs, "/.")) {
		abs = strings.TrimSuffix(strings.TrimSuffix(abs, "/"), "/.")
	}
	resolved := "/"
	rest := abs
	links := 0
	finalSeen := false

	// A marking walk records a mark each time the rest of the path is
	// exactly what follows one of its components: links splice their
	// targets in front of rest and never touch what follows, so rest
	// always ends with the components not yet started, and equals them
	// once everything before is resolved.
	var sufs []int // length of what follows each component
	if marking && abs != "/" {
		for i := 1; i < len(abs); i++ {
			if abs[i] == '/' {
				sufs = append(sufs, len(abs)-i-1)
			}
		}
		sufs = append(sufs, 0)
	}
	var (
		curID    fileID
		curKnown bool // curID is resolved's identity
		tainted  bool
	)
	markDone := func() {
		if len(w.marks) < len(sufs) && len(rest) == sufs[len(w.marks)] {
			w.marks = append(w.marks, mark{at: resolved, id: curID, known: curKnown, tainted: tainted})
		}
	}
	follow := func() bool {
		links++
		if links > maxLinks {
			w.err = syscall.ELOOP.Error()
			return false
		}
		return true
	}
	for rest != "" {
		if sufs != nil {
			markDone()
		}
		c := rest
		rest = ""
		if i := strings.IndexByte(c, '/'); i >= 0 {
			c, rest = c[:i], c[i+1:]
		}
		curKnown = false
		// Links splice their target in front of rest, so the original
		// final component is the one that leaves rest empty first.
		final := rest == "" && !finalSeen
		if final {
			finalSeen = true
		}
		switch c {
		case "", ".":
			continue
		case "..":
			// resolved holds no link: its parent is the real parent.
			resolved = path.Dir(resolved)
			continue
		}
		if len(c) > nameMax {
			w.err = syscall.ENAMETOOLONG.Error()
			return w
		}

		// The agent's own process in /proc. Warden's /proc/self is
		// Warden, not the agent: never read it.
		if base := agentProc(resolved); base != "" {
			sub := resolved[len(base):]
			if sub == "" || isTaskDir(sub) {
				switch c {
				case "root":
					if !follow() {
						return w
					}
					resolved = "/"
					continue
				case "cwd":
					if !follow() {
						return w
					}
					if !path.IsAbs(r.Cwd) {
						w.err = "/proc/self/cwd and no absolute working directory"
						return w
					}
					// The floor judges the likely target; it is
					// no alias (see the package doc).
					tainted = true
					resolved = "/"
					rest = splice(r.Cwd, rest)
					continue
				}
			}
			// fd/N, exe...: unknowable from outside the agent.
			resolved += "/" + c
			if final {
				w.entry = resolved
			}
			continue
		}
		if resolved == "/proc" && (c == "self" || c == "thread-self" || (r.pid != "" && c == r.pid)) {
			if !follow() {
				return w
			}
			resolved = "/proc/self"
			if c == "thread-self" {
				resolved = "/proc/thread-self"
			}
			if final {
				w.entry = resolved
			}
			continue
		}

		next := join(resolved, c)
		if final {
			w.entry = next
		}
		n, err := lstat(next)
		switch {
		case err != nil && missing(err):
			// Append lexically; open(O_CREAT) or mkdir -p would
			// create it here.
			resolved = next
			continue
		case err != nil:
			w.err = errString(err)
			return w
		case n.kind == kindLink:
			if !follow() {
				return w
			}
			target, err := os.Readlink(next)
			if err != nil {
				w.err = errString(err)
				return w
			}
			if target == "" {
				w.err = fmt.Sprintf("readlink %q: empty link", next)
				return w
			}
			if target[0] == '/' {
				resolved = "/"
			}
			if strings.HasPrefix(next, "/proc/") {
				// Another process's cwd, root or open file: its
				// target changes with no file operation.
				tainted = true
			}
			// A relative target continues from the link's directory,
			// which is resolved as it stands.
			rest = splice(target, rest)
			continue
		}
		resolved = next
		curID, curKnown = n.id, n.known
		if s, ok := r.secrets[n.id]; ok && n.known {
			w.hits = append(w.hits, hit{at: next, name: s.name, dir: s.dir, nlink: n.nlink})
		}
		if r.projDir && n.known && n.id == r.projID && n.kind == kindDir {
			w.proj = append(w.proj, next)
		}
	}
	w.resolved = resolved
	if sufs != nil {
		markDone()
		if len(w.marks) != len(sufs) {
			w.marks = nil // not expected; no marks is the safe side
		}
	}
	return w
}

// errString describes err with its path quoted: a path may hold newlines
// or escape sequences, and the message ends up in logs and on the approval
// page.
func errString(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %q: %v", pe.Op, pe.Path, pe.Err)
	}
	return err.Error()
}

// agentProc returns /proc/self or /proc/thread-self when p is inside it.
func agentProc(p string) string {
	for _, base := range [...]string{"/proc/self", "/proc/thread-self"} {
		if p == base || strings.HasPrefix(p, base) && p[len(base)] == '/' {
			return base
		}
	}
	return ""
}

// isTaskDir reports whether sub is /task/<tid>: a thread's directory, which
// has the same root and cwd as its process.
func isTaskDir(sub string) bool {
	tid, ok := strings.CutPrefix(sub, "/task/")
	return ok && tid != "" && !strings.Contains(tid, "/")
}

func splice(target, rest string) string {
	if rest == "" {
		return target
	}
	return target + "/" + rest
}

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}
