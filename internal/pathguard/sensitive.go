// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

// This file holds the sensitive set, as data, and the pattern language it
// is written in (see [Entry]). The set only grows: [Resolver.Extra] adds
// entries, nothing removes one.

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Entry is one entry of the sensitive set.
//
// A pattern is one or more slash-separated components. A component is
// literal text in which * matches any run of characters and ? one
// character, both within that component; [ and \ are reserved. Matching
// ignores case (Unicode simple folding).
//
//   - A trailing / names a directory: the directory itself and everything
//     under it. Without it the pattern names a file and matches the last
//     components of a path, so ".env" is not a virtualenv directory named
//     .env/.
//   - A leading / anchors the pattern at the root; a leading ~/ (only in
//     [Resolver.Extra]) anchors it at the home directory, or, when the home
//     is unknown, leaves it unanchored. Otherwise it matches at any depth.
//   - Except lists globs for the last component that the entry exempts.
type Entry struct {
	// Pattern is what the entry matches; it is also the name reported
	// in [action.Path.Sensitive].
	Pattern string
	// Except lists globs for the final component that Pattern does not
	// cover.
	Except []string
	// Why says what the entry protects.
	Why string
}

// sensitiveTable is the built-in floor of DESIGN.md §5. Deliberately absent:
// .envrc (a direnv script, read by the shell on every cd), prod.env and
// other *.env (conventional names for non-secret configuration), and *.pub
// outside .ssh (public keys are published on purpose).
var sensitiveTable = []Entry{
	// The whole directory: private keys of any name, and also
	// authorized_keys and config, whose modification is persistence.
	{Pattern: ".ssh/", Why: "SSH keys, authorized_keys and client configuration"},
	{Pattern: ".aws/credentials", Why: "AWS access keys"},
	// config holds role ARNs, SSO sessions and credential_process
	// commands, which run with the user's rights.
	{Pattern: ".aws/config", Why: "AWS profiles and credential helpers"},
	// Private keys live in private-keys-v1.d; the rest is the trust
	// database, whose modification forges trust.
	{Pattern: ".gnupg/", Why: "GnuPG private keys and trust database"},
	{Pattern: ".kube/config", Why: "Kubernetes cluster credentials"},
	// auths is base64("user:password") for each registry.
	{Pattern: ".docker/config.json", Why: "container registry credentials"},
	{Pattern: ".netrc", Why: "plain-text logins used by curl, git and ftp"},
	{Pattern: ".git-credentials", Why: "git credential-store tokens in plain text"},
	{Pattern: ".config/gh/hosts.yml", Why: "GitHub CLI OAuth token"},
	{Pattern: ".env", Why: "dotenv file: application secrets by convention"},
	// .env.local, .env.production...; the exceptions are templates meant
	// to be committed without values.
	{
		Pattern: ".env.*",
		Except:  []string{".env.example", ".env.sample", ".env.template", ".env.dist"},
		Why:     "per-environment dotenv file",
	},
	// Private keys outside ~/.ssh (copies, backups: id_rsa.bak,
	// id_ed25519_deploy); inside .ssh the directory entry already covers
	// the .pub too.
	{Pattern: "id_rsa*", Except: []string{"*.pub"}, Why: "RSA private key"},
	{Pattern: "id_ecdsa*", Except: []string{"*.pub"}, Why: "ECDSA private key"},
	{Pattern: "id_ed25519*", Except: []string{"*.pub"}, Why: "Ed25519 private key"},
	// Any pid, self and thread-self: a process's environment holds the
	// tokens it was started with.
	{Pattern: "/proc/*/environ", Why: "environment of a process"},
	{Pattern: "/proc/*/task/*/environ", Why: "environment of a process, through one of its threads"},
}

// SensitiveSet returns the built-in sensitive set, for documentation and
// `warden policy enumerate`. The result is a copy.
func SensitiveSet() []Entry {
	out := make([]Entry, len(sensitiveTable))
	for i, e := range sensitiveTable {
		e.Except = slices.Clone(e.Except)
		out[i] = e
	}
	return out
}

// builtin is sensitiveTable compiled.
var builtin = mustCompileTable(sensitiveTable)

func mustCompileTable(entries []Entry) []pattern {
	pats := make([]pattern, len(entries))
	for i, e := range entries {
		p, err := compile(e.Pattern, "")
		if err != nil {
			panic("internal error: sensitive table: " + err.Error())
		}
		for _, x := range e.Except {
			if err := validComponent(x); err != nil {
				panic("internal error: sensitive table: " + err.Error())
			}
		}
		p.except = e.Except
		pats[i] = p
	}
	return pats
}

// Sensitive reports whether the absolute path p matches the built-in
// sensitive set, and if so which entry. It is a pure function of the string:
// it follows no links and compares no inodes (a [Resolver] does both), and
// it does not see [Resolver.Extra]. p is cleaned lexically first.
func Sensitive(p string) (entry string, ok bool) {
	return match(builtin, path.Clean(p))
}

// ValidatePattern reports whether p is a well-formed sensitive-set pattern,
// for configuration that extends the set ([Resolver.Extra]).
func ValidatePattern(p string) error {
	_, err := compile(p, "")
	return err
}

// pattern is a compiled Entry.
type pattern struct {
	name     string // the source pattern, reported on a match
	comps    []string
	anchored bool // comps start at the root
	dir      bool // the directory and anything under it
	except   []string
}

// compile parses a pattern. A leading ~/ is anchored at home when home is
// a known absolute path; otherwise it matches at any depth, which is the
// stricter reading.
func compile(src, home string) (pattern, error) {
	p := pattern{name: src}
	s := src
	if s == "" {
		return p, fmt.Errorf("empty sensitive pattern")
	}
	switch {
	case strings.HasPrefix(s, "~/"):
		s = s[2:]
		if path.IsAbs(home) {
			p.anchored = true
			p.comps = components(path.Clean(home), nil)
		}
	case strings.HasPrefix(s, "/"):
		s = s[1:]
		p.anchored = true
	}
	if strings.HasSuffix(s, "/") {
		s = s[:len(s)-1]
		p.dir = true
	}
	if s == "" {
		return p, fmt.Errorf("sensitive pattern %q names no file", src)
	}
	for c := range strings.SplitSeq(s, "/") {
		if err := validComponent(c); err != nil {
			return p, fmt.Errorf("sensitive pattern %q: %v", src, err)
		}
		p.comps = append(p.comps, c)
	}
	return p, nil
}

func validComponent(c string) error {
	switch {
	case c == "":
		return fmt.Errorf("empty component")
	case c == "." || c == "..":
		return fmt.Errorf("component %q", c)
	case strings.ContainsAny(c, "[\\"):
		return fmt.Errorf("%q uses a reserved character ([ or \\)", c)
	case strings.IndexByte(c, 0) >= 0:
		return fmt.Errorf("%q contains a NUL byte", c)
	}
	return nil
}

// match returns the first pattern of pats that matches the clean path p.
func match(pats []pattern, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	var buf [48]string
	comps := components(p, buf[:0])
	abs := strings.HasPrefix(p, "/")
	for i := range pats {
		if pats[i].matches(comps, abs) {
			return pats[i].name, true
		}
	}
	return "", false
}

func (p *pattern) matches(comps []string, abs bool) bool {
	k := len(p.comps)
	if k > len(comps) {
		return false
	}
	switch {
	case p.anchored && !abs:
		return false
	case p.anchored && p.dir:
		return p.at(comps, 0)
	case p.anchored:
		return k == len(comps) && p.at(comps, 0)
	case p.dir:
		for i := 0; i+k <= len(comps); i++ {
			if p.at(comps, i) {
				return true
			}
		}
		return false
	default:
		return p.at(comps, len(comps)-k)
	}
}

// at reports whether p's components match comps[i:i+len(p.comps)], and its
// exceptions do not exempt the last of them.
func (p *pattern) at(comps []string, i int) bool {
	for j, pc := range p.comps {
		if !globFold(pc, comps[i+j]) {
			return false
		}
	}
	last := comps[i+len(p.comps)-1]
	for _, x := range p.except {
		if globFold(x, last) {
			return false
		}
	}
	return true
}

// components appends the non-empty, non-"." components of p to buf.
func components(p string, buf []string) []string {
	for p != "" {
		c := p
		p = ""
		if i := strings.IndexByte(c, '/'); i >= 0 {
			c, p = c[:i], c[i+1:]
		}
		if c != "" && c != "." {
			buf = append(buf, c)
		}
	}
	return buf
}

// globFold matches name against the glob pat (* and ?), ignoring case by
// Unicode simple folding, the way strings.EqualFold does.
func globFold(pat, name string) bool {
	if !strings.ContainsAny(pat, "*?") {
		return strings.EqualFold(pat, name)
	}
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(name) {
		if pi < len(pat) {
			pr, pw := utf8.DecodeRuneInString(pat[pi:])
			nr, nw := utf8.DecodeRuneInString(name[ni:])
			switch {
			case pr == '*':
				pi += pw
				starP, starN = pi, ni
				continue
			case pr == '?' || foldEq(pr, nr):
				pi += pw
				ni += nw
				continue
			}
		}
		if starP < 0 {
			return false
		}
		// Let the last * swallow one more rune and retry.
		_, nw := utf8.DecodeRuneInString(name[starN:])
		starN += nw
		pi, ni = starP, starN
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// foldEq reports whether a and b are equal under Unicode simple folding.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
