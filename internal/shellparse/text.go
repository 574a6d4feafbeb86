// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the text tools family: programs that read files and
// print, and the few that can also write (sort -o, uniq OUT, sed -i) or
// run code (sed e, awk system(), rg --pre).

import (
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// readOnly lists programs that only read, with the short options of each
// that take a value (so that the value is not taken for a path). A nil
// entry in pathless means the operands are not paths.
var readOnly = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ls": "ITw", "cat": "", "head": "nc", "tail": "ncs", "more": "", "wc": "",
		"stat": "cf", "file": "fmP", "nl": "bdfhilnsvw", "od": "AjNSstw", "hexdump": "efns", "xxd": "cglnos",
		"strings": "not", "md5sum": "", "sha1sum": "", "sha224sum": "", "sha256sum": "", "sha384sum": "",
		"sha512sum": "", "b2sum": "l", "cksum": "a", "diff": "CFILUWxSX", "cmp": "inI", "comm": "",
		"tree": "LIPoH", "du": "Bdt", "tac": "s", "column": "cstoNRHWl", "fold": "w", "fmt": "wgp",
		"paste": "d", "join": "aejot12", "expand": "t", "unexpand": "t", "realpath": "", "readlink": "",
		"cut": "bcdf", "look": "t", "lsattr": "", "getfacl": "", "zless": "", "bat": "lmHr", "jq": "",
	}
})

// grep-like commands: a pattern, then files; -r with no file reads ".".
func (a *analyzer) grep(e *env, name string, args []field) bool {
	vals := "efmABCDd"
	long := []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude", "exclude-dir", "label", "color", "colour", "devices", "directories", "binary-files"}
	if name == "rg" || name == "ag" || name == "ack" {
		vals = "efmABCgtTjM"
		long = append(long, "glob", "type", "type-not", "threads", "max-columns", "replace", "pre")
	}
	opts, ops := scan(args, vals, long, false)
	for _, f := range optVals(opts, "-f", "--file") {
		a.path(e, f, action.Read)
	}
	if !hasOpt(opts, "-e", "--regexp", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	rec := hasOpt(opts, "-r", "-R", "--recursive", "--dereference-recursive") || name == "rg" || name == "ag" || name == "ack"
	for _, d := range optVals(opts, "-d", "--directories") {
		rec = rec || d.dyn || d.s == "recurse"
	}
	if len(ops) == 0 && rec {
		ops = []field{{s: "."}}
	}
	for _, f := range ops {
		a.pathRec(e, f, action.Read, rec)
	}
	ro := true
	for _, p := range optVals(opts, "--pre") {
		ro = false
		a.preprocessor(e, p, ops)
	}
	return ro
}

// preprocessor analyses rg --pre COMMAND: rg runs COMMAND with each file
// searched as its argument.
func (a *analyzer) preprocessor(e *env, p field, roots []field) {
	if p.dyn {
		a.unresolved("cannot be analysed statically: rg --pre " + p.s)
		return
	}
	if p.s == "" {
		return
	}
	file := field{s: "{file}", dyn: true}
	if len(roots) == 1 && !roots[0].dyn {
		if ps, ok := a.abs(e, roots[0].s); ok && len(ps) == 1 {
			file.under = ps[0]
		}
	}
	if strings.ContainsAny(p.s, " \t'\"") {
		// Not a program name: read, to be safe, as a shell command.
		a.flag(action.FlagRunsCode)
		a.shellString(e, []field{p})
		return
	}
	a.inner(e, []field{p, file}, nil, true)
}

// less reads files; +CMD runs a less command at start, where !CMD runs a
// shell command; -o writes a log; a lesskey file and LESSOPEN (envVar)
// run code.
func (a *analyzer) lessCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "bhjkoOpPtTxyz#", []string{"log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "tag",
		"pattern", "prompt", "shift", "tabs", "max-back-scroll", "max-forw-scroll", "window", "jump-target", "tag-file"}, false)
	ro := true
	for _, f := range optVals(opts, "-o", "-O", "--log-file", "--LOG-FILE") {
		a.path(e, f, action.Write)
		ro = false
	}
	for _, f := range optVals(opts, "-k", "--lesskey-file", "--lesskey-src") {
		a.path(e, f, action.Read)
		a.flag(action.FlagRunsCode)
	}
	cmds := []field{}
	if v, ok := a.inv[c.i].Env["LESS"]; ok {
		cmds = append(cmds, field{s: v})
	}
	for _, f := range ops {
		if !f.dyn && strings.HasPrefix(f.s, "+") {
			cmds = append(cmds, field{s: f.s[1:]})
			continue
		}
		a.path(e, f, action.Read)
	}
	for _, f := range cmds {
		if i := strings.IndexAny(f.s, "!|"); i >= 0 {
			ro = false
			a.flag(action.FlagRunsCode)
			if f.s[i] == '!' {
				a.shellString(e, []field{{s: f.s[i+1:]}})
			} else {
				a.unresolved("cannot be analysed statically: less pipes to a command: " + f.s)
			}
		}
	}
	return ro, true
}

// sed: a script then files; -i edits them in place; r and R read files,
// w and W write them, e runs a command.
func (a *analyzer) sed(e *env, args []field) bool {
	opts, ops := scan(args, "efl", []string{"expression", "file", "line-length"}, false)
	scripts := optVals(opts, "-e", "--expression")
	for _, f := range optVals(opts, "-f", "--file") {
		a.path(e, f, action.Read)
		a.flag(action.FlagRunsCode)
	}
	if !hasOpt(opts, "-e", "--expression", "-f", "--file") && len(ops) > 0 {
		scripts, ops = append(scripts, ops[0]), ops[1:]
	}
	ro := true
	for _, s := range scripts {
		if s.dyn {
			a.unresolved("sed with a script that is not static")
			continue
		}
		sc, ok := parseSed(s.s)
		if !ok {
			if strings.ContainsAny(s.s, "wWrRe") {
				a.unresolved("sed script names files it writes/reads")
				ro = false
			}
			continue
		}
		for _, f := range sc.reads {
			a.path(e, field{s: f}, action.Read)
		}
		for _, f := range sc.writes {
			a.path(e, field{s: f}, action.Write)
			ro = false
		}
		for _, c := range sc.execs {
			a.flag(action.FlagRunsCode)
			a.code(e.fork(), c, true)
			ro = false
		}
		if sc.execDyn {
			a.flag(action.FlagRunsCode)
			a.unresolved("sed executes text of its input as a command")
			ro = false
		}
	}
	inPlace := false
	for _, o := range opts {
		if o.name == "-i" || o.name == "--in-place" || (o.name == "-s" && false) {
			inPlace = true
		}
	}
	for _, f := range args {
		if !f.dyn && strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "--") && strings.Contains(f.s, "i") && !strings.ContainsAny(f.s[1:2], "ef") {
			inPlace = true
		}
	}
	acc := action.Read
	if inPlace {
		acc, ro = action.Write, false
	}
	for _, f := range ops {
		a.path(e, f, acc)
	}
	return ro
}

// awk: a program then files; system(), pipes and redirections in the
// program run programs or write files.
func (a *analyzer) awk(e *env, args []field) bool {
	opts, ops := scan(args, "fvFeEil", []string{"file", "assign", "field-separator", "source", "exec", "include", "load"}, false)
	progs := optVals(opts, "-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load")
	for _, f := range progs {
		a.path(e, f, action.Read)
		a.flag(action.FlagRunsCode)
	}
	texts := optVals(opts, "-e", "--source")
	if len(progs) == 0 && len(texts) == 0 && len(ops) > 0 {
		texts, ops = ops[:1], ops[1:]
	}
	ro := len(progs) == 0
	for _, p := range texts {
		switch {
		case p.dyn:
			a.unresolved("awk with a program that is not static")
			ro = false
		case awkUnsafe(p.s):
			a.flag(action.FlagRunsCode)
			a.unresolved("the awk program writes files, reads files or runs commands (awk code is a program)")
			ro = false
		}
	}
	for _, f := range ops {
		if !f.dyn && strings.Contains(f.s, "=") && !strings.HasPrefix(f.s, "/") {
			continue // var=value
		}
		a.path(e, f, action.Read)
	}
	return ro
}

func textPrograms() map[string]handler {
	m := map[string]handler{}
	for n := range readOnly() {
		m[n] = (*analyzer).readOnlyCmd
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.grep(e, c.name, c.args), true },
		"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep")
	m["less"] = (*analyzer).lessCmd
	m["sed"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.sed(e, c.args), true }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.awk(e, c.args), true }, "awk", "gawk", "mawk", "nawk")
	m["sort"] = (*analyzer).sortCmd
	m["uniq"] = (*analyzer).uniqCmd
	claim(m, (*analyzer).base64Cmd, "base64", "base32", "basenc")
	claim(m, (*analyzer).decoderCmd, "zcat", "bzcat", "xzcat", "unxz", "uudecode", "rev", "zstdcat")
	return m
}

// readOnlyCmd handles the programs of readOnly.
func (a *analyzer) readOnlyCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, readOnly()[c.name], nil, false)
	if c.name == "jq" && !hasOpt(opts, "-f", "--from-file") && len(ops) > 0 {
		ops = ops[1:] // the filter
	}
	if c.name == "xxd" && hasOpt(opts, "-r") {
		a.meta[c.i].decode = true
	}
	if c.name == "xxd" && len(ops) >= 2 {
		// xxd [IN [OUT]] writes OUT.
		a.path(e, ops[0], action.Read)
		a.path(e, ops[1], action.Write)
		return false, true
	}
	for _, f := range ops {
		a.path(e, f, action.Read)
	}
	return true, true
}

// sortCmd: sort reads files and writes -o.
func (a *analyzer) sortCmd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "ktSTo", []string{"key", "field-separator", "buffer-size", "temporary-directory", "output"}, false)
	for _, f := range ops {
		a.path(e, f, action.Read)
	}
	out := optVals(opts, "-o", "--output")
	for _, f := range out {
		a.path(e, f, action.Write)
	}
	return len(out) == 0, true
}

// uniqCmd: uniq [IN [OUT]].
func (a *analyzer) uniqCmd(e *env, c call) (bool, bool) {
	_, ops := scan(c.args, "fsw", nil, false)
	for j, f := range ops {
		acc := action.Read
		if j == 1 {
			acc = action.Write
		}
		a.path(e, f, acc)
	}
	return len(ops) < 2, true
}

// base64Cmd: base64 and its kin read files; -d decodes.
func (a *analyzer) base64Cmd(e *env, c call) (bool, bool) {
	_, ops := scan(c.args, "w", []string{"wrap"}, false)
	for _, f := range ops {
		a.path(e, f, action.Read)
	}
	if hasAny(c.args, "-d", "-D", "--decode") {
		a.meta[c.i].decode = true
	}
	return true, true
}

// decoderCmd: programs whose output is a transform of their input.
func (a *analyzer) decoderCmd(e *env, c call) (bool, bool) {
	a.meta[c.i].decode = true
	for _, f := range c.args {
		if !strings.HasPrefix(f.s, "-") {
			a.path(e, f, action.Read)
		}
	}
	return true, true
}
