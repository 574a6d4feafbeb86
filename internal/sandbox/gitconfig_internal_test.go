// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/gitindex"
)

// gitConfigCorpus are configuration files whose syntax git and a careless
// parser could read differently: comments, continuations, quotes,
// escapes, headers of every form.
var gitConfigCorpus = []string{
	"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n",
	"[core]\n# \\\n\tfsmonitor = evil\n",
	"[core]\n; \\\n\tfsmonitor = evil\n",
	"[core]\n\tbare = false # \\\n\tfsmonitor = evil\n",
	"[core]\n\tbare = \"false\\\n\"\n\tfsmonitor = evil\n",
	"[core]\n\teditor = vi\\\n\tfsmonitor = evil\n",
	"[core]\n\teditor = \"vi\\\\\"\n\tfsmonitor = evil\n",
	"[core]\n\thooksPath = \"a b\" # c\n",
	"[core]\n\thooksPath = a\\tb\n",
	"[core] hooksPath = h\n",
	"[CORE]\n\tHooksPath = h\n",
	"[core.x]\n\tbare = true\n",
	"[remote \"o\"]\n\turl = https://example.com/r.git\n",
	"[remote \"O\"]\n\tURL = x\n",
	"[remote \"a\\\"b\"]\n\turl = x\n",
	"[alias]\n\tst = !evil\n",
	"[core]\n\tfsmonitor\n",
	"[core]\n\tbare = true\n\n\n[user]\n\tname = A B\n",
	"[core]\r\n\tbare = true\r\n",
	"[include]\n\tpath = x\n",
}

// gitList is what git itself reads from a configuration file: its
// variables as "section[.sub].key=value", or ok false when git refuses
// the file.
func gitList(t testing.TB, git, conf string) (vars []string, ok bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(f, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "config", "--file", f, "--no-includes", "--list", "--null")
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent", "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	for _, e := range bytes.Split(out, []byte{0}) {
		if len(e) == 0 {
			continue
		}
		k, v, hasVal := strings.Cut(string(e), "\n")
		if !hasVal {
			v = "true" // a key without "=" is true
		}
		vars = append(vars, k+"="+v)
	}
	return vars, true
}

// ourList is what parseGitConfig reads, in gitList's form: sections and
// keys lower case, subsections as written.
func ourList(conf string) []string {
	var vars []string
	for _, e := range gitindex.ParseConfig([]byte(conf)) {
		k := e.Section
		if e.Sub != "" {
			k += "." + e.Sub
		}
		if k != "" {
			k += "."
		}
		vars = append(vars, k+e.Key+"="+e.Value)
	}
	return vars
}

// TestParseGitConfigAgreesWithGit checks the configuration parser that
// finds core.hooksPath against git's own reading of the same files: any
// variable git reads that the parser does not is a hooks directory left
// unprotected.
func TestParseGitConfigAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("requires git on PATH to compare with: not found")
	}
	for _, conf := range gitConfigCorpus {
		want, ok := gitList(t, git, conf)
		if !ok {
			continue // git refuses it: nothing of it is ever honoured
		}
		if diff := cmp.Diff(want, ourList(conf)); diff != "" {
			t.Errorf("gitindex.ParseConfig(%q) disagrees with git (-git +ours):\n%s", conf, diff)
		}
	}
}

// FuzzBenignGitConfig checks, against git's own reading, that a
// configuration benignGitConfig leaves on the host holds only the
// variables of benignConfig, and no URL of a remote helper.
func FuzzBenignGitConfig(f *testing.F) {
	git, err := exec.LookPath("git")
	if err != nil {
		f.Skip("requires git on PATH to compare with: not found")
	}
	for _, c := range gitConfigCorpus {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		if !benignGitConfig([]byte(conf)) {
			return
		}
		vars, ok := gitList(t, git, conf)
		if !ok {
			return
		}
		for _, kv := range vars {
			k, v, _ := strings.Cut(kv, "=")
			section, rest, _ := strings.Cut(k, ".")
			sub, key := "", rest
			if i := strings.LastIndexByte(rest, '.'); i >= 0 {
				sub, key = "*", rest[i+1:]
			}
			if !benignConfig[[3]string{section, sub, key}] {
				t.Fatalf("benignGitConfig(%q) = true, but git reads %s", conf, kv)
			}
			if (key == "url" || key == "pushurl") && (strings.Contains(v, "::") || strings.HasPrefix(v, "-")) {
				t.Fatalf("benignGitConfig(%q) = true, but git reads the URL %q", conf, v)
			}
		}
	})
}

// FuzzParseGitConfig checks that parseGitConfig misses no variable that
// git reads from the same file (reading more is the safe side: it can
// only protect one more directory).
func FuzzParseGitConfig(f *testing.F) {
	git, err := exec.LookPath("git")
	if err != nil {
		f.Skip("requires git on PATH to compare with: not found")
	}
	for _, c := range gitConfigCorpus {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		if strings.ContainsRune(conf, 0) {
			return // git's --null listing cannot show such names apart
		}
		vars, ok := gitList(t, git, conf)
		if !ok {
			return
		}
		// Names compared lower case, empty parts dropped: parseGitConfig
		// does not tell an empty subsection ([core ""]) from none.
		norm := func(kv string) string {
			k, _, _ := strings.Cut(kv, "=")
			return strings.Join(strings.FieldsFunc(strings.ToLower(k), func(r rune) bool { return r == '.' }), ".")
		}
		ours := map[string]bool{}
		for _, kv := range ourList(conf) {
			ours[norm(kv)] = true
		}
		for _, kv := range vars {
			if !ours[norm(kv)] {
				t.Fatalf("gitindex.ParseConfig(%q) misses %s, which git reads (ours: %v)", conf, kv, ourList(conf))
			}
		}
	})
}
