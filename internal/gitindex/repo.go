// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gitindex

// This file finds the repository that holds a path and reads its index,
// the way git would find them, without running git.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxGitFile bounds what is read of a .git file, a commondir file and a
// repository's config.
const (
	maxGitFile   = 4 << 10
	maxGitConfig = 1 << 20
)

// Checker answers whether files are tracked, reading each repository's
// index once. The zero value is ready to use; a Checker is meant to live
// for one request and is not safe for concurrent use.
type Checker struct {
	repos map[string]*repo // by work tree
}

// repo is what was read of one repository.
type repo struct {
	ix  *Index
	err error
}

// Tracked reports whether the file at path — absolute and resolved, so
// that every parent directory is a real one — is in the index of the git
// repository that holds it: the nearest directory above it with a .git
// entry, by its name or, for a file with several hard links, by the
// inode git recorded for one of them. A path outside any repository is
// not tracked. When the index
// cannot be read or trusted (too large, corrupt, unknown object format,
// a .git file that does not name a git directory), Tracked returns true
// and the error: the safe side. A missing index (a repository where
// nothing was ever added) tracks nothing.
func (c *Checker) Tracked(path string) (bool, error) {
	if !filepath.IsAbs(path) {
		return true, fmt.Errorf("path %q is not absolute", path)
	}
	path = filepath.Clean(path)
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if filepath.Base(dir) == ".git" {
			// A file inside a git directory is git's, not tracked;
			// keep looking above for the repository it belongs to.
			continue
		}
		r, ok := c.repoAt(dir)
		if ok {
			if r.err != nil {
				return true, r.err
			}
			rel := filepath.ToSlash(strings.TrimPrefix(path, strings.TrimSuffix(dir, "/")+"/"))
			if r.ix.Has(rel) || r.ix.hasFold(rel) {
				return true, nil
			}
			return r.ix.hardLinked(path), nil
		}
		if dir == "/" || dir == "." || dir == filepath.Dir(dir) {
			return false, nil
		}
	}
}

// repoAt returns the repository whose work tree is dir, and false when
// dir has no .git entry.
func (c *Checker) repoAt(dir string) (*repo, bool) {
	if r, ok := c.repos[dir]; ok {
		return r, r != nil
	}
	if c.repos == nil {
		c.repos = map[string]*repo{}
	}
	dotGit := filepath.Join(dir, ".git")
	if _, err := os.Lstat(dotGit); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, os.ErrNotExist) {
			c.repos[dir] = nil
			return nil, false
		}
		// Present but unreadable: the safe side.
		r := &repo{err: fmt.Errorf("%s: %v", dotGit, err)}
		c.repos[dir] = r
		return r, true
	}
	r := &repo{}
	r.ix, r.err = load(dotGit)
	c.repos[dir] = r
	return r, true
}

// load reads the index of the repository behind the .git entry dotGit.
func load(dotGit string) (*Index, error) {
	gitDir, err := GitDir(dotGit)
	if err != nil {
		return nil, err
	}
	common := gitDir
	if data, err := readSmall(filepath.Join(gitDir, "commondir"), maxGitFile); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	cfg, err := readSmall(filepath.Join(common, "config"), maxGitConfig+1)
	if err != nil {
		return nil, fmt.Errorf("reading the config of %s: %v", common, err)
	}
	if len(cfg) > maxGitConfig {
		return nil, fmt.Errorf("the config of %s is larger than %d bytes", common, maxGitConfig)
	}
	name := ObjectFormat(cfg)
	format, ok := ParseFormat(name)
	if !ok {
		return nil, fmt.Errorf("unknown object format %q in %s", name, common)
	}
	p := filepath.Join(gitDir, "index")
	data, err := readSmall(p, MaxSize+1)
	if errors.Is(err, fs.ErrNotExist) {
		return &Index{Version: 2}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", p, err)
	}
	ix, err := Parse(data, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return ix, nil
}

// GitDir returns the git directory behind a .git entry: the entry itself
// when it is a directory (or a link to one), or the directory a .git file
// names ("gitdir: PATH", PATH relative to the file's directory), as a
// linked worktree or a submodule has.
func GitDir(dotGit string) (string, error) {
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return dotGit, nil
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is neither a directory nor a file", dotGit)
	}
	data, err := readSmall(dotGit, maxGitFile)
	if err != nil {
		return "", err
	}
	rest, err := ParseGitFile(data, filepath.Dir(dotGit))
	if err != nil {
		return "", fmt.Errorf("%s: %v", dotGit, err)
	}
	if fi, err := os.Stat(rest); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s names %s, which is not a directory", dotGit, rest)
	}
	return rest, nil
}

// ParseGitFile parses the content of a .git file, "gitdir: PATH", and
// returns PATH cleaned, made absolute against dir (the .git file's
// directory) unless it is absolute. Only the first line counts, as for
// git.
func ParseGitFile(data []byte, dir string) (string, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	rest, ok := strings.CutPrefix(strings.TrimRight(string(line), "\r"), "gitdir:")
	if !ok {
		return "", errors.New(`not a "gitdir: PATH" file`)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.ContainsRune(rest, 0) {
		return "", errors.New("empty or invalid gitdir path")
	}
	if !filepath.IsAbs(rest) {
		rest = filepath.Join(dir, rest)
	}
	return filepath.Clean(rest), nil
}

// ObjectFormat returns the value of extensions.objectFormat in a git
// configuration file, or "" when it is not set. Only the plain form git
// writes is read ("[extensions]" then "objectformat = sha256", in any
// case and spacing); a value it cannot read is returned as it stands, and
// [ParseFormat] rejects it.
func ObjectFormat(cfg []byte) string {
	section := ""
	value := ""
	sc := bufio.NewScanner(bytes.NewReader(cfg))
	sc.Buffer(make([]byte, 0, 4096), maxGitConfig+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				section = ""
				continue
			}
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:])
		}
		if section != "extensions" {
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		if strings.ToLower(strings.TrimSpace(key)) != "objectformat" {
			continue
		}
		val = strings.TrimSpace(val)
		if i := strings.IndexAny(val, "#;"); i >= 0 {
			val = strings.TrimSpace(val[:i])
		}
		value = strings.Trim(val, `"`)
	}
	if sc.Err() != nil {
		return "(unreadable)"
	}
	return value
}

// hasFold reports whether the index holds path spelt in another case: on
// a case-insensitive file system (core.ignorecase) that is the same file,
// and elsewhere counting it is the safe side.
func (ix *Index) hasFold(path string) bool {
	for _, e := range ix.Entries {
		if len(e) == len(path) && strings.EqualFold(e, path) {
			return true
		}
	}
	return false
}

// hardLinked reports whether the file at path has other names, one of
// which may be a file of the index: its inode is one git recorded (the
// low 32 bits, as git keeps them; a collision is the safe side), or it
// cannot be told on this system.
func (ix *Index) hardLinked(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	ino, nlink, ok := inode(fi)
	if !ok {
		return false // no hard links to tell on this system
	}
	if nlink < 2 {
		return false
	}
	for _, i := range ix.inos {
		if i == uint32(ino) {
			return true
		}
	}
	return false
}

// readSmall reads at most limit bytes of p.
func readSmall(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
