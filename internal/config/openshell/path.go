// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

// Request paths are made canonical before any rule reads them (research
// note §4), and the canonical path is both what is judged and what is
// forwarded, so that the server cannot read a path the rules did not.
// The rules, in order:
//
//   - the path must start with /, be at most 4096 bytes, hold no
//     fragment (#), no control byte and no raw byte outside ASCII;
//   - %XX must be two hex digits; an encoded unreserved character
//     (A-Z a-z 0-9 - . _ ~) is decoded; an encoded control byte is
//     refused; %2F is refused unless the endpoint sets
//     allow_encoded_slash, which keeps it (as %2F) inside its segment;
//     every other escape is kept, its hex digits in upper case;
//   - ;params are stripped from each segment;
//   - empty segments (//) are collapsed;
//   - . segments are dropped and .. removes the segment before it; a ..
//     above the root is refused.

import (
	"errors"
	"fmt"
	"strings"
)

const maxPath = 4096

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func unreserved(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// canonicalPath returns the canonical form of a request path (without
// its query), or why it is refused.
func canonicalPath(raw string, allowEncodedSlash bool) (string, error) {
	if len(raw) > maxPath {
		return "", fmt.Errorf("path longer than %d bytes", maxPath)
	}
	if !strings.HasPrefix(raw, "/") {
		return "", errors.New("path does not start with /")
	}
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return "", errors.New("control byte in path")
		case c >= 0x80:
			return "", errors.New("raw non-ASCII byte in path")
		case c == '#':
			return "", errors.New("fragment in path")
		case c != '%':
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(raw) {
			return "", errors.New("malformed percent-encoding in path")
		}
		hi, ok1 := unhex(raw[i+1])
		lo, ok2 := unhex(raw[i+2])
		if !ok1 || !ok2 {
			return "", errors.New("malformed percent-encoding in path")
		}
		v := hi<<4 | lo
		switch {
		case v < 0x20 || v == 0x7f:
			return "", errors.New("encoded control byte in path")
		case v == '/' && !allowEncodedSlash:
			return "", errors.New("encoded slash (%2F) in path")
		case unreserved(v):
			b.WriteByte(v)
		default:
			fmt.Fprintf(&b, "%%%02X", v)
		}
		i += 2
	}
	segs := strings.Split(b.String()[1:], "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		if j := strings.IndexByte(s, ';'); j >= 0 {
			s = s[:j]
		}
		last := i == len(segs)-1
		switch s {
		case "":
			// Collapse //, but keep a trailing slash.
			if last && len(out) > 0 {
				out = append(out, "")
			}
		case ".":
			if last && len(out) > 0 {
				out = append(out, "")
			}
		case "..":
			if len(out) == 0 {
				return "", errors.New("path climbs above the root")
			}
			out = out[:len(out)-1]
			if last && len(out) > 0 {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/"), nil
}
