// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the file tools family: programs that create, copy,
// move, delete and pack files.

import (
	"maps"
	"path"
	"slices"
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
		a.recordLinks(e, ops, dest, sym, hasOpt(opts, "-t", "--target-directory") || len(ops) > 1)
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
	intoDir := hasOpt(opts, "-t", "--target-directory") || len(ops) > 1
	switch {
	case name == "cp" && hasOpt(opts, "-s", "--symbolic-link"):
		// cp -s makes symbolic links, cp -rs a tree of them.
		a.recordLinks(e, ops, dest, true, intoDir)
	case name == "cp" && hasOpt(opts, "-l", "--link"):
		a.recordLinks(e, ops, dest, false, intoDir)
	case name == "mv":
		a.moveLinks(e, ops, dest, intoDir)
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
				a.path(e, d, action.Write)
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
			a.path(e, f, action.Write)
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
			a.path(e, out, action.Write)
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

func filePrograms() map[string]handler {
	m := map[string]handler{}
	claim(m, (*analyzer).rmCmd, "rm", "rmdir", "unlink", "shred", "srm")
	claim(m, (*analyzer).touchCmd, "touch", "mkdir", "mkfifo", "mknod")
	m["truncate"] = (*analyzer).truncateCmd
	m["fallocate"] = (*analyzer).fallocateCmd
	claim(m, (*analyzer).mkfsCmd, "mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat",
		"mkfs.fat", "mkfs.msdos", "mkfs.exfat", "mkfs.ntfs", "mkfs.f2fs", "mkfs.minix", "mkfs.bfs", "mkfs.cramfs",
		"mke2fs", "mkswap", "mkdosfs", "mkntfs", "wipefs", "blkdiscard")
	claim(m, (*analyzer).partitionCmd, "fdisk", "sfdisk", "gdisk", "sgdisk", "cfdisk", "parted")
	m["sponge"] = (*analyzer).teeCmd
	m["patch"] = (*analyzer).patchCmd
	m["crontab"] = (*analyzer).crontabCmd
	claim(m, (*analyzer).atCmd, "at", "batch")
	m["systemd-run"] = (*analyzer).systemdRun
	m["systemctl"] = (*analyzer).systemctl
	m["launchctl"] = (*analyzer).launchctl
	claim(m, (*analyzer).chmodCmd, "chmod", "chown", "chgrp", "setfacl", "chattr")
	m["tee"] = (*analyzer).teeCmd
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.copy(e, c.name, c.args) }, "cp", "mv", "install", "ln", "rsync", "scp")
	m["dd"] = (*analyzer).ddCmd
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.archive(e, c.name, c.args) },
		"tar", "unzip", "zip", "gzip", "gunzip", "bzip2", "xz", "zstd", "7z", "7za", "7zr", "bunzip2", "unzstd", "lzma",
		"unlzma", "lz4", "pigz", "unpigz", "compress", "uncompress", "lzip", "brotli")
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.archive(e, "tar", c.args) }, "bsdtar", "gtar")
	m["link"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.copy(e, "ln", c.args) }
	m["cpio"] = (*analyzer).cpioCmd
	claim(m, (*analyzer).splitCmd, "split", "csplit")
	m["shuf"] = (*analyzer).shufCmd
	return m
}

// rmCmd: the deleting programs.
func (a *analyzer) rmCmd(e *env, c call) (bool, bool) {
	a.class(action.FileDelete)
	// shred -n N and -s SIZE take a value; -u is a flag.
	_, ops := scan(c.args, "ns", []string{"iterations", "size", "random-source"}, false)
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

// ddCmd reads if= and writes of=; writing a device (of=/dev/sda)
// destroys what it held: fileDelete.
func (a *analyzer) ddCmd(e *env, c call) (bool, bool) {
	for _, f := range c.args {
		if v, ok := strings.CutPrefix(f.s, "if="); ok && !f.dyn {
			a.path(e, field{s: v}, action.Read)
		}
		if v, ok := strings.CutPrefix(f.s, "of="); ok && !f.dyn {
			a.path(e, field{s: v}, action.Write)
			if strings.HasPrefix(v, "/dev/") && !slices.Contains(notPaths, v) && !strings.HasPrefix(v, "/dev/fd/") {
				a.class(action.FileDelete)
				a.path(e, field{s: v}, action.Delete)
			}
		}
		if f.dyn {
			a.unresolved("dd with a dynamic operand")
		}
	}
	return false, true
}

// maxLinkHops bounds how many links made earlier in the command one path
// facet is followed through, and maxLinkFacets how many facets one path
// adds so (a link into itself, ln -s x/y x, would add them forever).
const (
	maxLinkHops   = 8
	maxLinkFacets = 32
)

// recordLinks remembers the links an ln makes, by absolute link path, so
// that a later path under a link is also reported under what it points
// to (ln -s /etc x && cp f x/passwd writes /etc/passwd). intoDir says
// the destination is a directory the links are made in; otherwise the
// destination is the link, or, if it is an existing directory, holds it:
// both are recorded. A relative symbolic target is relative to the
// link's directory; a hard link is the target file itself.
func (a *analyzer) recordLinks(e *env, targets, dest []field, sym, intoDir bool) {
	if len(dest) != 1 || dest[0].dyn || dest[0].glob {
		return
	}
	dirs, ok := a.abs(e, dest[0].s)
	if !ok {
		return
	}
	// ln -s TARGET makes the link in the working directory; a
	// destination written as a directory holds the links.
	intoDir = intoDir || dest[0].s == "." || dest[0].s == ".." || strings.HasSuffix(dest[0].s, "/")
	for _, t := range targets {
		if t.dyn || t.glob || t.s == "" {
			continue
		}
		base := strings.TrimSuffix(t.s, "/")
		base = base[strings.LastIndexByte(base, '/')+1:]
		for _, d := range dirs {
			var names []string
			if !intoDir {
				names = append(names, d)
			}
			if base != "" && base != "." && base != ".." {
				names = append(names, join(d, base))
			}
			for _, n := range names {
				n = path.Clean(n) // matched against cleaned paths
				var to []string
				switch {
				case strings.HasPrefix(t.s, "/"):
					to = []string{t.s}
				case sym:
					// Relative to the link's directory, as written and
					// lexically cleaned: the cleaned form only adds a facet.
					raw := join(path.Dir(n), t.s)
					to = []string{raw, path.Clean(raw)}
				default:
					ps, ok := a.abs(e, t.s)
					if !ok {
						continue
					}
					to = ps
				}
				if a.links == nil {
					a.links = map[string][]string{}
				}
				for _, q := range to {
					q = strings.TrimSuffix(q, "/")
					// A link to a path under itself is a loop the
					// kernel refuses (ELOOP): nothing to follow.
					if q != n && q != "" && !strings.HasPrefix(q, n+"/") && !slices.Contains(a.links[n], q) {
						a.links[n] = append(a.links[n], q)
						a.earlierThrough(n)
					}
				}
			}
		}
	}
}

// moveLinks carries the links made earlier that mv moves: the link is
// then at the destination (or inside it), pointing where it did.
func (a *analyzer) moveLinks(e *env, srcs, dest []field, intoDir bool) {
	if len(a.links) == 0 || len(dest) != 1 || dest[0].dyn {
		return
	}
	for _, f := range srcs {
		if f.dyn {
			continue
		}
		ps, ok := a.abs(e, f.s)
		if !ok {
			continue
		}
		for _, p := range ps {
			tos := a.links[path.Clean(p)]
			var fs []field
			for _, t := range tos {
				fs = append(fs, field{s: t})
			}
			if len(fs) > 0 {
				a.recordLinks(e, fs, dest, false, intoDir)
			}
		}
	}
}

// earlierThrough reports the paths already recorded under a new link
// once more through it: in a loop or a function called again, a path
// written before the link was made is written through it the next
// time (for i in 1 2; do cp f x/passwd; ln -sfn /etc x; done).
func (a *analyzer) earlierThrough(n string) {
	for _, p := range slices.Clone(a.paths) {
		if strings.HasPrefix(path.Clean(p.Path), n+"/") {
			a.throughLinks(p.Path, p.Access, p.Recursive)
		}
	}
}

// throughLinks reports p once more for every link made earlier in the
// command that p lies under, as the same path under the link's target.
func (a *analyzer) throughLinks(p string, acc action.Access, rec bool) {
	if len(a.links) == 0 || a.linkHops >= maxLinkHops {
		return
	}
	if a.linkHops == 0 {
		a.linkBudget = maxLinkFacets
	}
	a.linkHops++
	defer func() { a.linkHops-- }()
	// Matched cleaned, keeping a trailing slash: rm -r x/ deletes what
	// the link x points to, rm x only the link.
	cp := path.Clean(p)
	if strings.HasSuffix(p, "/") && cp != "/" {
		cp += "/"
	}
	for _, n := range slices.Sorted(maps.Keys(a.links)) {
		rest, ok := strings.CutPrefix(cp, n)
		if !ok || rest != "" && rest[0] != '/' || rest == "" && acc == action.Delete {
			// Deleting (or moving) the link itself leaves its target.
			continue
		}
		for _, t := range a.links[n] {
			if a.linkBudget <= 0 {
				return
			}
			a.linkBudget--
			a.addPath(t+rest, acc, rec)
		}
	}
}

// truncateCmd: truncate sets the size of every operand; what lay past
// the new size is gone, so it is fileDelete like rm, whatever the size.
func (a *analyzer) truncateCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "sr", []string{"size", "reference"}, false)
	a.class(action.FileDelete)
	for _, f := range optVals(opts, "-r", "--reference") {
		a.path(e, f, action.Read)
	}
	for _, f := range ops {
		a.path(e, f, action.Write)
		a.path(e, f, action.Delete)
	}
	return false, true
}

// fallocateCmd: fallocate allocates space in its operand; punching,
// collapsing, zeroing or inserting a range destroys data: fileDelete.
func (a *analyzer) fallocateCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "ol", []string{"offset", "length"}, false)
	del := hasOpt(opts, "-p", "--punch-hole", "-c", "--collapse-range", "-z", "--zero-range", "-i", "--insert-range")
	if del {
		a.class(action.FileDelete)
	}
	for _, f := range ops {
		a.path(e, f, action.Write)
		if del {
			a.path(e, f, action.Delete)
		}
	}
	return false, true
}

// mkfsCmd: mkfs*, mke2fs, mkswap, wipefs and blkdiscard destroy what the
// device or image they are given held: fileDelete. Their option grammars
// differ; every operand is reported, an option value read as one only
// adds a facet.
func (a *analyzer) mkfsCmd(e *env, c call) (bool, bool) {
	a.class(action.FileDelete)
	_, ops := scan(c.args, "", nil, false)
	for _, f := range ops {
		if !f.dyn && strings.Trim(f.s, "0123456789kKmMgGtTsb") == "" {
			continue // a size or block count
		}
		a.path(e, f, action.Write)
		a.path(e, f, action.Delete)
	}
	return false, true
}

// patchCmd: patch [-p N] [-d DIR] [-i PATCH] [-o OUT] [FILE [PATCH]]
// writes the files the patch names, under DIR or the working directory
// (GNU patch refuses names that leave it), or OUT, or FILE.
func (a *analyzer) patchCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "pdiorBzVDFgYY", []string{"strip", "directory", "input", "output", "reject-file", "prefix", "suffix",
		"basename-prefix", "version-control", "ifdef", "fuzz", "get", "quoting-style", "backup-if-mismatch"}, false)
	dry := hasOpt(opts, "--dry-run", "-C", "--check")
	for _, f := range optVals(opts, "-i", "--input") {
		a.path(e, f, action.Read)
	}
	if len(ops) > 1 {
		a.path(e, ops[1], action.Read)
	}
	acc := action.Write
	if dry {
		acc = action.Read
	}
	switch {
	case hasOpt(opts, "-o", "--output"):
		for _, f := range optVals(opts, "-o", "--output") {
			if f.s != "-" {
				a.path(e, f, acc)
			}
		}
	case len(ops) > 0:
		a.path(e, ops[0], acc)
	}
	dir := optVals(opts, "-d", "--directory")
	if len(dir) == 0 {
		dir = []field{{s: "."}}
	}
	if !hasOpt(opts, "-o", "--output") && len(ops) == 0 {
		for _, d := range dir {
			a.path(e, d, acc)
		}
	}
	if !dry {
		for _, f := range optVals(opts, "-r", "--reject-file") {
			a.path(e, f, action.Write)
		}
	}
	return dry, true
}

// homePath records a path under the home directory, unresolved if the
// home directory is not known.
func (a *analyzer) homePath(e *env, rel string, acc action.Access) {
	h := a.home()
	if h == "" {
		a.unresolved("the home directory is not known for ~/" + rel)
		return
	}
	a.path(e, field{s: join(h, rel)}, acc)
}

// crontabDir is where crontab installs the user's table; the caller's
// name is not known statically, the directory stands for it.
const crontabDir = "/var/spool/cron/crontabs"

// crontabCmd: crontab FILE, crontab - and crontab -e install the user's
// table, which cron runs later outside any containment; -l lists it, -r
// removes it.
func (a *analyzer) crontabCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "uTs", nil, false)
	switch {
	case hasOpt(opts, "-l", "-T"):
		if hasOpt(opts, "-T") {
			for _, f := range ops {
				a.path(e, f, action.Read)
			}
		}
		return true, true
	case hasOpt(opts, "-r"):
		a.class(action.FileDelete)
		a.path(e, field{s: crontabDir}, action.Delete)
		return false, true
	}
	if hasOpt(opts, "-u") {
		a.flag(action.FlagPrivilegeEscalation)
	}
	for _, f := range ops {
		a.path(e, f, action.Read)
	}
	if (len(ops) == 0 || ops[0].s == "-") && e.stdin.kind != stdinFile && e.stdin.bodyStatic {
		a.crontabJobs(e, e.stdin.body)
	}
	a.path(e, field{s: crontabDir}, action.Write)
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagBackground)
	return false, true
}

// crontabJobs analyses the commands of a literal crontab: every line
// that is not blank, a comment or an assignment holds five time fields
// (or one @keyword) and then a command for sh.
func (a *analyzer) crontabJobs(e *env, table string) {
	for _, line := range strings.Split(table, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		if k, _, ok := strings.Cut(fields[0], "="); ok && !strings.ContainsAny(k, " \t*/@") {
			continue // NAME=VALUE
		}
		n := 5
		if strings.HasPrefix(fields[0], "@") {
			n = 1
		}
		rest := line
		for i := 0; i < n && rest != ""; i++ {
			rest = strings.TrimLeft(rest, " \t")
			if j := strings.IndexAny(rest, " \t"); j >= 0 {
				rest = rest[j:]
			} else {
				rest = ""
			}
		}
		// cron turns % into newlines (standard input for the command):
		// what follows the first unescaped one is data, not code.
		if k := strings.IndexByte(rest, '%'); k >= 0 && (k == 0 || rest[k-1] != '\\') {
			rest = rest[:k]
		}
		if strings.TrimSpace(rest) != "" {
			a.code(e.fork(), rest, true)
		}
	}
}

// atJobs is where at and batch queue their jobs.
const atJobs = "/var/spool/cron/atjobs"

// atCmd: at and batch queue a job read from standard input or -f FILE,
// run later outside any containment; -l lists, -r and -d remove, -c
// prints.
func (a *analyzer) atCmd(e *env, c call) (bool, bool) {
	opts, _ := scan(c.args, "qft", nil, false)
	switch {
	case hasOpt(opts, "-l", "-c", "-V"):
		return true, true
	case hasOpt(opts, "-r", "-d"):
		a.class(action.FileDelete)
		a.path(e, field{s: atJobs}, action.Delete)
		return false, true
	}
	if f := optVals(opts, "-f"); len(f) > 0 {
		for _, f := range f {
			a.path(e, f, action.Read)
		}
	} else {
		// The job is a shell script read from standard input, as sh
		// reads one: a literal one is analysed.
		a.stdinCode(e, "shell", "at")
	}
	a.path(e, field{s: atJobs}, action.Write)
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagBackground)
	return false, true
}

// systemdRun: systemd-run [OPTIONS] CMD starts CMD as a transient unit,
// detached from the caller and outside its containment: the command is
// analysed, and the run is runs_code and background; a system unit needs
// privilege; -H reaches another host.
func (a *analyzer) systemdRun(e *env, c call) (bool, bool) {
	opts, cmd := scan(c.args, "upEMHsd", []string{"unit", "property", "description", "slice", "setenv", "uid", "gid", "nice",
		"machine", "host", "working-directory", "on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive",
		"on-calendar", "on-timezone-change", "on-clock-change", "timer-property", "path-property", "socket-property",
		"service-type", "expand-environment"}, true)
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagBackground)
	if !hasOpt(opts, "--user") || hasOpt(opts, "--uid", "--gid", "--system") {
		a.flag(action.FlagPrivilegeEscalation)
	}
	for _, h := range optVals(opts, "-H", "--host") {
		a.class(action.NetworkEgress)
		a.host(remoteHost(h.s + ":"))
	}
	if hasOpt(opts, "--user") {
		a.homePath(e, ".config/systemd/user", action.Write)
	}
	if len(cmd) > 0 {
		a.inner(e, cmd, nil, true)
	}
	return false, true
}

// systemctlRead are the systemctl verbs that change nothing.
var systemctlRead = map[string]bool{
	"status": true, "show": true, "cat": true, "list-units": true, "list-unit-files": true, "list-timers": true,
	"list-sockets": true, "list-dependencies": true, "list-jobs": true, "list-machines": true, "list-paths": true,
	"list-automounts": true, "is-active": true, "is-enabled": true, "is-failed": true, "is-system-running": true,
	"help": true, "get-default": true, "show-environment": true, "--version": true,
}

// systemctl: a verb that is not a read starts, stops or installs units,
// whose code runs outside the caller's containment; enable, link, edit,
// preset, mask and friends write the unit directory (~/.config/systemd/user
// with --user, /etc/systemd/system otherwise).
func (a *analyzer) systemctl(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "tpsHMnoP", []string{"type", "property", "signal", "host", "machine", "lines", "output", "root",
		"kill-whom", "job-mode", "state", "what", "timestamp", "message", "boot-loader-entry", "boot-loader-menu", "reboot-argument"}, false)
	for _, h := range optVals(opts, "-H", "--host") {
		a.class(action.NetworkEgress)
		a.host(remoteHost(h.s + ":"))
	}
	verb := ""
	if len(ops) > 0 {
		if ops[0].dyn {
			a.unresolved("systemctl with a verb that is not static")
			return false, false
		}
		verb = ops[0].s
	}
	if verb == "" || systemctlRead[verb] {
		return len(optVals(opts, "-H", "--host")) == 0, true
	}
	a.flag(action.FlagRunsCode)
	user := hasOpt(opts, "--user")
	if !user {
		a.flag(action.FlagPrivilegeEscalation)
	}
	switch verb {
	case "enable", "reenable", "link", "edit", "preset", "preset-all", "mask", "unmask", "add-wants", "add-requires",
		"set-property", "revert", "disable", "set-default", "set-environment", "import-environment":
		if user {
			a.homePath(e, ".config/systemd/user", action.Write)
		} else {
			a.path(e, field{s: "/etc/systemd/system"}, action.Write)
		}
	}
	if verb == "link" || verb == "enable" {
		for _, f := range ops[1:] {
			if !f.dyn && strings.Contains(f.s, "/") {
				a.path(e, f, action.Read)
			}
		}
	}
	return false, true
}

// launchctl: loading, bootstrapping, enabling or submitting a job makes
// launchd run it later, outside the caller's containment.
func (a *analyzer) launchctl(e *env, c call) (bool, bool) {
	_, ops := scan(c.args, "", nil, true)
	if len(ops) == 0 {
		return false, true
	}
	if ops[0].dyn {
		a.unresolved("launchctl with a subcommand that is not static")
		return false, false
	}
	switch ops[0].s {
	case "list", "print", "print-cache", "print-disabled", "blame", "help", "version", "error", "dumpstate", "getenv", "managerpid", "manageruid", "managername":
		return true, true
	case "submit":
		rest := ops[1:]
		for i, f := range rest {
			if f.s == "--" {
				a.inner(e, rest[i+1:], nil, true)
				break
			}
		}
	}
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagBackground)
	for _, f := range ops[1:] {
		if !f.dyn && (strings.HasSuffix(f.s, ".plist") || strings.Contains(f.s, "/")) {
			a.path(e, f, action.Read)
		}
	}
	return false, true
}

// partitionList are the arguments with which a partition editor only
// reports.
var partitionList = map[string][]string{
	"fdisk":  {"-l", "--list"},
	"sfdisk": {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify"},
	"gdisk":  {"-l"},
	"sgdisk": {"-p", "--print", "-v", "--verify", "-i", "--info"},
	"parted": {"-l", "--list", "-s", "--script", "-m", "--machine", "print", "unit", "s", "b", "kb", "mb", "gb", "mib", "gib", "%", "chs", "cyl", "compact"},
}

// partitionCmd: partition editors rewrite the partition table of the
// device they are given, which loses what it held: fileDelete, unless
// every argument is a device or a listing option (fdisk -l, sfdisk -d,
// sgdisk -p, parted -l or DEVICE print).
func (a *analyzer) partitionCmd(e *env, c call) (bool, bool) {
	list, listing := true, false
	for _, f := range c.args {
		switch {
		case f.dyn:
			list = false
		case slices.Contains(partitionList[c.name], strings.ToLower(f.s)):
			// parted's mode options and units are no listing by themselves.
			listing = listing || c.name != "parted" || f.s == "-l" || f.s == "--list" || f.s == "print"
		case !strings.HasPrefix(f.s, "/"):
			list = false
		}
	}
	if list && listing {
		return true, true
	}
	a.class(action.FileDelete)
	_, ops := scan(c.args, "", nil, false)
	for _, f := range ops {
		if !f.dyn && strings.HasPrefix(f.s, "/") {
			a.path(e, f, action.Write)
			a.path(e, f, action.Delete)
		}
	}
	return false, true
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
			a.path(e, f, action.Write)
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
			a.path(e, d, action.Write)
		}
		if !hasOpt(opts, "--no-absolute-filenames") {
			a.unresolved("cpio -i extracts to the absolute paths the archive names (no --no-absolute-filenames)")
		}
	default:
		return true, true
	}
	return false, true
}

// splitCmd: split FILE PREFIX and csplit -f PREFIX FILE PATTERN… write
// PREFIXaa… (xx00… in the working directory by default); split --filter
// runs a shell command for every piece.
func (a *analyzer) splitCmd(e *env, c call) (bool, bool) {
	if c.name == "csplit" {
		opts, ops := scan(c.args, "bfn", []string{"suffix-format", "prefix", "digits"}, false)
		for _, f := range ops[:min(1, len(ops))] {
			a.path(e, f, action.Read)
		}
		prefix := optVals(opts, "-f", "--prefix")
		if len(prefix) == 0 {
			prefix = []field{{s: "xx"}}
		}
		for _, f := range prefix {
			a.path(e, f, action.Write)
		}
		return false, true
	}
	opts, ops := scan(c.args, "abClnt", []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator",
		"additional-suffix", "filter"}, false)
	for _, f := range optVals(opts, "--filter") {
		a.flag(action.FlagRunsCode)
		a.shellString(e, []field{f})
	}
	if len(ops) > 0 {
		a.path(e, ops[0], action.Read)
	}
	prefix := field{s: "x"}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	if !hasOpt(opts, "--filter") {
		a.path(e, prefix, action.Write)
	}
	return false, true
}

// shufCmd: shuf writes -o FILE; its operand and --random-source are read.
func (a *analyzer) shufCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "inoe", []string{"input-range", "head-count", "output", "random-source"}, false)
	for _, f := range optVals(opts, "--random-source") {
		a.path(e, f, action.Read)
	}
	if !hasOpt(opts, "-e", "--echo") {
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
	}
	out := optVals(opts, "-o", "--output")
	for _, f := range out {
		a.path(e, f, action.Write)
	}
	return len(out) == 0, true
}
