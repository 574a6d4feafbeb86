// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// This file judges what a run left in a git directory it created: the
// repositories themselves are found by package gitindex.

import (
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	"warden.dev/warden/internal/gitindex"
)

// maxGitFile bounds what is read of a .git file and maxGitConfig of a
// configuration file.
const (
	maxGitFile   = 4 << 10
	maxGitConfig = 1 << 20
)

// readSmall reads at most limit bytes of p.
func readSmall(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// benignConfig are the variables that git clone and git init write in a
// new repository's config (and a few an agent sets there), none of which
// makes git run anything: a new repository whose config holds only these,
// with only .sample hooks and only info/exclude, is left to the host.
// Everything else (core.fsmonitor, core.hooksPath, core.sshCommand,
// aliases, filters, include, remote.*.uploadpack, submodule.*.update…)
// sends its entry to the quarantine. Section and key, lower case; "*"
// for any subsection, "" for none.
var benignConfig = map[[3]string]bool{
	{"core", "", "repositoryformatversion"}: true,
	{"core", "", "filemode"}:                true,
	{"core", "", "bare"}:                    true,
	{"core", "", "logallrefupdates"}:        true,
	{"core", "", "ignorecase"}:              true,
	{"core", "", "precomposeunicode"}:       true,
	{"core", "", "symlinks"}:                true,
	{"extensions", "", "objectformat"}:      true,
	{"extensions", "", "partialclone"}:      true,
	{"init", "", "defaultbranch"}:           true,
	{"user", "", "name"}:                    true,
	{"user", "", "email"}:                   true,
	{"pull", "", "rebase"}:                  true,
	{"pull", "", "ff"}:                      true,
	{"remote", "*", "url"}:                  true, // see benignValue
	{"remote", "*", "pushurl"}:              true,
	{"remote", "*", "fetch"}:                true,
	{"remote", "*", "tagopt"}:               true,
	{"remote", "*", "promisor"}:             true,
	{"remote", "*", "partialclonefilter"}:   true,
	{"branch", "*", "remote"}:               true,
	{"branch", "*", "merge"}:                true,
	{"branch", "*", "pushremote"}:           true,
	{"submodule", "*", "url"}:               true,
	{"submodule", "*", "active"}:            true,
	{"lfs", "", "repositoryformatversion"}:  true,
}

// canonicalLine matches the lines of a configuration as git config
// writes them: a header, or a variable. Compiled on first use: most
// processes (init among them) never need it.
var canonicalLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\[[A-Za-z0-9-]+( "[^"\\\x00-\x1f\x7f]*")?\]|\t[A-Za-z][A-Za-z0-9-]* = [^"\\#;\x00-\x1f\x7f]*)$`)
})

// benignGitConfig reports whether every variable of a configuration file
// is in benignConfig, with a value that runs nothing: a URL is not a
// remote helper's ("transport::address", as ext:: is) and no option.
func benignGitConfig(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		// Only the form git clone and git init write: a header or a
		// "\tkey = value" line, no comment, quote, escape or
		// continuation. Any other syntax is one more place where this
		// parser and git's could read different variables (a comment
		// ending in a backslash hid the next line from an earlier
		// version), so it is not benign.
		if line != "" && !canonicalLine().MatchString(line) {
			return false
		}
	}
	for _, e := range gitindex.ParseConfig(data) {
		sub := ""
		if e.Sub != "" {
			sub = "*"
		}
		if !benignConfig[[3]string{e.Section, sub, e.Key}] {
			return false
		}
		if (e.Key == "url" || e.Key == "pushurl") && (strings.Contains(e.Value, "::") || strings.HasPrefix(e.Value, "-")) {
			return false
		}
	}
	return true
}

// benignNewGitEntry reports whether the entry name of a git directory the
// run created is what git clone and git init make and runs nothing: a
// config of benignConfig, a hooks directory of .sample files only, an info
// directory holding only exclude.
func benignNewGitEntry(p, name string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	switch name {
	case "config":
		if !fi.Mode().IsRegular() {
			return false
		}
		data, err := readSmall(p, maxGitConfig)
		return err == nil && len(data) < maxGitConfig && benignGitConfig(data)
	case "hooks", "info":
		if !fi.IsDir() {
			return false
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return false
		}
		for _, e := range ents {
			ok := e.Type().IsRegular() && (name == "hooks" && strings.HasSuffix(e.Name(), ".sample") || name == "info" && e.Name() == "exclude")
			if !ok {
				return false
			}
		}
		return true
	}
	return false
}
