// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the file tools family: programs that create, copy,
// move, delete and pack files.

import (
	"path"
	"strings"

	"warden.dev/warden/internal/action"
)

// copy handles cp, mv, install, ln, rsync and scp: sources, then a
// destination (or -t DIR). mv's sources are reported as deleted: they no
// longer exist where they were.
func (a *analyzer) copy(e *env, name string, args []field) (bool, bool) {
	vals, long := "tS", []string{"target-directory", "suffix", "backup"}
	switch name {
	case "install":
		vals = "tSmogb"
	case "rsync":
		vals, long = "eTfB", []string{"rsh", "rsync-path", "temp-dir", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "partial-dir", "log-file", "password-file", "chmod", "chown", "port", "timeout", "backup-dir", "compare-dest", "link-dest", "copy-dest", "max-size", "min-size", "bwlimit", "out-format", "info", "debug"}
	case "scp":
		vals = "cFiJloPSDX"
	}
	opts, ops := scan(args, vals, long, false)
	var dest []field
	if d := optVals(opts, "-t", "--target-directory"); len(d) > 0 {
		dest = d
	} else if len(ops) > 1 || name == "ln" && len(ops) == 1 {
		if len(ops) == 1 {
			dest = []field{{s: "."}}
		} else {
			dest, ops = ops[len(ops)-1:], ops[:len(ops)-1]
		}
	}
	remote := false
	if name == "rsync" || name == "scp" {
		for _, o := range opts {
			switch o.name {
			case "-e", "--rsh", "-S", "--rsync-path":
				if o.val.dyn || !(o.val.s == "ssh" || strings.HasPrefix(o.val.s, "ssh ")) || strings.Contains(o.val.s, "ProxyCommand") {
					a.flag(action.FlagRunsCode)
				}
			case "-o":
				if sshOptRuns(o.val.s) || o.val.dyn {
					a.flag(action.FlagRunsCode)
				}
			}
		}
		for _, f := range optVals(opts, "--files-from", "--exclude-from", "--include-from", "--password-file") {
			a.path(e, f, action.Read)
		}
		for _, f := range optVals(opts, "--log-file") {
			a.path(e, f, action.Write)
		}
		if name == "rsync" && hasOpt(opts, "--delete", "--delete-before", "--delete-after", "--delete-during", "--delete-excluded", "--remove-source-files") {
			a.class(action.FileDelete)
			for _, d := range dest {
				if h := remoteHost(d.s); h == "" {
					a.path(e, d, action.Delete)
				}
			}
		}
	}
	if name == "install" && hasOpt(opts, "-d", "--directory") {
		// install -d creates every operand.
		for _, f := range append(ops, dest...) {
			a.path(e, f, action.Write)
		}
		return false, true
	}
	if name == "ln" {
		// The target is what the link exposes: a read. A relative
		// symbolic link target is relative to the link's directory.
		linkDir := ""
		if len(dest) == 1 && !dest[0].dyn {
			linkDir = dest[0].s
			if !hasOpt(opts, "-t", "--target-directory") && len(ops) == 1 {
				linkDir = path.Dir(linkDir)
			}
		}
		sym := hasOpt(opts, "-s", "--symbolic")
		for _, f := range ops {
			a.path(e, f, action.Read)
			if sym && !f.dyn && !strings.HasPrefix(f.s, "/") && linkDir != "" && linkDir != "." {
				a.path(e, field{s: join(linkDir, f.s)}, action.Read)
			}
		}
		for _, d := range dest {
			a.path(e, d, action.Write)
		}
		return false, true
	}
	rec := false
	switch name {
	case "cp":
		rec = hasOpt(opts, "-r", "-R", "-a", "--recursive", "--archive")
	case "rsync":
		rec = hasOpt(opts, "-r", "-a", "--recursive", "--archive")
	case "scp":
		rec = hasOpt(opts, "-r")
	}
	for _, f := range append(ops, dest...) {
		if !f.dyn {
			if h := remoteHost(f.s); h != "" {
				remote = true
				a.host(h)
				continue
			}
		}
	}
	for _, f := range ops {
		if f.dyn || remoteHost(f.s) == "" {
			a.pathRec(e, f, action.Read, rec)
			if name == "mv" {
				// The sources no longer exist where they were.
				a.path(e, f, action.Delete)
			}
		}
	}
	for _, f := range dest {
		if f.dyn || remoteHost(f.s) == "" {
			a.path(e, f, action.Write)
		}
	}
	if remote || name == "scp" {
		a.class(action.NetworkEgress)
		a.meta[len(a.meta)-1].fetch = true
	}
	return false, true
}

// archive handles tar, zip and compressors, roughly: what they create is
// written, what they extract writes into the working directory.
func (a *analyzer) archive(e *env, name string, args []field) (bool, bool) {
	switch name {
	case "tar":
		mode := ""
		var file []field
		dir := []field{{s: "."}}
		rest := args
		if len(args) > 0 && !args[0].dyn && !strings.HasPrefix(args[0].s, "-") {
			// Old style: tar czf file …
			mode = args[0].s
			rest = args[1:]
			if strings.Contains(mode, "f") && len(rest) > 0 {
				file, rest = rest[:1], rest[1:]
			}
		}
		opts, ops := scan(rest, "fCbHKNTVXg", []string{"file", "directory", "exclude", "files-from", "use-compress-program", "to-command", "info-script", "new-volume-script", "checkpoint-action"}, false)
		for _, o := range opts {
			mode += strings.TrimPrefix(o.name, "-")
		}
		file = append(file, optVals(opts, "-f", "--file")...)
		if d := optVals(opts, "-C", "--directory"); len(d) > 0 {
			dir = d
		}
		if hasOpt(opts, "--use-compress-program", "-I", "--to-command", "--info-script", "--new-volume-script", "--checkpoint-action") {
			a.flag(action.FlagRunsCode)
		}
		switch {
		case strings.ContainsAny(mode, "cru") || strings.Contains(mode, "-create") || strings.Contains(mode, "-append"):
			for _, f := range file {
				a.path(e, f, action.Write)
			}
			rec := !hasOpt(opts, "--no-recursion")
			for _, f := range ops {
				if d := optVals(opts, "-C", "--directory"); len(d) == 1 && !d[0].dyn && !f.dyn && !strings.HasPrefix(f.s, "/") {
					f = field{s: join(d[0].s, f.s)}
				}
				a.pathRec(e, f, action.Read, rec)
			}
			for _, f := range optVals(opts, "-T", "--files-from") {
				a.path(e, f, action.Read)
			}
			return false, true
		case strings.Contains(mode, "x") || strings.Contains(mode, "-extract") || strings.Contains(mode, "-get"):
			for _, f := range file {
				a.path(e, f, action.Read)
			}
			for _, d := range dir {
				a.path(e, d, action.Write)
			}
			return false, true
		default:
			for _, f := range file {
				a.path(e, f, action.Read)
			}
			return true, true
		}
	case "unzip":
		opts, ops := scan(args, "dxP", nil, false)
		for _, f := range ops[:min(1, len(ops))] {
			a.path(e, f, action.Read)
		}
		if hasOpt(opts, "-l", "-t", "-v", "-Z", "-p") {
			if hasOpt(opts, "-p") {
				return true, true
			}
			return true, true
		}
		d := optVals(opts, "-d")
		if len(d) == 0 {
			d = []field{{s: "."}}
		}
		for _, f := range d {
			a.path(e, f, action.Write)
		}
		return false, true
	case "zip", "7z":
		opts, ops := scan(args, "bniotx", nil, false)
		rec := name == "zip" && hasOpt(opts, "-r", "-R", "--recurse-paths", "--recurse-patterns")
		if name == "7z" && len(ops) > 0 {
			ops = ops[1:] // the command letter
			rec = true
		}
		for j, f := range ops {
			if j == 0 {
				a.path(e, f, action.Write)
				continue
			}
			a.pathRec(e, f, action.Read, rec)
		}
		return false, true
	}
	// gzip & co.: -d decodes; -c writes to standard output; otherwise
	// the file is replaced.
	opts, ops := scan(args, "S", []string{"suffix"}, false)
	if hasOpt(opts, "-d", "--decompress", "--uncompress") || name == "gunzip" {
		a.meta[len(a.meta)-1].decode = true
	}
	acc := action.Write
	if hasOpt(opts, "-c", "--stdout", "-l", "--list", "-t", "--test") {
		acc = action.Read
	}
	for _, f := range ops {
		a.path(e, f, acc)
	}
	return acc == action.Read, true
}

func filePrograms() map[string]handler {
	m := map[string]handler{}
	claim(m, (*analyzer).rmCmd, "rm", "rmdir", "unlink", "shred", "srm")
	claim(m, (*analyzer).touchCmd, "touch", "mkdir", "truncate", "mkfifo", "mknod")
	claim(m, (*analyzer).chmodCmd, "chmod", "chown", "chgrp", "setfacl", "chattr")
	m["tee"] = (*analyzer).teeCmd
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.copy(e, c.name, c.args) }, "cp", "mv", "install", "ln", "rsync", "scp")
	m["dd"] = (*analyzer).ddCmd
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.archive(e, c.name, c.args) },
		"tar", "unzip", "zip", "gzip", "gunzip", "bzip2", "xz", "zstd", "7z")
	return m
}

// rmCmd: the deleting programs.
func (a *analyzer) rmCmd(e *env, c call) (bool, bool) {
	a.class(action.FileDelete)
	_, ops := scan(c.args, "nsu", nil, false)
	for _, f := range ops {
		a.path(e, f, action.Delete)
	}
	return false, true
}

// touchCmd: programs that create or resize the files they name.
func (a *analyzer) touchCmd(e *env, c call) (bool, bool) {
	_, ops := scan(c.args, "dmrstZ", []string{"date", "reference", "size", "mode", "time"}, false)
	for _, f := range ops {
		a.path(e, f, action.Write)
	}
	return false, true
}

// chmodCmd: a mode or owner, then the files it changes.
func (a *analyzer) chmodCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "", []string{"reference"}, false)
	if !hasOpt(opts, "--reference") && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, f := range ops {
		a.path(e, f, action.Write)
	}
	return false, true
}

// teeCmd writes every operand.
func (a *analyzer) teeCmd(e *env, c call) (bool, bool) {
	_, ops := scan(c.args, "", []string{"output-error"}, false)
	for _, f := range ops {
		a.path(e, f, action.Write)
	}
	return false, true
}

// ddCmd reads if= and writes of=.
func (a *analyzer) ddCmd(e *env, c call) (bool, bool) {
	for _, f := range c.args {
		if v, ok := strings.CutPrefix(f.s, "if="); ok && !f.dyn {
			a.path(e, field{s: v}, action.Read)
		}
		if v, ok := strings.CutPrefix(f.s, "of="); ok && !f.dyn {
			a.path(e, field{s: v}, action.Write)
		}
		if f.dyn {
			a.unresolved("dd with a dynamic operand")
		}
	}
	return false, true
}
