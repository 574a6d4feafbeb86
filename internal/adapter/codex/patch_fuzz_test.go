// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package codex_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/adapter/codex"
)

// access is one file a patch touches and how: "write" or "delete".
type access struct{ path, how string }

// model is a second reading of Codex's patch grammar, written from
// codex-rs/apply-patch/src/parser.rs as a line-by-line state machine
// rather than ParsePatch's recursive descent: the files a patch touches,
// or false when Codex rejects it (or Warden refuses it: no file, an empty
// path, a NUL byte).
func model(text string) ([]access, bool) {
	if !utf8.ValidString(text) {
		return nil, false // Codex holds the patch in a Rust string
	}
	// Rust's str::trim: Unicode White_Space at both ends.
	rs := []rune(text)
	i, j := 0, len(rs)
	for i < j && unicode.Is(unicode.White_Space, rs[i]) {
		i++
	}
	for j > i && unicode.Is(unicode.White_Space, rs[j-1]) {
		j--
	}
	t := string(rs[i:j])
	// str::lines: split at \n, a \r right before it dropped.
	var lines []string
	for t != "" {
		k := strings.IndexByte(t, '\n')
		if k < 0 {
			lines = append(lines, t)
			break
		}
		l := t[:k]
		if strings.HasSuffix(l, "\r") {
			l = l[:len(l)-1]
		}
		lines = append(lines, l)
		t = t[k+1:]
	}
	trim := func(s string) string {
		return strings.TrimFunc(s, func(r rune) bool { return unicode.Is(unicode.White_Space, r) })
	}
	framed := func(ls []string) bool {
		return len(ls) >= 2 && trim(ls[0]) == "*** Begin Patch" && trim(ls[len(ls)-1]) == "*** End Patch"
	}
	switch n := len(lines); {
	case framed(lines):
		lines = lines[1 : n-1]
	case n >= 4 && slices.Contains([]string{"<<EOF", "<<'EOF'", `<<"EOF"`}, lines[0]) && strings.HasSuffix(lines[n-1], "EOF") && framed(lines[1:n-1]):
		lines = lines[2 : n-2]
	default:
		return nil, false
	}

	const (
		header    = iota // expecting a file header
		addBody          // after Add File: + lines
		afterUpd         // right after Update File: a Move to may come
		between          // between an Update File's chunks
		context          // in a chunk's @@ lines
		chunkBody        // in a chunk's lines
	)
	var out []access
	state, chunks, taken := header, 0, 0
	var upd, move string
	moved := false
	endUpdate := func() {
		if moved {
			out = append(out, access{upd, "delete"}, access{move, "write"})
		} else {
			out = append(out, access{upd, "write"})
		}
	}
	diffLine := func(l string) bool { return l == "" || strings.ContainsRune(" +-", rune(l[0])) }
	isContext := func(l string) bool { return l == "@@" || strings.HasPrefix(l, "@@ ") }
	for k := 0; k < len(lines); {
		l := lines[k]
		switch state {
		case header:
			h := trim(l)
			switch {
			case strings.HasPrefix(h, "*** Add File: "):
				out = append(out, access{h[len("*** Add File: "):], "write"})
				state = addBody
			case strings.HasPrefix(h, "*** Delete File: "):
				out = append(out, access{h[len("*** Delete File: "):], "delete"})
			case strings.HasPrefix(h, "*** Update File: "):
				upd, moved, chunks = h[len("*** Update File: "):], false, 0
				state = afterUpd
			default:
				return nil, false
			}
			k++
		case addBody:
			if strings.HasPrefix(l, "+") {
				k++
			} else {
				state = header
			}
		case afterUpd:
			if rest, ok := strings.CutPrefix(l, "*** Move to: "); ok {
				move, moved = rest, true
				k++
			}
			state = between
		case between:
			switch {
			case trim(l) == "":
				k++
			case strings.HasPrefix(l, "*"):
				if chunks == 0 {
					return nil, false
				}
				endUpdate()
				state = header
			case isContext(l):
				state = context
			case chunks == 0:
				state, taken = chunkBody, 0
			default:
				return nil, false
			}
		case context:
			if isContext(l) {
				k++
			} else {
				state, taken = chunkBody, 0
			}
		case chunkBody:
			switch {
			case l == "*** End of File":
				if taken == 0 {
					return nil, false
				}
				chunks++
				state = between
				k++
			case diffLine(l):
				taken++
				k++
			case taken == 0:
				return nil, false
			default:
				chunks++
				state = between
			}
		}
	}
	switch state {
	case afterUpd, context:
		return nil, false
	case chunkBody:
		if taken == 0 {
			return nil, false
		}
		chunks++
		fallthrough
	case between:
		if chunks == 0 {
			return nil, false
		}
		endUpdate()
	}
	if len(out) == 0 {
		return nil, false
	}
	for _, a := range out {
		if a.path == "" || strings.ContainsRune(a.path, 0) {
			return nil, false
		}
	}
	return out, true
}

func accesses(changes []codex.Change) []access {
	var out []access
	for _, c := range changes {
		switch {
		case c.Op == codex.Delete:
			out = append(out, access{c.Path, "delete"})
		case c.MoveTo != "":
			out = append(out, access{c.Path, "delete"}, access{c.MoveTo, "write"})
		default:
			out = append(out, access{c.Path, "write"})
		}
	}
	return out
}

// FuzzParsePatch: ParsePatch and a second reading of Codex's grammar
// (model) agree on every patch: both reject it, or both read the same
// files with the same access. A patch either side reads differently
// fails.
func FuzzParsePatch(f *testing.F) {
	seeds := []string{
		"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch",
		"*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.go\n@@ func f() {\n-1\n+2\n*** End of File\n*** Delete File: c.go\n*** Update File: d.go\n*** Move to: e/d.go\n@@\n-x\n+y\n*** End Patch\n",
		" *** Begin Patch\r\n\t*** Delete File:  a \r\n*** End Patch \n",
		"<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
		"*** Begin Patch\n*** Update File: a\n import x\n+y\n\n@@ f\n@@ g\n-z\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n*** Move to: \n@@\n-x\n*** End Patch",
		"*** Begin Patch\n*** Add File: a\n+x\n  *** Add File: b\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n-x\nstray\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n-x\n*x\n*** End Patch",
		"*** Begin Patch\n*** End Patch",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	// The patches of the golden payloads.
	files, _ := filepath.Glob("testdata/payloads/*apply_patch*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var p struct {
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		if json.Unmarshal(data, &p) == nil && p.ToolInput.Command != "" {
			f.Add(p.ToolInput.Command)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := codex.ParsePatch(text)
		want, ok := model(text)
		if (err == nil) != ok {
			t.Fatalf("ParsePatch(%q) = %v, %v; the model of Codex's grammar says ok %v (%v)", text, got, err, ok, want)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("ParsePatch(%q) = %v with the error %v", text, got, err)
			}
			return
		}
		if diff := cmp.Diff(want, accesses(got), cmp.AllowUnexported(access{})); diff != "" {
			t.Fatalf("ParsePatch(%q) files (-model +got):\n%s", text, diff)
		}
	})
}

// patchLine are the lines FuzzPatchLines builds patches from: every kind
// of line Codex's grammar tells apart, padded and not.
var patchLine = []string{
	"*** Begin Patch", "*** End Patch", " *** Begin Patch ", "\t*** End Patch",
	"*** Add File: a", "  *** Add File: /etc/b ", "*** Add File:", "*** Add File:  c",
	"*** Delete File: d", "*** Delete File: ~/e", "*** Update File: f", " *** Update File: g/../h",
	"*** Move to: i", "*** Move to: ", " *** Move to: j", "*** Move to: k ",
	"@@", "@@ func f()", "@@x", " @@",
	"+added", "-removed", " context", "",
	"   ", "\t", "*** End of File", " *** End of File",
	"*stray", "***", "stray", "<<'EOF'", "EOF",
}

// FuzzPatchLines: as FuzzParsePatch, on patches built a line at a time
// from patchLine (each byte picks one; a high bit ends it with \r\n), so
// that the fuzzer reaches every state of the grammar.
func FuzzPatchLines(f *testing.F) {
	f.Add([]byte{0, 4, 20, 1})
	f.Add([]byte{0, 10, 12, 16, 21, 20, 26, 8, 1})
	f.Add([]byte{31, 0, 11, 22, 20, 24, 17, 16, 21, 1, 32})
	f.Add([]byte{2, 4, 20, 5, 23, 3})
	f.Fuzz(func(t *testing.T, picks []byte) {
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(patchLine[int(p&0x7f)%len(patchLine)])
			if p&0x80 != 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		text := b.String()
		got, err := codex.ParsePatch(text)
		want, ok := model(text)
		if (err == nil) != ok {
			t.Fatalf("ParsePatch(%q) = %v, %v; the model of Codex's grammar says ok %v (%v)", text, got, err, ok, want)
		}
		if err == nil {
			if diff := cmp.Diff(want, accesses(got), cmp.AllowUnexported(access{})); diff != "" {
				t.Fatalf("ParsePatch(%q) files (-model +got):\n%s", text, diff)
			}
		}
	})
}

// FuzzBashPatch: any Bash command translates or is refused, never a
// panic; the files of a patch it applies are named absolutely (or from
// the home directory), so no relative path is judged against the wrong
// directory.
func FuzzBashPatch(f *testing.F) {
	for _, s := range []string{
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF",
		"apply_patch<<EOF\n*** Begin Patch\n*** Delete File: ~/b\n*** End Patch\nEOF\n",
		"cd 'x y' && applypatch <<-'EOF'\n\t*** Begin Patch\n\t*** Delete File: b\n\t*** End Patch\n\tEOF",
		"bash -lc 'cd sub && apply_patch <<'\"'\"'EOF'\"'\"'\n*** Begin Patch\n*** Delete File: ../c\n*** End Patch\nEOF\n'",
		"printf '%s' '*** Begin Patch\n*** Delete File: d\n*** End Patch' | env apply_patch",
		"cat p | apply_patch", "apply_patch \"$P\"", "ls",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		in, err := json.Marshal(map[string]string{"command": cmd})
		if err != nil {
			return
		}
		p := &codex.Payload{Event: codex.PreToolUse, ToolName: "Bash", Cwd: "/p", ToolInput: in}
		c, err := translate(p, adapter.Options{})
		if err != nil {
			return
		}
		for _, r := range c.Requests[1:] {
			for _, path := range r.Paths {
				if !strings.HasPrefix(path, "/") && path != "~" && !strings.HasPrefix(path, "~/") {
					t.Fatalf("Translate(Bash %q): %s of the relative path %q", cmd, r.Tool, path)
				}
			}
		}
	})
}
