// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

var (
	sandboxKeys    = []string{"mode", "approval", "filesystem", "limits", "env"}
	filesystemKeys = []string{"read_write", "read_only", "hide", "home", "protect"}
	limitKeys      = []string{"memory", "pids", "cpu", "nofile", "fsize", "disk", "inodes", "timeout", "output"}
	envKeys        = []string{"pass", "set"}

	sandboxModes     = []string{string(ReadOnly), string(WorkspaceWrite), string(FullAccess)}
	approvalPolicies = []string{string(ApprovalUntrusted), string(ApprovalOnRequest), string(ApprovalOnFailure), string(ApprovalNever)}
	homeModes        = []string{string(HomeVisible), string(HomeHidden)}
)

// envName is a portable environment variable name.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// maxCPU bounds limits.cpu, in cores.
const maxCPU = 1 << 16

func (d *decoder) sandbox(n *yaml.Node) (Sandbox, error) {
	sb := Sandbox{Set: true}
	fs, err := d.fields(n, "sandbox", sandboxKeys, true)
	if err != nil {
		return Sandbox{}, err
	}
	for _, f := range fs {
		switch f.key {
		case "mode":
			s, err := d.oneOf(f.v, "sandbox mode", sandboxModes...)
			if err != nil {
				return Sandbox{}, err
			}
			sb.Mode = SandboxMode(s)
		case "approval":
			s, err := d.oneOf(f.v, "approval policy", approvalPolicies...)
			if err != nil {
				return Sandbox{}, err
			}
			sb.Approval = ApprovalPolicy(s)
		case "filesystem":
			if sb.Filesystem, err = d.filesystem(f.v); err != nil {
				return Sandbox{}, err
			}
		case "limits":
			if sb.Limits, err = d.limits(f.v); err != nil {
				return Sandbox{}, err
			}
		case "env":
			if sb.Env, err = d.env(f.v); err != nil {
				return Sandbox{}, err
			}
		}
	}
	return sb, nil
}

func (d *decoder) filesystem(n *yaml.Node) (Filesystem, error) {
	var fsys Filesystem
	fs, err := d.fields(n, "filesystem", filesystemKeys, true)
	if err != nil {
		return fsys, err
	}
	// A path in two lists is a contradiction (writable and hidden?); say
	// so rather than pick one silently.
	listed := make(map[string]string)
	for _, f := range fs {
		if f.key == "home" {
			s, err := d.oneOf(f.v, "home mode", homeModes...)
			if err != nil {
				return fsys, err
			}
			fsys.Home = HomeMode(s)
			continue
		}
		ps, err := d.patterns(f.v, f.key, true)
		if err != nil {
			return fsys, err
		}
		for i, p := range ps {
			if err := checkFilesystemPath(f.key, p); err != nil {
				return fsys, d.errf(f.v.Content[i], "%s: %v", f.key, err)
			}
		}
		for i, p := range ps {
			if prev, ok := listed[p]; ok {
				if prev == f.key {
					return fsys, d.errf(f.v.Content[i], "%s lists %q twice", f.key, p)
				}
				return fsys, d.errf(f.v.Content[i], "path %q is in both %s and %s", p, prev, f.key)
			}
			listed[p] = f.key
		}
		switch f.key {
		case "read_write":
			fsys.ReadWrite = ps
		case "read_only":
			fsys.ReadOnly = ps
		case "hide":
			fsys.Hide = ps
		case "protect":
			fsys.Protect = ps
		}
	}
	return fsys, nil
}

func (d *decoder) limits(n *yaml.Node) (Limits, error) {
	var l Limits
	fs, err := d.fields(n, "limits", limitKeys, true)
	if err != nil {
		return l, err
	}
	for _, f := range fs {
		switch f.key {
		case "memory", "fsize", "disk", "output":
			s, err := d.size(f.v, f.key)
			if err != nil {
				return l, err
			}
			switch f.key {
			case "memory":
				l.Memory = s
			case "fsize":
				l.Fsize = s
			case "disk":
				l.Disk = s
			case "output":
				l.Output = s
			}
		case "pids":
			if l.Pids, err = d.integer(f.v, "pids", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "nofile":
			if l.Nofile, err = d.integer(f.v, "nofile", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "inodes":
			if l.Inodes, err = d.integer(f.v, "inodes", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "cpu":
			if f.v.Kind != yaml.ScalarNode || (f.v.ShortTag() != "!!int" && f.v.ShortTag() != "!!float") {
				return l, d.errf(f.v, "cpu must be a number of cores, not %s", describe(f.v))
			}
			var c float64
			if err := f.v.Decode(&c); err != nil || math.IsNaN(c) || c <= 0 || c > maxCPU {
				return l, d.errf(f.v, "cpu must be a number of cores between 0 and %d, got %s", maxCPU, f.v.Value)
			}
			l.CPU = c
		case "timeout":
			s, err := d.str(f.v, "timeout")
			if err != nil {
				return l, err
			}
			if l.Timeout, err = parseDuration(s); err != nil {
				return l, d.errf(f.v, "timeout: %v", err)
			}
		}
	}
	return l, nil
}

func (d *decoder) size(n *yaml.Node, what string) (Size, error) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!str") {
		return Size{}, d.errf(n, "%s must be a size such as 512MiB, not %s", what, describe(n))
	}
	s, err := parseSize(n.Value)
	if err != nil {
		return Size{}, d.errf(n, "%s: %v", what, err)
	}
	return s, nil
}

func (d *decoder) env(n *yaml.Node) (Env, error) {
	var e Env
	fs, err := d.fields(n, "env", envKeys, true)
	if err != nil {
		return e, err
	}
	where := make(map[string]string)
	for _, f := range fs {
		switch f.key {
		case "pass":
			names, err := d.strList(f.v, "pass", true)
			if err != nil {
				return e, err
			}
			for i, name := range names {
				if err := d.envName(f.v.Content[i], name, "pass", where); err != nil {
					return e, err
				}
			}
			e.Pass = names
		case "set":
			sfs, err := d.fields(f.v, "env set", nil, true)
			if err != nil {
				return e, err
			}
			for _, sf := range sfs {
				if err := d.envName(sf.k, sf.key, "set", where); err != nil {
					return e, err
				}
				v, err := d.str(sf.v, "value of "+sf.key)
				if err != nil {
					return e, err
				}
				if e.Set == nil {
					e.Set = make(map[string]string)
				}
				e.Set[sf.key] = v
			}
		}
	}
	return e, nil
}

// envName checks a variable name and that it is named once across pass
// and set: passing and setting one variable is a contradiction.
func (d *decoder) envName(n *yaml.Node, name, list string, where map[string]string) error {
	if !envName().MatchString(name) {
		return d.errf(n, "%q is not an environment variable name", name)
	}
	if prev, ok := where[name]; ok {
		if prev == list {
			return d.errf(n, "env %s names %s twice", list, name)
		}
		return d.errf(n, "env names %s in both %s and %s", name, prev, list)
	}
	where[name] = list
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkFilesystemPath checks one sandbox.filesystem entry: hide and
// protect entries may be globs (each segment a path.Match pattern, or
// "**"), and protect entries are relative to the project; read_write and
// read_only entries are plain paths, as they are bound whole.
func checkFilesystemPath(list, p string) error {
	if strings.ContainsRune(p, 0) {
		return fmt.Errorf("%q contains a NUL byte", p)
	}
	if list == "protect" && (strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~")) {
		return fmt.Errorf("%q: protect entries are patterns relative to the project", p)
	}
	if list == "protect" && slices.Contains(strings.Split(p, "/"), "..") {
		return fmt.Errorf("%q: protect entries stay inside the project (no ..)", p)
	}
	glob := strings.ContainsAny(p, "*?[")
	if list != "hide" && list != "protect" {
		if glob {
			return fmt.Errorf("%q: only hide entries may be globs", p)
		}
		return nil
	}
	stars := 0
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if seg == "**" {
			// As the sandbox bounds them: matching costs grow with
			// a path's depth to the power of their number.
			if stars++; stars > 4 {
				return fmt.Errorf("%q has more than 4 ** segments", p)
			}
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("%q is not a valid glob: %v", p, err)
		}
	}
	return nil
}
