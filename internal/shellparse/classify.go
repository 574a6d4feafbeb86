// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file maps a normalised argv to classes, facets and flags
// (DESIGN.md §6). The rules:
//
//   - Every invocation is processSpawn.
//   - rm, rmdir, unlink, shred, find -delete, git clean, git rm are
//     fileDelete; git push gitPush; git commit gitCommit; gh pr create
//     prCreate; gh pr merge|review|ready|comment prPublish; fetchers, remote
//     shells and git fetch|clone|pull|ls-remote networkEgress; package
//     managers' install verbs and npx-style runners packageInstall; env,
//     printenv and reads of obvious secrets secretAccess.
//   - Interpreters and build tools run code whose effect is not
//     classified: runs_code. An interpreter reading its program from a
//     pipe, heredoc, here-string or process substitution is
//     pipe_to_interpreter; when that program came from a fetch it is
//     download_exec, from a decoder decode_exec.
//   - Only the commands listed as read-only, used without a writing
//     option, keep the analysis read-only; an unknown program is an
//     ordinary invocation that is not read-only.

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"warden.dev/warden/internal/action"
)

// readOnly lists programs that only read, with the short options of each
// that take a value (so that the value is not taken for a path). A nil
// entry in pathless means the operands are not paths.
var readOnly = map[string]string{
	"ls": "ITw", "cat": "", "head": "nc", "tail": "ncs", "less": "", "more": "", "wc": "",
	"stat": "cf", "file": "fmP", "nl": "bdfhilnsvw", "od": "AjNSstw", "hexdump": "efns", "xxd": "cglnos",
	"strings": "not", "md5sum": "", "sha1sum": "", "sha224sum": "", "sha256sum": "", "sha384sum": "",
	"sha512sum": "", "b2sum": "l", "cksum": "a", "diff": "CFILUWxSX", "cmp": "inI", "comm": "",
	"tree": "LIPoH", "du": "Bdt", "tac": "s", "column": "cstoNRHWl", "fold": "w", "fmt": "wgp",
	"paste": "d", "join": "aejot12", "expand": "t", "unexpand": "t", "realpath": "", "readlink": "",
	"cut": "bcdf", "look": "t", "lsattr": "", "getfacl": "", "zless": "", "bat": "lmHr", "jq": "",
}

// pathless read-only programs: operands are not paths.
var pathless = map[string]bool{
	"echo": true, "printf": true, "pwd": true, "true": true, "false": true, ":": true, "test": true, "[": true,
	"which": true, "type": true, "whoami": true, "id": true, "date": true, "uname": true, "basename": true,
	"dirname": true, "tr": true, "seq": true, "sleep": true, "yes": true, "whereis": true, "locate": true,
	"expr": true, "dirs": true, "jobs": true, "wait": true, "shift": true, "return": true, "exit": true,
	"break": true, "continue": true, "read": true, "getopts": true, "hash": true, "umask": true,
	"ulimit": true, "shopt": true, "unset": true, "local": true, "set": true, "alias": true, "unalias": true,
	"let": true, "groups": true, "tty": true, "nproc": true, "arch": true, "uptime": true, "cal": true,
	"printf_": true, "lsb_release": true, "hostname": true, "history": true, "help": true, "man": true,
	"logname": true, "users": true, "who": true, "w": true, "free": true, "ps": true, "top": true,
	"disown": true, "fg": true, "bg": true, "kill": false,
}

// interpreters maps program names to their family.
func interpFamily(name string) string {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "busybox":
		return "shell"
	case "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua", "luajit", "rscript", "tclsh",
		"wish", "osascript", "pwsh", "powershell", "fish", "csh", "tcsh", "irb", "jshell", "groovy", "scala", "elixir", "erl":
		return name
	}
	if strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") {
		return "python"
	}
	if strings.HasPrefix(name, "perl5") || strings.HasPrefix(name, "php") || strings.HasPrefix(name, "ruby") || strings.HasPrefix(name, "lua5") {
		return "perl"
	}
	return ""
}

// buildTools run code from the project: runs_code.
var buildTools = map[string]bool{
	"make": true, "gmake": true, "cmake": true, "ninja": true, "bazel": true, "bazelisk": true, "gradle": true,
	"gradlew": true, "mvn": true, "mvnw": true, "ant": true, "rake": true, "just": true, "task": true,
	"meson": true, "scons": true, "tox": true, "nox": true, "pytest": true, "py.test": true, "jest": true,
	"vitest": true, "mocha": true, "phpunit": true, "rspec": true, "bundle": true, "configure": true,
	"sbt": true, "mix": true, "dotnet": true, "swift": true, "xcodebuild": true, "tsc": true, "webpack": true,
	"vite": true, "turbo": true, "nx": true, "lerna": true, "pre-commit": true, "direnv": true, "watch": true,
	"entr": true, "parallel": true, "strace": true, "ltrace": true, "gdb": true, "lldb": true, "valgrind": true,
	"docker": true, "podman": true, "kubectl": true, "vim": true, "vi": true, "nvim": true, "emacs": true,
	"nano": true, "code": true, "tmux": true, "screen": true, "script": true, "expect": true, "rustc": true,
	"gcc": true, "cc": true, "clang": true, "g++": true, "javac": true, "java": true, "ld": true,
}

// fetchers write what they download to standard output (or a file).
var fetchers = map[string]bool{
	"curl": true, "wget": true, "fetch": true, "aria2c": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "http": true, "https": true, "xh": true, "httpie": true, "lwp-request": true, "get": true,
	"telnet": true, "ftp": true, "tftp": true, "ssh": true, "sftp": true, "scp": true, "rsync": true,
	"openssl": false, "lynx": true, "links": true, "w3m": true, "gh": true,
}

// netOnly programs contact the network without being fetchers for
// download-and-execute purposes.
var netOnly = map[string]bool{
	"ping": true, "ping6": true, "dig": true, "nslookup": true, "host": true, "traceroute": true,
	"mosh": true, "mtr": true, "whois": true, "nmap": true,
}

// command classifies one normalised invocation.
func (a *analyzer) command(e *env, i int, name string, argv []field) (ro, known bool) {
	args := argv[1:]
	if ro, known, ok := a.peel(e, name, args); ok {
		return ro, known
	}
	a.nameCmd(e, name, args)
	if fam := interpFamily(name); fam != "" {
		return a.interp(e, fam, name, args)
	}
	if readOnly[name] != "" || hasKey(readOnly, name) {
		opts, ops := scan(args, readOnly[name], nil, false)
		if name == "jq" && !hasOpt(opts, "-f", "--from-file") && len(ops) > 0 {
			ops = ops[1:] // the filter
		}
		if name == "xxd" && hasOpt(opts, "-r") {
			a.meta[i].decode = true
		}
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
		return true, true
	}
	if pathless[name] {
		if name == "set" && len(args) == 0 {
			a.class(action.SecretAccess) // prints every variable
			return false, true
		}
		if name == "set" {
			// set -- a b sets the positional parameters.
			for j, f := range args {
				if f.dyn {
					break
				}
				if f.s == "--" {
					e.params, e.paramsKnown = statics(args[j+1:])
					break
				}
			}
		}
		if name == "printf" || name == "read" || name == "test" || name == "[" || name == "unset" || name == "local" || name == "let" || name == "getopts" {
			for _, f := range args {
				if !f.dyn {
					a.textCode(e, f.s, fmt.Sprintf("%s may evaluate %q as code", name, f.s))
				}
			}
		}
		return true, true
	}
	switch name {
	case "env":
		return a.envCmd(e, args)
	case "printenv":
		a.class(action.SecretAccess)
		return false, true
	case "sudo", "sudoedit":
		return a.sudo(e, name, args)
	case "su":
		return a.su(e, args)
	case "eval":
		a.eval(e, args)
		return true, true
	case "source", ".":
		return a.source(e, args)
	case "trap":
		a.trap(e, args)
		return true, true
	case "flock":
		return a.flock(e, args)
	case "xargs":
		return a.xargs(e, args)
	case "find":
		return a.find(e, args)
	case "cd", "pushd", "popd":
		a.cd(e, name, args)
		return true, true
	case "git":
		return a.git(e, i, args)
	case "gh":
		return a.gh(e, args)
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		return a.grep(e, name, args), true
	case "sed":
		return a.sed(e, args), true
	case "awk", "gawk", "mawk", "nawk":
		return a.awk(e, args), true
	case "sort":
		opts, ops := scan(args, "ktSTo", []string{"key", "field-separator", "buffer-size", "temporary-directory", "output"}, false)
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
		out := optVals(opts, "-o", "--output")
		for _, f := range out {
			a.path(e, f, action.Write)
		}
		return len(out) == 0, true
	case "uniq":
		_, ops := scan(args, "fsw", nil, false)
		for j, f := range ops {
			acc := action.Read
			if j == 1 {
				acc = action.Write
			}
			a.path(e, f, acc)
		}
		return len(ops) < 2, true
	case "rm", "rmdir", "unlink", "shred", "srm":
		a.class(action.FileDelete)
		_, ops := scan(args, "nsu", nil, false)
		for _, f := range ops {
			a.path(e, f, action.Delete)
		}
		return false, true
	case "touch", "mkdir", "truncate", "mkfifo", "mknod":
		_, ops := scan(args, "dmrstZ", []string{"date", "reference", "size", "mode", "time"}, false)
		for _, f := range ops {
			a.path(e, f, action.Write)
		}
		return false, true
	case "chmod", "chown", "chgrp", "setfacl", "chattr":
		opts, ops := scan(args, "", []string{"reference"}, false)
		if !hasOpt(opts, "--reference") && len(ops) > 0 {
			ops = ops[1:]
		}
		for _, f := range ops {
			a.path(e, f, action.Write)
		}
		return false, true
	case "tee":
		_, ops := scan(args, "", []string{"output-error"}, false)
		for _, f := range ops {
			a.path(e, f, action.Write)
		}
		return false, true
	case "cp", "mv", "install", "ln", "rsync", "scp":
		return a.copy(e, name, args)
	case "dd":
		for _, f := range args {
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
	case "tar", "unzip", "zip", "gzip", "gunzip", "bzip2", "xz", "zstd", "7z":
		return a.archive(e, name, args)
	case "base64", "base32", "basenc":
		_, ops := scan(args, "w", []string{"wrap"}, false)
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
		if hasAny(args, "-d", "-D", "--decode") {
			a.meta[i].decode = true
		}
		return true, true
	case "zcat", "bzcat", "xzcat", "unxz", "uudecode", "rev", "zstdcat":
		a.meta[i].decode = true
		for _, f := range args {
			if !strings.HasPrefix(f.s, "-") {
				a.path(e, f, action.Read)
			}
		}
		return true, true
	case "openssl":
		if hasAny(args, "-d", "-base64", "-a", "base64") {
			a.meta[i].decode = true
		}
		return false, true
	case "curl", "wget", "aria2c", "http", "https", "xh", "httpie", "fetch", "lynx", "links", "w3m", "lwp-request", "get":
		a.meta[i].fetch = true
		a.class(action.NetworkEgress)
		a.fetch(e, name, args)
		return false, true
	case "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp":
		a.meta[i].fetch = true
		a.class(action.NetworkEgress)
		a.netcat(e, name, args)
		return false, true
	case "ssh", "sftp", "mosh":
		a.meta[i].fetch = true
		a.class(action.NetworkEgress)
		a.ssh(e, name, args)
		return false, true
	case "go":
		return a.golang(e, args)
	case "gofmt":
		if hasAny(args, "-w") {
			return false, true
		}
		return true, true
	case "npm", "yarn", "pnpm", "bun", "pip", "pip3", "pipx", "uv", "poetry", "cargo", "apt", "apt-get", "aptitude",
		"brew", "gem", "composer", "conda", "mamba", "dnf", "yum", "apk", "pacman", "snap", "zypper", "port", "nix-env":
		return a.pkg(e, name, args)
	case "npx", "pnpx", "bunx", "uvx":
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		return false, true
	case "kill", "pkill", "killall":
		return false, true
	}
	if netOnly[name] {
		a.class(action.NetworkEgress)
		for _, f := range args {
			if !strings.HasPrefix(f.s, "-") && !f.dyn {
				a.host(hostOf(f.s, true))
				break
			}
		}
		return false, true
	}
	if buildTools[name] {
		a.flag(action.FlagRunsCode)
		return false, true
	}
	// An unknown program: an ordinary invocation, not read-only.
	return false, false
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// hasAny reports whether one of the static args is exactly one of want.
func hasAny(args []field, want ...string) bool {
	for _, f := range args {
		if f.dyn {
			continue
		}
		for _, w := range want {
			if f.s == w {
				return true
			}
		}
	}
	return false
}

// interp handles interpreters: shells re-parse -c strings; the others run
// code, from a string, a script, or standard input.
func (a *analyzer) interp(e *env, fam, name string, args []field) (bool, bool) {
	if fam == "shell" {
		if name == "busybox" {
			if len(args) > 0 && !args[0].dyn && interpFamily(args[0].s) == "shell" {
				return a.interp(e, fam, args[0].s, args[1:])
			}
			if len(args) > 0 {
				return a.inner(e, args, nil, false), true
			}
			return true, true
		}
		return a.shell(e, args)
	}
	// -c/-e style code options, per family; options taking a value.
	codeOpts, vals := "c", "WXmQ"
	switch fam {
	case "perl":
		codeOpts, vals = "eE", "IMmdDx"
	case "ruby", "irb":
		codeOpts, vals = "e", "IrCEFK"
	case "node", "nodejs", "bun":
		codeOpts, vals = "ep", "r"
	case "deno":
		codeOpts, vals = "", ""
	case "php":
		codeOpts, vals = "rBRFE", "cdz"
	case "lua", "luajit":
		codeOpts, vals = "e", "l"
	case "rscript":
		codeOpts, vals = "e", ""
	case "osascript":
		codeOpts, vals = "e", "l"
	case "pwsh", "powershell":
		codeOpts, vals = "cC", "f"
	}
	i := 0
	var code []field
	script := -1
	module := false
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || !strings.HasPrefix(s, "-") || s == "-" {
			script = i
			break
		}
		if s == "--" {
			if i+1 < len(args) {
				script = i + 1
			}
			break
		}
		if strings.HasPrefix(s, "--") {
			n, _, has := strings.Cut(s[2:], "=")
			switch n {
			case "eval", "print", "command", "execute":
				if !has && i+1 < len(args) {
					i++
					code = append(code, args[i])
				} else {
					code = append(code, field{s: s})
				}
			case "version", "help":
				return true, true
			case "require", "import", "loader", "experimental-loader", "input-type":
				a.flag(action.FlagRunsCode)
				if !has {
					i++
				}
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j]
			if strings.IndexByte(codeOpts, c) >= 0 {
				if j+1 < len(s) {
					code = append(code, field{s: s[j+1:]})
				} else if i+1 < len(args) {
					i++
					code = append(code, args[i])
				}
				j = len(s)
				continue
			}
			if strings.IndexByte(vals, c) >= 0 {
				if c == 'm' && fam == "python" {
					module = true
				}
				if j+1 == len(s) {
					i++
					if module && i < len(args) {
						return a.pyModule(e, args[i], args[i+1:])
					}
				} else if module {
					return a.pyModule(e, field{s: s[j+1:]}, args[i+1:])
				}
				j = len(s)
				continue
			}
			if c == 'V' && len(args) == 1 {
				return true, true
			}
		}
		if len(code) > 0 {
			break
		}
	}
	if fam == "deno" {
		// deno run|eval|task…: all run code.
		a.flag(action.FlagRunsCode)
		return false, true
	}
	a.flag(action.FlagRunsCode)
	if len(code) > 0 {
		for _, c := range code {
			if c.dyn {
				a.flagSub(c.sub)
				if !c.sub.fetch && !c.sub.decode {
					a.unresolved(name + " runs code that is not static: " + c.s)
				}
			}
			if fam == "python" && !c.dyn && (strings.Contains(c.s, "urllib") || strings.Contains(c.s, "requests") || strings.Contains(c.s, "http.client")) {
				a.class(action.NetworkEgress)
			}
		}
		return false, true
	}
	if script >= 0 && args[script].s != "-" {
		a.scriptArg(e, args[script])
		return false, true
	}
	a.stdinCode(e, false)
	return false, true
}

// pyModule handles python -m.
func (a *analyzer) pyModule(e *env, mod field, rest []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	if mod.dyn {
		a.unresolved("python -m with a dynamic module")
		return false, false
	}
	switch mod.s {
	case "pip", "pip3":
		return a.pkg(e, "pip", rest)
	case "venv", "json.tool", "py_compile", "compileall":
		return false, true
	case "http.server":
		return false, true
	}
	return false, true
}

// scriptArg handles a script operand of an interpreter or source.
func (a *analyzer) scriptArg(e *env, f field) {
	switch {
	case f.procIn:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(f.sub)
	case f.dyn:
		a.flagSub(f.sub)
		a.unresolved("the script " + f.s + " is not static")
	case f.s == "/dev/stdin" || f.s == "/proc/self/fd/0" || f.s == "/dev/fd/0":
		a.stdinCode(e, false)
	default:
		a.flag(action.FlagRunsCode)
		a.path(e, f, action.Read)
		if ps, ok := a.abs(e, f.s); ok {
			for _, p := range ps {
				if a.fetched[path.Clean(p)] {
					a.flag(action.FlagDownloadExec)
				}
			}
		}
	}
}

// stdinCode handles an interpreter reading its program from standard
// input. shell says whether a static heredoc can be parsed as bash.
func (a *analyzer) stdinCode(e *env, shell bool) {
	switch e.stdin.kind {
	case stdinPipe:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if shell && e.stdin.bodyStatic {
			a.code(e.fork(), e.stdin.body, true)
		}
	case stdinDoc:
		a.flag(action.FlagPipeToInterpreter)
		a.flagSub(e.stdin.sub)
		if shell && e.stdin.bodyStatic {
			a.code(e.fork(), e.stdin.body, true)
		} else {
			a.flag(action.FlagRunsCode)
		}
	case stdinFile:
		a.flag(action.FlagRunsCode)
		if e.stdin.sub.fetch || e.stdin.sub.decode {
			a.flag(action.FlagPipeToInterpreter)
			a.flagSub(e.stdin.sub)
		}
	default:
		// The program comes from the caller's standard input, which the
		// analysis cannot see.
		if shell {
			a.openShell()
			return
		}
		a.flag(action.FlagRunsCode)
		a.flag(action.FlagPipeToInterpreter)
	}
}

// openShell reports a shell whose commands are read from the caller's
// standard input (sudo -s, su, bash alone): nothing about them is known.
func (a *analyzer) openShell() {
	a.flag(action.FlagRunsCode)
	a.flag(action.FlagPipeToInterpreter)
	a.unresolved("opens a shell whose commands are not known")
}

// shell handles sh, bash, zsh, dash… with -c STRING, a script, or stdin.
func (a *analyzer) shell(e *env, args []field) (bool, bool) {
	hasC, hasS := false, false
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn {
			break
		}
		if s == "--" || s == "-" {
			i++
			break
		}
		if len(s) < 2 || (s[0] != '-' && s[0] != '+') {
			break
		}
		if strings.HasPrefix(s, "--") {
			switch s {
			case "--rcfile", "--init-file":
				a.flag(action.FlagRunsCode)
				i++
			case "--login", "--norc", "--noprofile", "--posix", "--restricted", "--verbose", "--noediting",
				"--debugger", "--dump-strings", "--dump-po-strings", "--pretty-print", "--protected":
			case "--version", "--help":
				return true, true
			default:
				a.unresolved("shell: unknown option " + s)
				return false, false
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'c':
				hasC = true
			case 's':
				hasS = true
			case 'o', 'O':
				i++
				j = len(s)
			case 'i', 'l', 'e', 'x', 'u', 'v', 'n', 'f', 'h', 'a', 'b', 'm', 'p', 'r', 't', 'k', 'B', 'C', 'E', 'H', 'P', 'T':
			default:
				a.unresolved("shell: unknown option " + s)
				return false, false
			}
		}
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	if hasC {
		if len(rest) == 0 {
			a.unresolved("sh -c without a command string")
			return false, false
		}
		script := rest[0]
		if script.dyn {
			a.flagSub(script.sub)
			a.unresolved("the shell runs a command string that is not static: " + script.s)
			return false, false
		}
		c := e.fork()
		c.stdin = e.stdin
		if len(rest) > 1 {
			c.params, c.paramsKnown = statics(rest[2:])
		} else {
			c.params, c.paramsKnown = nil, true
		}
		a.code(c, script.s, true)
		return true, true
	}
	if len(rest) > 0 && !hasS {
		a.scriptArg(e, rest[0])
		return false, true
	}
	a.stdinCode(e, true)
	return false, true
}

// su runs a command string as another user.
func (a *analyzer) su(e *env, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	opts, _ := scan(args, "cgGsw", []string{"command", "group", "supp-group", "shell", "whitelist-environment", "session-command"}, false)
	cmds := optVals(opts, "-c", "--command", "--session-command")
	if len(cmds) == 0 {
		a.openShell()
		return false, true
	}
	for _, c := range cmds {
		a.shellString(e, []field{c})
	}
	return false, true
}

// eval runs its arguments, joined, as shell code in the current shell.
func (a *analyzer) eval(e *env, args []field) {
	ss, ok := statics(args)
	if !ok {
		for _, f := range args {
			a.flagSub(f.sub)
		}
		a.unresolved("eval of a non-literal")
		return
	}
	a.code(e, strings.Join(ss, " "), true)
}

// source runs a file in the current shell.
func (a *analyzer) source(e *env, args []field) (bool, bool) {
	if len(args) == 0 {
		return true, true
	}
	a.scriptArg(e, args[0])
	return false, true
}

// trap runs its action string later, in the current shell.
func (a *analyzer) trap(e *env, args []field) {
	if len(args) < 2 || hasAny(args[:1], "-l", "-p", "--") {
		if len(args) >= 3 && args[0].s == "--" {
			a.trap(e, args[1:])
		}
		return
	}
	act := args[0]
	if act.dyn {
		a.unresolved("trap with an action that is not static")
		a.flagSub(act.sub)
		return
	}
	if act.s == "" || act.s == "-" {
		return
	}
	a.code(e.fork(), act.s, true)
}

// flock: flock [opts] file cmd args | flock [opts] file -c string | flock fd.
func (a *analyzer) flock(e *env, args []field) (bool, bool) {
	opts, cmd, bad := peelArgs(wrapper{flags: "s x e n u o F --shared --exclusive --nonblock --unlock --close --no-fork --verbose",
		vals: "w E c --timeout --wait --conflict-exit-code --command"}, args)
	if bad != "" {
		a.unresolved("flock: unknown option " + bad)
		return false, false
	}
	for _, c := range optVals(opts, "-c", "--command") {
		a.shellString(e, []field{c})
	}
	if len(cmd) == 0 {
		return false, true
	}
	lock := cmd[0]
	if !lock.dyn && strings.Trim(lock.s, "0123456789") == "" {
		return true, true // a file descriptor: nothing runs
	}
	a.path(e, lock, action.Write)
	cmd = cmd[1:]
	if len(cmd) > 0 && !cmd[0].dyn && (cmd[0].s == "-c" || cmd[0].s == "--command") {
		a.shellString(e, cmd[1:2])
		return false, true
	}
	if len(cmd) == 0 {
		return false, true
	}
	return false, a.inner(e, cmd, nil, false)
}

// xargs runs a command with arguments read from standard input.
func (a *analyzer) xargs(e *env, args []field) (bool, bool) {
	opts, cmd, bad := peelArgs(wrapper{
		flags: "0 p r t x o e i l --null --interactive --no-run-if-empty --verbose --exit --open-tty --show-limits --replace --eof --max-lines",
		vals:  "a d E I L n P s --arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var"}, args)
	if bad != "" && !strings.HasPrefix(bad, "--replace=") && !strings.HasPrefix(bad, "--eof=") && !strings.HasPrefix(bad, "--max-lines=") &&
		!(strings.HasPrefix(bad, "-i") || strings.HasPrefix(bad, "-e") || strings.HasPrefix(bad, "-l")) {
		a.unresolved("xargs: unknown option " + bad)
		return false, false
	}
	if bad != "" {
		a.unresolved("xargs: option " + bad + " is not analysed")
		return false, false
	}
	for _, f := range optVals(opts, "-a", "--arg-file") {
		a.path(e, f, action.Read)
	}
	repl := ""
	for _, o := range opts {
		switch o.name {
		case "-I":
			repl = o.val.s
		case "-i", "--replace":
			repl = "{}"
		}
	}
	if len(cmd) == 0 {
		cmd = []field{{s: "echo"}}
	}
	inner := make([]field, 0, len(cmd)+1)
	for _, f := range cmd {
		if repl != "" && strings.Contains(f.s, repl) {
			f = field{s: f.s, dyn: true}
		}
		inner = append(inner, f)
	}
	if repl == "" {
		inner = append(inner, field{s: "{xargs input}", dyn: true})
	}
	if !a.inner(e, inner, nil, true) {
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

// find lists files and may run commands or delete them.
func (a *analyzer) find(e *env, args []field) (bool, bool) {
	i := 0
	for i < len(args) && !args[i].dyn {
		s := args[i].s
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		if s == "-D" {
			i += 2
			continue
		}
		break
	}
	var roots []field
	for ; i < len(args); i++ {
		s := args[i].s
		if !args[i].dyn && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		roots = append(roots, args[i])
	}
	if len(roots) == 0 {
		roots = []field{{s: "."}}
	}
	// Running a command on what find lists, or printing it to a file,
	// reads the trees under the roots.
	rec := false
	for _, f := range args[i:] {
		switch f.s {
		case "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fls", "-fprintf":
			rec = true
		}
	}
	for _, r := range roots {
		a.pathRec(e, r, action.Read, rec)
	}
	under := ""
	if len(roots) == 1 && !roots[0].dyn {
		if ps, ok := a.abs(e, roots[0].s); ok && len(ps) == 1 {
			under = ps[0]
		}
	}
	ro := true
	for ; i < len(args); i++ {
		f := args[i]
		if f.dyn {
			continue
		}
		switch f.s {
		case "-delete":
			a.class(action.FileDelete)
			for _, r := range roots {
				a.path(e, r, action.Delete)
			}
			ro = false
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			ro = false
			if i+1 < len(args) {
				a.path(e, args[i+1], action.Write)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			var cmd []field
			for ; j < len(args); j++ {
				g := args[j]
				if !g.dyn && (g.s == ";" || g.s == "+") {
					break
				}
				if !g.dyn && strings.Contains(g.s, "{}") {
					g = field{s: g.s, dyn: true}
					if g.s == "{}" {
						g.under = under
					}
				}
				cmd = append(cmd, g)
			}
			i = j
			if len(cmd) == 0 {
				continue
			}
			// Whether the command run is read-only: a.notRO is cleared
			// for it and merged back.
			before := a.notRO
			a.notRO = false
			if !a.inner(e.fork(), cmd, nil, true) {
				a.flag(action.FlagRunsCode)
			}
			if a.notRO {
				ro = false
			}
			a.notRO = a.notRO || before
		}
	}
	return ro, true
}

// cd, pushd and popd change the working directory. cd alone ($HOME,
// which the caller or the script may have changed), cd - ($OLDPWD) and a
// dynamic operand make it unknown.
func (a *analyzer) cd(e *env, name string, args []field) {
	if name == "popd" {
		if len(e.dirs) == 0 {
			e.cwd, e.ok = nil, nil
			return
		}
		top := e.dirs[len(e.dirs)-1]
		e.dirs = e.dirs[: len(e.dirs)-1 : len(e.dirs)-1]
		e.ok = top
		e.cwd = union(e.cwd, top)
		return
	}
	_, ops := scan(args, "", nil, false)
	var target []string
	switch {
	case len(ops) == 0 || ops[0].dyn || ops[0].s == "-" || strings.HasPrefix(ops[0].s, "+"):
	default:
		ps, ok := a.abs(e, ops[0].s)
		if ok {
			target = ps
		}
	}
	if name == "pushd" {
		e.dirs = append(e.dirs[:len(e.dirs):len(e.dirs)], e.cwd)
	}
	e.ok = target
	e.cwd = union(e.cwd, target)
	if target == nil {
		e.cwd = nil
	}
}

// grep-like commands: a pattern, then files; -r with no file reads ".".
func (a *analyzer) grep(e *env, name string, args []field) bool {
	vals := "efmABCDd"
	long := []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude", "exclude-dir", "label", "color", "colour", "devices", "directories", "binary-files"}
	if name == "rg" || name == "ag" || name == "ack" {
		vals = "efmABCgtTjM"
		long = append(long, "glob", "type", "type-not", "threads", "max-columns", "replace", "pre")
	}
	opts, ops := scan(args, vals, long, false)
	if hasOpt(opts, "--pre") {
		a.flag(action.FlagRunsCode) // rg --pre runs a program on every file
	}
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
	return true
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

// remoteHost returns the host of an scp/rsync operand [user@]host:path or
// rsync://host/…, or "".
func remoteHost(s string) string {
	if strings.Contains(s, "://") {
		return hostOf(s, false)
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return ""
	}
	if slash := strings.IndexByte(s, '/'); slash >= 0 && slash < colon {
		return ""
	}
	h := s[:colon]
	if at := strings.LastIndexByte(h, '@'); at >= 0 {
		h = h[at+1:]
	}
	h = strings.Trim(h, "[]")
	return strings.ToLower(h)
}

// hostOf returns the host of a URL; bare allows "example.com/x".
func hostOf(s string, bare bool) string {
	if !strings.Contains(s, "://") {
		if !bare {
			return ""
		}
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
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

// fetch handles curl, wget and the like: hosts, output files, uploads.
func (a *analyzer) fetch(e *env, name string, args []field) {
	var vals string
	var long []string
	switch name {
	case "curl":
		vals = "AbcdDeEFHKmoQrTuUwxXYyzC"
		long = []string{"data", "data-raw", "data-binary", "data-urlencode", "data-ascii", "form", "form-string", "header", "output",
			"upload-file", "user", "user-agent", "referer", "cookie", "cookie-jar", "config", "request", "proxy", "url", "write-out",
			"max-time", "connect-timeout", "retry", "cacert", "cert", "key", "resolve", "connect-to", "dump-header", "trace",
			"trace-ascii", "stderr", "range", "output-dir", "json", "oauth2-bearer", "proxy-user", "interface", "limit-rate"}
	case "wget":
		vals = "OoaPiUetTwQYlADRIXB"
		long = []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "user-agent", "execute",
			"tries", "timeout", "wait", "quota", "level", "accept", "reject", "domains", "include-directories", "exclude-directories",
			"base", "header", "post-data", "post-file", "body-file", "user", "password", "load-cookies", "save-cookies", "ca-certificate"}
	}
	opts, ops := scan(args, vals, long, false)
	wroteStdout := false
	for _, o := range opts {
		v := o.val
		switch name + " " + o.name {
		case "curl -o", "curl --output", "wget -O", "wget --output-document":
			if v.s == "-" {
				wroteStdout = true
				continue
			}
			a.path(e, v, action.Write)
			if ps, ok := a.abs(e, v.s); ok && !v.dyn {
				for _, p := range ps {
					a.fetched[path.Clean(p)] = true
				}
			}
		case "curl -c", "curl --cookie-jar", "curl -D", "curl --dump-header", "curl --trace", "curl --trace-ascii", "curl --stderr",
			"wget -o", "wget --output-file", "wget -a", "wget --append-output", "wget --save-cookies":
			if v.s != "-" {
				a.path(e, v, action.Write)
			}
		case "curl -T", "curl --upload-file", "curl -K", "curl --config", "wget -i", "wget --input-file", "wget --post-file", "wget --body-file",
			"curl --cacert", "curl -E", "curl --cert", "curl --key":
			a.path(e, v, action.Read)
		case "curl -d", "curl --data", "curl --data-binary", "curl --data-urlencode", "curl --data-ascii", "curl -F", "curl --form", "curl --json", "curl -b", "curl --cookie":
			if !v.dyn {
				if at := strings.IndexByte(v.s, '@'); at >= 0 && (at == 0 || o.name == "-F" || o.name == "--form" || o.name == "--data-urlencode") {
					p := v.s[at+1:]
					if k := strings.IndexByte(p, ';'); k >= 0 {
						p = p[:k]
					}
					if p != "-" {
						a.path(e, field{s: p}, action.Read)
					}
				}
			}
		case "curl -x", "curl --proxy", "curl --url":
			if h := hostOf(v.s, true); h != "" {
				a.host(h)
			}
		case "curl --output-dir", "wget -P", "wget --directory-prefix":
			a.path(e, v, action.Write)
		case "wget -e", "wget --execute":
			a.flag(action.FlagRunsCode)
		}
	}
	_ = wroteStdout
	remoteName := name == "curl" && hasOpt(opts, "-O", "--remote-name", "--remote-name-all")
	for _, f := range ops {
		if f.dyn {
			a.unresolved(name + " with a URL that is not static: " + f.s)
			continue
		}
		h := hostOf(f.s, true)
		if h == "" {
			continue
		}
		a.host(h)
		if (name == "wget" && !hasOpt(opts, "-O", "--output-document", "--spider")) || remoteName {
			base := f.s
			if u, err := url.Parse(f.s); err == nil {
				base = u.Path
			}
			base = base[strings.LastIndexByte(base, '/')+1:]
			if base == "" {
				base = "index.html"
			}
			dir := "."
			if d := optVals(opts, "-P", "--directory-prefix", "--output-dir"); len(d) > 0 && !d[0].dyn {
				dir = d[0].s
			}
			p := base
			if dir != "." {
				p = join(dir, base)
			}
			a.path(e, field{s: p}, action.Write)
			if ps, ok := a.abs(e, p); ok {
				for _, q := range ps {
					a.fetched[path.Clean(q)] = true
				}
			}
		}
	}
}

// netcat-likes: the first operand is the host.
func (a *analyzer) netcat(e *env, name string, args []field) {
	opts, ops := scan(args, "pwsiqxXIOTeMcmS", nil, false)
	if hasOpt(opts, "-e", "-c") {
		a.flag(action.FlagRunsCode)
	}
	if name == "socat" {
		for _, f := range ops {
			for _, part := range strings.Split(f.s, ",") {
				typ, addr, ok := strings.Cut(part, ":")
				if !ok {
					continue
				}
				switch strings.ToUpper(typ) {
				case "TCP", "TCP4", "TCP6", "UDP", "UDP4", "UDP6", "OPENSSL", "SSL":
					h, _, _ := strings.Cut(addr, ":")
					a.host(h)
				case "EXEC", "SYSTEM":
					a.flag(action.FlagRunsCode)
				}
			}
		}
		return
	}
	if hasOpt(opts, "-l") {
		return
	}
	for _, f := range ops {
		if !f.dyn {
			a.host(f.s)
		}
		break
	}
}

// ssh: the destination, then a remote command.
func (a *analyzer) ssh(e *env, name string, args []field) {
	opts, ops := scan(args, "bcDEeFIiJLlmOopQRSWw", nil, true)
	for _, o := range opts {
		switch o.name {
		case "-o":
			if o.val.dyn || sshOptRuns(o.val.s) {
				a.flag(action.FlagRunsCode)
			}
		case "-F":
			a.path(e, o.val, action.Read)
		case "-J":
			for _, j := range strings.Split(o.val.s, ",") {
				a.host(remoteHost(j + ":"))
			}
		}
	}
	if len(ops) == 0 {
		return
	}
	d := ops[0]
	if d.dyn {
		a.unresolved(name + " to a destination that is not static")
		return
	}
	h := d.s
	if strings.HasPrefix(h, "ssh://") || strings.HasPrefix(h, "sftp://") {
		h = hostOf(h, false)
	} else {
		if at := strings.LastIndexByte(h, '@'); at >= 0 {
			h = h[at+1:]
		}
		if c := strings.IndexByte(h, ':'); c >= 0 {
			h = h[:c]
		}
	}
	a.host(h)
}

// sshOptRuns reports whether an ssh -o option runs a local command.
func sshOptRuns(o string) bool {
	k := strings.ToLower(strings.TrimSpace(o))
	for _, p := range []string{"proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// gh: the GitHub CLI.
func (a *analyzer) gh(e *env, args []field) (bool, bool) {
	a.class(action.NetworkEgress)
	i := len(a.meta) - 1
	a.meta[i].fetch = true
	host := "github.com"
	var words []string
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn {
			if len(words) < 2 {
				a.unresolved("gh with a subcommand that is not static")
			}
			continue
		}
		switch {
		case f.s == "--hostname" || f.s == "-R" || f.s == "--repo":
			if j+1 < len(args) && !args[j+1].dyn {
				if f.s == "--hostname" {
					host = args[j+1].s
				} else if strings.Count(args[j+1].s, "/") == 2 {
					host = args[j+1].s[:strings.IndexByte(args[j+1].s, '/')]
				}
			}
			j++
		case strings.HasPrefix(f.s, "-"):
		default:
			if len(words) < 2 {
				words = append(words, f.s)
			}
		}
	}
	a.host(host)
	if len(words) >= 2 && (words[0] == "pr" || words[0] == "pull-request") {
		switch words[1] {
		case "create", "new":
			a.class(action.PRCreate)
		case "merge", "review", "ready", "comment":
			a.class(action.PRPublish)
		}
	}
	if len(words) >= 1 && words[0] == "auth" && len(words) >= 2 && words[1] == "token" {
		a.class(action.SecretAccess)
	}
	if len(words) >= 2 && words[0] == "extension" || len(words) >= 1 && words[0] == "alias" {
		a.flag(action.FlagRunsCode)
	}
	return false, true
}

// golang handles the go command.
func (a *analyzer) golang(e *env, args []field) (bool, bool) {
	sub := ""
	for _, f := range args {
		if f.dyn {
			a.unresolved("go with a subcommand that is not static")
			return false, false
		}
		if !strings.HasPrefix(f.s, "-") {
			sub = f.s
			break
		}
	}
	switch sub {
	case "test", "vet", "list", "version", "env", "doc", "help", "":
		for _, f := range args {
			if strings.HasPrefix(f.s, "-exec") || strings.HasPrefix(f.s, "-toolexec") || strings.HasPrefix(f.s, "-vettool") {
				a.flag(action.FlagRunsCode)
			}
			if f.s == "-w" && sub == "env" {
				return false, true
			}
		}
		return true, true
	case "build", "fmt", "mod", "work", "clean", "fix":
		if sub == "mod" && hasAny(args, "download") {
			a.class(action.PackageInstall)
		}
		return false, true
	case "get", "install":
		a.class(action.PackageInstall)
		return false, true
	case "run", "generate", "tool":
		a.flag(action.FlagRunsCode)
		return false, true
	}
	return false, true
}

// pkg handles package managers.
func (a *analyzer) pkg(e *env, name string, args []field) (bool, bool) {
	var words []string
	for j := 0; j < len(args); j++ {
		f := args[j]
		if f.dyn {
			if len(words) == 0 {
				a.unresolved(name + " with a subcommand that is not static")
				return false, false
			}
			continue
		}
		if strings.HasPrefix(f.s, "-") {
			if name == "pacman" && (strings.HasPrefix(f.s, "-S") || strings.HasPrefix(f.s, "-U")) {
				words = append(words, "install")
			}
			if name == "npm" && (f.s == "--prefix" || f.s == "-C") || name == "yarn" && f.s == "--cwd" {
				j++
			}
			continue
		}
		words = append(words, f.s)
	}
	verb := ""
	if len(words) > 0 {
		verb = words[0]
	}
	install := map[string]bool{"install": true, "i": true, "in": true, "add": true, "ci": true, "isntall": true,
		"reinstall": true, "upgrade": true, "update": true, "up": true, "sync": true, "require": true, "get": true, "dlx": true, "x": true, "exec": true}
	switch name {
	case "yarn", "pnpm", "bun":
		if verb == "" && name == "yarn" {
			verb = "install"
		}
	case "uv":
		if verb == "pip" && len(words) > 1 {
			verb = words[1]
		}
		if verb == "run" || verb == "tool" {
			a.flag(action.FlagRunsCode)
			a.class(action.PackageInstall)
			return false, true
		}
	case "pipx":
		if verb == "run" {
			a.flag(action.FlagRunsCode)
			a.class(action.PackageInstall)
			return false, true
		}
	case "cargo":
		switch verb {
		case "install", "add":
			a.class(action.PackageInstall)
		case "build", "run", "test", "bench", "check", "clippy", "doc":
			a.flag(action.FlagRunsCode)
		}
		return false, true
	case "npm":
		if verb == "exec" || verb == "x" {
			a.class(action.PackageInstall)
			a.flag(action.FlagRunsCode)
			return false, true
		}
	}
	if install[verb] {
		a.class(action.PackageInstall)
		if verb == "dlx" || verb == "x" || verb == "exec" {
			a.flag(action.FlagRunsCode)
		}
		return false, true
	}
	switch verb {
	case "run", "run-script", "test", "t", "start", "exec", "build", "rebuild", "restart", "stop":
		a.flag(action.FlagRunsCode)
		return false, true
	case "list", "ls", "show", "info", "view", "outdated", "search", "help", "--version", "version", "freeze", "why", "config", "audit", "doctor":
		return false, true
	}
	if (name == "yarn" || name == "pnpm" || name == "bun") && verb != "" {
		a.flag(action.FlagRunsCode) // yarn <script>
	}
	return false, true
}
