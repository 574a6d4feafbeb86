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
	fs, err := d.Fields(n, "sandbox", sandboxKeys, true)
	if err != nil {
		return Sandbox{}, err
	}
	for _, f := range fs {
		switch f.Key {
		case "mode":
			s, err := d.oneOf(f.V, "sandbox mode", sandboxModes...)
			if err != nil {
				return Sandbox{}, err
			}
			sb.Mode = SandboxMode(s)
		case "approval":
			s, err := d.oneOf(f.V, "approval policy", approvalPolicies...)
			if err != nil {
				return Sandbox{}, err
			}
			sb.Approval = ApprovalPolicy(s)
		case "filesystem":
			if sb.Filesystem, err = d.filesystem(f.V); err != nil {
				return Sandbox{}, err
			}
		case "limits":
			if sb.Limits, err = d.limits(f.V); err != nil {
				return Sandbox{}, err
			}
		case "env":
			if sb.Env, err = d.env(f.V); err != nil {
				return Sandbox{}, err
			}
		}
	}
	return sb, nil
}

func (d *decoder) filesystem(n *yaml.Node) (Filesystem, error) {
	var fsys Filesystem
	fs, err := d.Fields(n, "filesystem", filesystemKeys, true)
	if err != nil {
		return fsys, err
	}
	// A path in two lists is a contradiction (writable and hidden?); say
	// so rather than pick one silently.
	listed := make(map[string]string)
	for _, f := range fs {
		if f.Key == "home" {
			s, err := d.oneOf(f.V, "home mode", homeModes...)
			if err != nil {
				return fsys, err
			}
			fsys.Home = HomeMode(s)
			continue
		}
		ps, err := d.patterns(f.V, f.Key, true)
		if err != nil {
			return fsys, err
		}
		for i, p := range ps {
			if err := checkFilesystemPath(f.Key, p); err != nil {
				return fsys, d.Errorf(f.V.Content[i], "%s: %v", f.Key, err)
			}
		}
		for i, p := range ps {
			if prev, ok := listed[p]; ok {
				if prev == f.Key {
					return fsys, d.Errorf(f.V.Content[i], "%s lists %q twice", f.Key, p)
				}
				return fsys, d.Errorf(f.V.Content[i], "path %q is in both %s and %s", p, prev, f.Key)
			}
			listed[p] = f.Key
		}
		switch f.Key {
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
	fs, err := d.Fields(n, "limits", limitKeys, true)
	if err != nil {
		return l, err
	}
	for _, f := range fs {
		switch f.Key {
		case "memory", "fsize", "disk", "output":
			s, err := d.size(f.V, f.Key)
			if err != nil {
				return l, err
			}
			switch f.Key {
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
			if l.Pids, err = d.integer(f.V, "pids", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "nofile":
			if l.Nofile, err = d.integer(f.V, "nofile", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "inodes":
			if l.Inodes, err = d.integer(f.V, "inodes", 1, math.MaxInt64); err != nil {
				return l, err
			}
		case "cpu":
			if f.V.Kind != yaml.ScalarNode || (f.V.ShortTag() != "!!int" && f.V.ShortTag() != "!!float") {
				return l, d.Errorf(f.V, "cpu must be a number of cores, not %s", d.Describe(f.V))
			}
			var c float64
			if err := f.V.Decode(&c); err != nil || math.IsNaN(c) || c <= 0 || c > maxCPU {
				return l, d.Errorf(f.V, "cpu must be a number of cores between 0 and %d, got %s", maxCPU, f.V.Value)
			}
			l.CPU = c
		case "timeout":
			s, err := d.str(f.V, "timeout")
			if err != nil {
				return l, err
			}
			if l.Timeout, err = parseDuration(s); err != nil {
				return l, d.Errorf(f.V, "timeout: %v", err)
			}
		}
	}
	return l, nil
}

func (d *decoder) size(n *yaml.Node, what string) (Size, error) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!str") {
		return Size{}, d.Errorf(n, "%s must be a size such as 512MiB, not %s", what, d.Describe(n))
	}
	s, err := parseSize(n.Value)
	if err != nil {
		return Size{}, d.Errorf(n, "%s: %v", what, err)
	}
	return s, nil
}

func (d *decoder) env(n *yaml.Node) (Env, error) {
	var e Env
	fs, err := d.Fields(n, "env", envKeys, true)
	if err != nil {
		return e, err
	}
	where := make(map[string]string)
	for _, f := range fs {
		switch f.Key {
		case "pass":
			names, err := d.strList(f.V, "pass", true)
			if err != nil {
				return e, err
			}
			for i, name := range names {
				if err := d.envName(f.V.Content[i], name, "pass", where); err != nil {
					return e, err
				}
			}
			e.Pass = names
		case "set":
			sfs, err := d.Fields(f.V, "env set", nil, true)
			if err != nil {
				return e, err
			}
			for _, sf := range sfs {
				if err := d.envName(sf.K, sf.Key, "set", where); err != nil {
					return e, err
				}
				v, err := d.str(sf.V, "value of "+sf.Key)
				if err != nil {
					return e, err
				}
				if e.Set == nil {
					e.Set = make(map[string]string)
				}
				e.Set[sf.Key] = v
			}
		}
	}
	return e, nil
}

// envName checks a variable name and that it is named once across pass
// and set: passing and setting one variable is a contradiction.
func (d *decoder) envName(n *yaml.Node, name, list string, where map[string]string) error {
	if !envName().MatchString(name) {
		return d.Errorf(n, "%q is not an environment variable name", name)
	}
	if prev, ok := where[name]; ok {
		if prev == list {
			return d.Errorf(n, "env %s names %s twice", list, name)
		}
		return d.Errorf(n, "env names %s in both %s and %s", name, prev, list)
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
