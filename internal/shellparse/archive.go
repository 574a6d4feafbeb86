// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the archivers and compressors of the file tools family
// (files.go): tar, zip, unzip, 7z, cpio, gzip and its kin. What they pack
// is read and the archive they create written; what they extract writes
// into the working directory or the directory given, and extracting to
// the paths the archive names is unresolved; a command an option names
// (tar --to-command, --use-compress-program) is analysed as shell code;
// what a decompressor prints is decoded text.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

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
		opts, ops := scan(rest, "fCbHKNTVXgIF", []string{"file", "directory", "exclude", "files-from", "use-compress-program", "to-command", "info-script", "new-volume-script", "checkpoint-action"}, false)
		for _, o := range opts {
			mode += tarMode(o.name)
		}
		file = append(file, optVals(opts, "-f", "--file")...)
		if d := optVals(opts, "-C", "--directory"); len(d) > 0 {
			dir = d
		}
		if hasOpt(opts, "--use-compress-program", "-I", "--to-command", "--info-script", "--new-volume-script", "-F", "--checkpoint-action") {
			a.flag(action.FlagRunsCode)
		}
		// The commands these options name are run by a shell: each is
		// analysed as one (--checkpoint-action=exec=CMD).
		for _, o := range opts {
			switch o.name {
			case "--use-compress-program", "-I", "--to-command", "--info-script", "--new-volume-script", "-F":
				a.shellString(e, []field{o.val})
			case "--checkpoint-action":
				if v, ok := strings.CutPrefix(o.val.s, "exec="); ok && !o.val.dyn {
					a.shellString(e, []field{{s: v}})
				} else if o.val.dyn {
					a.unresolved("tar --checkpoint-action that is not static: " + o.val.s)
				}
			}
		}
		switch {
		case strings.ContainsAny(mode, "cruA"):
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
		case strings.Contains(mode, "x"):
			for _, f := range file {
				a.path(e, f, action.Read)
			}
			for _, d := range dir {
				a.pathRec(e, d, action.Write, true)
			}
			if strings.Contains(mode, "P") || hasOpt(opts, "--absolute-names") {
				a.unresolved("tar --absolute-names extracts to the paths the archive names")
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
		if hasOpt(opts, "-:") {
			a.unresolved("unzip -: extracts to the paths the archive names, .. included")
		}
		for _, f := range d {
			a.pathRec(e, f, action.Write, true)
		}
		return false, true
	case "7z", "7za", "7zr":
		// 7z COMMAND ARCHIVE [FILES]: x and e extract into -oDIR or the
		// working directory, a, u, d and rn rewrite the archive.
		_, ops := scan(args, "", nil, false)
		if len(ops) == 0 {
			return true, true
		}
		if ops[0].dyn {
			a.unresolved(name + " with a command that is not static")
			return false, false
		}
		cmd, ops := ops[0].s, ops[1:]
		switch cmd {
		case "x", "e":
			for _, f := range ops[:min(1, len(ops))] {
				a.path(e, f, action.Read)
			}
			out := field{s: "."}
			for _, f := range args { // -oDIR, one word
				if v, ok := strings.CutPrefix(f.s, "-o"); ok && v != "" {
					out = field{s: v, dyn: f.dyn}
				}
			}
			a.pathRec(e, out, action.Write, true)
			return false, true
		case "l", "t", "h", "i", "b":
			for _, f := range ops {
				a.path(e, f, action.Read)
			}
			return true, true
		}
		for j, f := range ops {
			if j == 0 {
				a.path(e, f, action.Write)
				continue
			}
			a.pathRec(e, f, action.Read, true)
		}
		return false, true
	case "zip":
		opts, ops := scan(args, "bniotx", nil, false)
		for _, f := range args {
			if f.dyn || f.s == "-TT" || strings.HasPrefix(f.s, "--unzip-c") { // --unzip-command, abbreviated or not
				// The archive is tested with a command of the caller's
				// (-TT CMD: -T and -TT are two options, not a cluster).
				a.flag(action.FlagRunsCode)
				break
			}
		}
		rec := hasOpt(opts, "-r", "-R", "--recurse-paths", "--recurse-patterns")
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
	if hasOpt(opts, "-d", "--decompress", "--uncompress") || strings.HasPrefix(name, "un") || name == "gunzip" || name == "bunzip2" {
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

// tarMode returns the operation letters an option of tar stands for:
// the letter of a short option, the letter of a long operation
// (--create is c), nothing for other long options (--directory holds a
// c and an r, and is no operation).
func tarMode(name string) string {
	if !strings.HasPrefix(name, "--") {
		return strings.TrimPrefix(name, "-")
	}
	switch name {
	case "--create":
		return "c"
	case "--append":
		return "r"
	case "--update":
		return "u"
	case "--concatenate", "--catenate":
		return "A"
	case "--extract", "--get":
		return "x"
	case "--list":
		return "t"
	case "--diff", "--compare":
		return "d"
	case "--delete":
		return "r" // rewrites the archive
	}
	return ""
}

// cpioCmd: cpio -o writes an archive to standard output or -F/-O FILE;
// cpio -i extracts into -D DIR or the working directory, and, without
// --no-absolute-filenames, to whatever absolute paths the archive names;
// cpio -p DIR copies the files named on standard input into DIR.
func (a *analyzer) cpioCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "DFOIHREMCsW", []string{"directory", "file", "format", "owner", "pattern-file", "message",
		"block-size", "io-size", "rsh-command", "to-stdout", "warning"}, false)
	if hasOpt(opts, "--rsh-command") {
		a.flag(action.FlagRunsCode)
	}
	for _, f := range optVals(opts, "-E", "--pattern-file", "-I") {
		a.path(e, f, action.Read)
	}
	switch {
	case hasOpt(opts, "-o", "--create"):
		for _, f := range optVals(opts, "-F", "--file", "-O") {
			a.path(e, f, action.Write)
		}
	case hasOpt(opts, "-p", "--pass-through"):
		for _, f := range ops[:min(1, len(ops))] {
			a.pathRec(e, f, action.Write, true)
		}
	case hasOpt(opts, "-i", "--extract"):
		for _, f := range optVals(opts, "-F", "--file") {
			a.path(e, f, action.Read)
		}
		if hasOpt(opts, "-t", "--list", "--to-stdout") {
			return true, true
		}
		dir := optVals(opts, "-D", "--directory")
		if len(dir) == 0 {
			dir = []field{{s: "."}}
		}
		for _, d := range dir {
			a.pathRec(e, d, action.Write, true)
		}
		if !hasOpt(opts, "--no-absolute-filenames") {
			a.unresolved("cpio -i extracts to the absolute paths the archive names (no --no-absolute-filenames)")
		}
	default:
		return true, true
	}
	return false, true
}
