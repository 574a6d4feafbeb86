// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/safefile"
)

// Where discovery looks (docs/spec.md §13).
const (
	// ProjectFile is a project's policy, relative to the project.
	ProjectFile = ".warden/policy.yaml"
	// UserFile is the user's policy, relative to the configuration
	// directory ($XDG_CONFIG_HOME/warden).
	UserFile = "policy.yaml"
	// ManagedDefault is the managed tier when WARDEN_MANAGED_POLICY is
	// not set; absent is no managed tier.
	ManagedDefault = "/etc/warden/managed.yaml"
	// TrustFile holds the trusted project policies, in the state
	// directory.
	TrustFile = "trusted.json"
)

// Kinds of source.
const (
	FromFlag    = "flag"
	FromProject = "project"
	FromUser    = "user"
	FromDefault = "default"
)

// Where says where discovery looks: the directory a command runs in, the
// home, Warden's configuration directory ($XDG_CONFIG_HOME/warden) and
// state directory (where trust is recorded).
type Where struct {
	Dir       string
	Home      string
	ConfigDir string
	StateDir  string
}

// Source is where the policy in force came from and why.
type Source struct {
	// Kind is FromFlag, FromProject, FromUser or FromDefault.
	Kind string `json:"kind"`
	// Path is the file's path; "" for the embedded default.
	Path     string `json:"path,omitempty"`
	Revision string `json:"revision"`
	// Why says why this one was taken.
	Why string `json:"why"`
	// Skipped are the candidates looked at before it, in order.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Managed is the managed tier's file, "" without one.
	Managed         string `json:"managed,omitempty"`
	ManagedRevision string `json:"managed_revision,omitempty"`
	ManagedWhy      string `json:"managed_why"`
}

// Skipped is a candidate that was not taken, and why.
type Skipped struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	Why  string `json:"why"`
}

// FindManaged sets the managed tier of o: env (WARDEN_MANAGED_POLICY)
// when set, else def (the system's, [ManagedDefault]) if anything is
// there: a file that is there but does not load is an error when loaded,
// never skipped (fail closed). It says which.
func (o *Options) FindManaged(env, def string) (why string) {
	o.Managed, o.ManagedSystem = "", false
	if env != "" {
		o.Managed = env
		return "named by " + EnvManaged
	}
	if def == "" {
		return "none"
	}
	if _, err := os.Lstat(def); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("none (%s is absent)", def)
	}
	o.Managed, o.ManagedSystem = def, true
	return "the system's managed policy"
}

// Discover loads the policy in force when none is named (docs/spec.md §13):
// the project's .warden/policy.yaml if the user trusted its very content
// ([Trust]), else the user's policy file, else the embedded default; with
// the managed tier of o. A candidate that is there but does not load is
// an error, never skipped: the policy is applied whole or not at all.
func Discover(w Where, o Options) (*Policy, *Source, error) {
	src := &Source{Managed: o.Managed}
	if proj := gitindex.Project(w.Dir, w.Home); proj != "" {
		p, err := discoverProject(proj, w, o, src)
		if p != nil || err != nil {
			return finish(p, src, err)
		}
	}
	if w.ConfigDir != "" {
		path := filepath.Join(w.ConfigDir, UserFile)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			src.Skipped = append(src.Skipped, Skipped{FromUser, path, "absent"})
		} else {
			src.Kind, src.Path, src.Why = FromUser, path, "the user's policy"
			p, err := Load(path, o)
			return finish(p, src, err)
		}
	}
	src.Kind, src.Why = FromDefault, "no policy file found"
	p, err := Load("", o)
	return finish(p, src, err)
}

func finish(p *Policy, src *Source, err error) (*Policy, *Source, error) {
	if err != nil {
		return nil, src, err
	}
	src.Revision, src.ManagedRevision = p.Revision, p.ManagedRevision
	return p, src, nil
}

// discoverProject loads the project's policy when it is trusted; nil and
// a reason in src.Skipped when it is not.
func discoverProject(proj string, w Where, o Options, src *Source) (*Policy, error) {
	path := filepath.Join(proj, ProjectFile)
	skip := func(why string) (*Policy, error) {
		src.Skipped = append(src.Skipped, Skipped{FromProject, path, why})
		return nil, nil
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return skip("absent")
	}
	real, err := projectFile(path, proj)
	if err != nil {
		return skip(err.Error())
	}
	data, err := readNoFollow(real)
	if err != nil {
		return skip(err.Error())
	}
	rev := revision(data)
	recs, err := readTrust(w.StateDir)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "the trust records are Warden's own; remove the file to trust again"}
	}
	rec, ok := recs.Files[real]
	switch {
	case !ok:
		return skip("untrusted: never trusted; 'warden policy trust' trusts its present content")
	case rec.Revision != rev:
		return skip(fmt.Sprintf("untrusted: content changed since trusted on %s; review it, then 'warden policy trust' again", rec.Time.UTC().Format("2006-01-02 15:04 UTC")))
	}
	src.Kind, src.Path = FromProject, real
	src.Why = fmt.Sprintf("the project's policy, trusted on %s", rec.Time.UTC().Format("2006-01-02 15:04 UTC"))
	return Parse(real, data, o)
}

// projectFile is the real path of path, a file of the project proj;
// an error when a link takes it out of the project.
func projectFile(path, proj string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(real, strings.TrimSuffix(proj, "/")+"/") {
		return "", fmt.Errorf("a link takes it out of the project, to %s", real)
	}
	return real, nil
}

// readNoFollow reads a policy file that must not be a link, bounded as
// policy files are.
func readNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, policyfile.MaxSize+1))
}

// trustRecords is the trust file: each trusted project policy by its
// real path.
type trustRecords struct {
	Version int                    `json:"version"`
	Files   map[string]trustRecord `json:"files"`
}

type trustRecord struct {
	Revision string    `json:"revision"`
	Time     time.Time `json:"trusted"`
}

// readTrust reads the trust file of stateDir; none is no trust.
func readTrust(stateDir string) (*trustRecords, error) {
	recs := &trustRecords{Version: 1, Files: map[string]trustRecord{}}
	if stateDir == "" {
		return recs, nil
	}
	path := filepath.Join(stateDir, TrustFile)
	data, err := readNoFollow(path)
	if errors.Is(err, fs.ErrNotExist) {
		return recs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the trust records: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(recs); err != nil {
		return nil, fmt.Errorf("reading the trust records %s: %v", path, err)
	}
	if recs.Files == nil {
		recs.Files = map[string]trustRecord{}
	}
	return recs, nil
}

// Trusted is what [Trust] recorded.
type Trusted struct {
	Path     string
	Revision string
	Time     time.Time
	// Read says whether discovery reads this file: the project's
	// .warden/policy.yaml is it, or links to it.
	Read bool
}

// Trust records the present content of a project's policy file as
// trusted: file (the project's .warden/policy.yaml when empty) is read
// without following a link out of the project, checked to load with the
// managed tier of o (a broken policy is never trusted), and its content
// hash recorded by its real path in the state directory, which is made
// (0700) if needed. An edit makes it untrusted again.
func Trust(w Where, file string, o Options, now time.Time) (*Trusted, error) {
	proj := gitindex.Project(w.Dir, w.Home)
	if proj == "" {
		return nil, &Error{Msg: "not in a project: a project policy is trusted from inside its git work tree", Hint: "cd into the project first"}
	}
	if file == "" {
		file = filepath.Join(proj, ProjectFile)
	} else if !filepath.IsAbs(file) {
		file = filepath.Join(w.Dir, file)
	}
	real, err := projectFile(file, proj)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("%s: %v", file, err), Hint: "only a file of the project " + proj + " is trusted"}
	}
	data, err := readNoFollow(real)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	if _, err := Parse(real, data, o); err != nil {
		return nil, err
	}
	if w.StateDir == "" {
		return nil, &Error{Msg: "no state directory to record trust in", Hint: "set WARDEN_STATE_DIR or HOME"}
	}
	if err := os.MkdirAll(w.StateDir, 0o700); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	// Two trusts at once must not lose one: the records are read and
	// replaced under a lock of their own.
	lock, err := os.OpenFile(filepath.Join(w.StateDir, TrustFile+".lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("recording trust: %v", err)}
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("recording trust: %v", err)}
	}
	recs, err := readTrust(w.StateDir)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	t := &Trusted{Path: real, Revision: revision(data), Time: now.UTC().Truncate(time.Second)}
	if r, err := filepath.EvalSymlinks(filepath.Join(proj, ProjectFile)); err == nil && r == real {
		t.Read = true
	}
	recs.Files[real] = trustRecord{Revision: t.Revision, Time: t.Time}
	out, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	// The file is replaced by a rename: a link planted in its place is
	// replaced, never written through.
	if err := safefile.WriteFile(filepath.Join(w.StateDir, TrustFile), append(out, '\n'), 0o600); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("recording trust: %v", err)}
	}
	return t, nil
}
