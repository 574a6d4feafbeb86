// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the file tools family: programs that create, copy, move,
// delete and pack files. Here are the copiers (with the links ln makes,
// which later paths are followed through), the programs that write,
// resize or delete what they name, and the disk tools; the archivers and
// compressors are in archive.go, the programs that make a job run later
// in schedule.go.

import (
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

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
			// A directory copied writes the names it holds below
			// the destination.
			a.pathRec(e, f, action.Write, rec)
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

// partitionList are the arguments with which a partition editor only
// reports.
var partitionList = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"fdisk":  {"-l", "--list"},
		"sfdisk": {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify"},
		"gdisk":  {"-l"},
		"sgdisk": {"-p", "--print", "-v", "--verify", "-i", "--info"},
		"parted": {"-l", "--list", "-s", "--script", "-m", "--machine", "print", "unit", "s", "b", "kb", "mb", "gb", "mib", "gib", "%", "chs", "cyl", "compact"},
	}
})

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
		case slices.Contains(partitionList()[c.name], strings.ToLower(f.s)):
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
