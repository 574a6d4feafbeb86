// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file reads sed scripts and awk programs far enough to find the
// files they name and the commands they run. A sed script is parsed with
// GNU sed's grammar; one that does not parse and may name a file is
// unresolved. An awk program that redirects output, pipes, reads a file
// with getline or calls system() is unresolved: awk code is a program.

import "strings"

// sedScript is what a sed script names.
type sedScript struct {
	reads, writes []string
	// execs are static commands of "e COMMAND"; execDyn is set for "e"
	// alone and the s///e flag, which run text of the input.
	execs   []string
	execDyn bool
}

// parseSed parses a GNU sed script; ok is false if it does not parse.
func parseSed(s string) (out sedScript, ok bool) {
	i := 0
	n := len(s)
	skipSpace := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	restOfLine := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = n - i
		}
		v := s[i : i+j]
		i += j
		return v
	}
	// delimited reads up to an unescaped delimiter d, which it consumes.
	delimited := func(d byte) bool {
		for i < n {
			c := s[i]
			switch {
			case c == '\\':
				i += 2
				continue
			case c == d:
				i++
				return true
			case c == '\n' && d != '\n':
				return false
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for {
		for i < n && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= n {
			return out, true
		}
		if s[i] == '#' {
			restOfLine()
			continue
		}
		if !address() {
			return out, false
		}
		skipSpace()
		if i < n && s[i] == ',' {
			i++
			skipSpace()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return out, false
			}
		}
		skipSpace()
		for i < n && (s[i] == '!' || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= n {
			return out, false
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			skipSpace()
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			for i < n && s[i] != ';' && s[i] != '\n' {
				i++
			}
		case 'a', 'i', 'c':
			// Text to the end of the line; a backslash continues it.
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 'r', 'R', 'w', 'W':
			skipSpace()
			f := restOfLine()
			if f == "" {
				return out, false
			}
			if c == 'r' || c == 'R' {
				out.reads = append(out.reads, f)
			} else {
				out.writes = append(out.writes, f)
			}
		case 'e':
			skipSpace()
			if cmd := restOfLine(); strings.TrimSpace(cmd) != "" {
				out.execs = append(out.execs, cmd)
			} else {
				out.execDyn = true
			}
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return out, false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return out, false
			}
			if c == 'y' {
				break
			}
			for i < n {
				f := s[i]
				switch {
				case f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9':
					i++
					continue
				case f == 'e':
					out.execDyn = true
					i++
					continue
				case f == 'w':
					i++
					skipSpace()
					w := restOfLine()
					if w == "" {
						return out, false
					}
					out.writes = append(out.writes, w)
				}
				break
			}
		default:
			return out, false
		}
	}
}

// awkUnsafe reports whether an awk program may write a file, run a
// command or read a file other than its operands: print or printf with
// > or >>, a pipe (| or |&), getline <, system(), or a gawk directive.
func awkUnsafe(p string) bool {
	operand := true // an operand, not an operator, comes next
	depth, printDepth := 0, -1
	getline := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '"':
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			operand = false
		case c == '/' && operand:
			for i++; i < len(p) && p[i] != '/'; i++ {
				switch p[i] {
				case '\\':
					i++
				case '[':
					// A bracket expression may hold a slash.
					j := i + 1
					if j < len(p) && p[j] == '^' {
						j++
					}
					if j < len(p) && p[j] == ']' {
						j++
					}
					if k := strings.IndexByte(p[j:], ']'); k >= 0 {
						i = j + k
					}
				case '\n':
					return true
				}
			}
			operand = false
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			operand = true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && (p[j] == '_' || p[j] >= 'a' && p[j] <= 'z' || p[j] >= 'A' && p[j] <= 'Z' || p[j] >= '0' && p[j] <= '9') {
				j++
			}
			w := p[i:j]
			i = j - 1
			operand = false
			switch w {
			case "system":
				return true
			case "print", "printf":
				printDepth = depth
				operand = true
			case "getline":
				getline = true
				operand = true
			case "return", "in", "if", "while", "for", "do", "else", "delete", "exit", "case":
				operand = true
			}
		case c >= '0' && c <= '9' || c == '.':
			for i+1 < len(p) && (p[i+1] >= '0' && p[i+1] <= '9' || p[i+1] == '.' || p[i+1] == 'e' || p[i+1] == 'x') {
				i++
			}
			operand = false
		case c == '@':
			return true // @include, @load, indirect calls
		case c == '(' || c == '[':
			depth++
			operand = true
		case c == ')' || c == ']':
			depth--
			operand = false
		case c == '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i++
				operand = true
				continue
			}
			return true
		case c == '>':
			if i+1 < len(p) && p[i+1] == '=' {
				i++
			} else if printDepth >= 0 && depth <= printDepth {
				return true
			}
			operand = true
		case c == '<':
			if getline {
				return true
			}
			operand = true
		case c == ';' || c == '\n' || c == '{' || c == '}':
			printDepth, getline = -1, false
			operand = true
		case c == ' ' || c == '\t' || c == '\\' || c == '\r':
		case c == '$':
			operand = true
		case (c == '+' || c == '-') && i+1 < len(p) && p[i+1] == c:
			i++ // ++ and -- leave an operand where it was
			operand = false
		default:
			operand = true
		}
	}
	return false
}
