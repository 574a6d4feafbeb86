// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package credential holds the secrets that Warden's egress proxy puts into
// requests at the edge of the sandbox (docs/spec.md §9), and the [Redacted]
// type that keeps them out of every log, error and record.
//
// # Placeholders
//
// A secret never enters the sandbox. For each credential the policy names,
//
//	network:
//	  credentials:
//	    - {name: GITHUB_TOKEN, from: env:GITHUB_TOKEN, hosts: [api.github.com]}
//
// the sandbox is given the placeholder warden:cred:GITHUB_TOKEN
// ([Placeholder]), usually as the value of an environment variable of
// the same name. A tool sends the placeholder where it would send the
// token; the proxy, outside the sandbox, replaces it with the real value
// in requests to the credential's hosts only, and only over TLS that it
// terminates and whose upstream certificate it verified. A placeholder on
// its way anywhere else is not replaced: that request is denied and
// flagged. The proxy's package documents exactly where it looks.
//
// A placeholder is the prefix warden:cred: followed by the longest run of
// letters, digits and underscores; warden:cred:GH_TOKENX names GH_TOKENX,
// never GH_TOKEN.
//
// # Sources
//
// [Load] reads each value once, when the run starts: env:NAME from the
// warden process's environment, file:PATH from a file (one trailing line
// break removed, as token files usually end in one). An empty value, and a
// value with a control character (a line break would let the value split a
// header), are refused: failing the run is better than sending a broken or
// empty secret. Errors name the credential and its source, never the value.
//
// # Hosts
//
// A credential's hosts are written as in network rules: an exact name
// (case-insensitive, a trailing dot ignored), *.example.com for subdomains
// of any depth (not the apex), or an IP address. [MatchHost] is that match.
package credential

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"strings"
)

// Prefix starts every placeholder of a credential of Warden's policy.
const Prefix = "warden:cred:"

// OpenShellPrefix starts the placeholders of an OpenShell provider's
// credentials (openshell:resolve:env:NAME), under an OpenShell policy.
const OpenShellPrefix = "openshell:resolve:env:"

// Placeholder returns the placeholder the sandbox holds for the credential
// called name.
func Placeholder(name string) string { return Prefix + name }

// IsNameByte reports whether b may appear in a credential name: an ASCII
// letter, digit or underscore.
func IsNameByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// ValidName reports whether name is a credential name: letters, digits and
// underscores, not starting with a digit.
func ValidName(name string) bool {
	if name == "" || '0' <= name[0] && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !IsNameByte(name[i]) {
			return false
		}
	}
	return true
}

// Spec is a credential as the policy writes it.
type Spec struct {
	// Name is the credential's name; the sandbox sees Placeholder(Name).
	Name string
	// From is where the value is read: env:NAME or file:PATH.
	From string
	// Hosts are the only hosts the value may be sent to.
	Hosts []string
	// Body also replaces the placeholder in request bodies, not only in
	// headers and the query string.
	Body bool
}

// Credential is a loaded credential: a [Spec] with its value.
type Credential struct {
	Name  string
	Value Redacted
	Hosts []string
	Body  bool
	// Prefix is its placeholder's prefix: [Prefix] when empty, or
	// [OpenShellPrefix].
	Prefix string
	// Binding, when set, says where the value may go in place of
	// Hosts.
	Binding Binding
}

// Binding is where a credential may be sent when its host alone does not
// say: an OpenShell provider's credential goes to its endpoints, each a
// host, ports and a path.
type Binding interface {
	// Serves reports whether a request to host:port with path (as
	// sent) may carry the value.
	Serves(host string, port int, path string) bool
	// String names the binding in messages.
	String() string
	// Denial is the body of the 403 that answers a request carrying
	// the placeholder anywhere else, or nil for the proxy's own.
	Denial(host string, port int, method, path string) []byte
}

// Placeholder returns the placeholder the sandbox holds for c.
func (c Credential) Placeholder() string {
	if c.Prefix != "" {
		return c.Prefix + c.Name
	}
	return Placeholder(c.Name)
}

// MayGo reports whether c may be sent in a request to host:port with
// path (as sent): where its Binding serves, or else to its hosts.
func (c Credential) MayGo(host string, port int, path string) bool {
	if c.Binding != nil {
		return c.Binding.Serves(host, port, path)
	}
	return c.BoundTo(host)
}

// Where names where c may be sent, for messages.
func (c Credential) Where() string {
	if c.Binding != nil {
		return c.Binding.String()
	}
	return strings.Join(c.Hosts, ", ")
}

// BoundTo reports whether c may be sent to host by its Hosts (a
// credential with a Binding has none: its binding decides by request).
func (c Credential) BoundTo(host string) bool {
	for _, p := range c.Hosts {
		if MatchHost(p, host) {
			return true
		}
	}
	return false
}

// Sources says where [Sources.Load] reads values; a nil field means the
// process's own (os.LookupEnv, os.ReadFile).
type Sources struct {
	LookupEnv func(name string) (string, bool)
	ReadFile  func(path string) ([]byte, error)
}

// ErrInvalid is wrapped by every error of [Load] about a value, a name,
// a source or hosts (as opposed to a file that could not be read).
var ErrInvalid = errors.New("invalid credential")

// Load reads every spec's value from the process's environment and files.
// See [Sources.Load].
func Load(specs []Spec) ([]Credential, error) { return Sources{}.Load(specs) }

// Load reads every spec's value. It fails on the first spec whose name,
// source or hosts are not valid (wrapping [ErrInvalid]), whose source
// cannot be read, or whose value is empty or holds a control character.
// Error messages never contain a value.
func (s Sources) Load(specs []Spec) ([]Credential, error) {
	lookup, read := s.LookupEnv, s.ReadFile
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if read == nil {
		read = os.ReadFile
	}
	var out []Credential
	seen := map[string]bool{}
	for _, sp := range specs {
		if !ValidName(sp.Name) {
			return nil, fmt.Errorf("credential name %q: %w: want letters, digits and _, not starting with a digit", sp.Name, ErrInvalid)
		}
		if seen[sp.Name] {
			return nil, fmt.Errorf("credential %s: %w: named twice", sp.Name, ErrInvalid)
		}
		seen[sp.Name] = true
		if len(sp.Hosts) == 0 {
			return nil, fmt.Errorf("credential %s: %w: no hosts", sp.Name, ErrInvalid)
		}
		for _, h := range sp.Hosts {
			if !validPattern(h) {
				return nil, fmt.Errorf("credential %s: %w: host %q is not a host name, *.domain or IP address", sp.Name, ErrInvalid, h)
			}
		}
		kind, arg, _ := strings.Cut(sp.From, ":")
		var v string
		switch {
		case kind == "env" && ValidName(arg):
			var ok bool
			if v, ok = lookup(arg); !ok {
				return nil, fmt.Errorf("credential %s: environment variable %s is not set", sp.Name, arg)
			}
		case kind == "file" && arg != "":
			b, err := read(arg)
			if err != nil {
				// The error of os.ReadFile names the path and the
				// errno, never the contents.
				return nil, fmt.Errorf("credential %s: %w", sp.Name, err)
			}
			v = string(b)
			v = strings.TrimSuffix(v, "\n")
			v = strings.TrimSuffix(v, "\r")
		default:
			return nil, fmt.Errorf("credential %s: %w: from %q: want env:NAME or file:PATH", sp.Name, ErrInvalid, sp.From)
		}
		if err := CheckValue(v); err != nil {
			return nil, fmt.Errorf("credential %s from %s: %w", sp.Name, sp.From, err)
		}
		out = append(out, Credential{Name: sp.Name, Value: NewRedacted(v), Hosts: append([]string(nil), sp.Hosts...), Body: sp.Body})
	}
	return out, nil
}

// CheckValue refuses a value that would be sent broken: an empty one, or
// one holding a control character (a line break would let it split a
// header). The error, wrapping [ErrInvalid], never holds the value.
func CheckValue(v string) error {
	if v == "" {
		return fmt.Errorf("%w: the value is empty", ErrInvalid)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return fmt.Errorf("%w: the value holds a control character at byte %d", ErrInvalid, i)
		}
	}
	return nil
}

// MatchHost reports whether host matches pattern: pattern is an exact
// name (compared case-insensitively, a trailing dot ignored on either
// side), "*.domain" for any name ending in ".domain" (subdomains of any
// depth, never domain itself), or an IP address (compared as addresses,
// an IPv4-mapped IPv6 address equal to its IPv4 form).
func MatchHost(pattern, host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	pattern = strings.TrimSuffix(strings.ToLower(pattern), ".")
	if host == "" || pattern == "" {
		return false
	}
	if pa, err := netip.ParseAddr(pattern); err == nil {
		ha, err := netip.ParseAddr(host)
		return err == nil && pa.Unmap() == ha.Unmap()
	}
	if suffix, ok := strings.CutPrefix(pattern, "*"); ok {
		return strings.HasPrefix(suffix, ".") && len(host) > len(suffix) && strings.HasSuffix(host, suffix)
	}
	return host == pattern
}

// validPattern reports whether p is a host pattern MatchHost can use.
func validPattern(p string) bool {
	if _, err := netip.ParseAddr(p); err == nil {
		return true
	}
	name := strings.TrimSuffix(strings.TrimPrefix(p, "*."), ".")
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(IsNameByte(c) || c == '-') {
				return false
			}
		}
	}
	return true
}
