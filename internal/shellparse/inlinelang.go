// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds what the inline-program scanner (inline.go) knows of
// each language: the names that start a process or evaluate code, the
// imports that make a generic name one of them (import subprocess,
// require("child_process"), from os import system as s), the marker names
// that must be followed wherever they appear, the network libraries, and
// at, which tells per language whether the name at a token is such a
// call.

import "strings"

// prepare finds the imports that make generic names spawn processes.
func (s *scanner) prepare() {
	s.aliases = map[string]bool{}
	s.fnAlias = map[string]string{}
	for i, t := range s.toks {
		if t.k == 'i' && s.tok(i+2).k == 'i' {
			// from os import system as s; const {execSync: run} = …
			n := s.tok(i + 1)
			if s.lang == langPython && n.k == 'i' && n.s == "as" && (pySpawnAny[t.s] || pySpawnSub[t.s] || pyEval[t.s]) ||
				s.lang == langJS && n.k == 'p' && n.s == ":" && (jsSpawn[t.s] || jsEval[t.s]) {
				s.fnAlias[s.tok(i+2).s] = t.s
			}
		}
		switch s.lang {
		case langPython:
			if t.k == 'i' && t.s == "subprocess" || t.k == 's' && t.s == "subprocess" {
				s.subprocess = true
				if s.tok(i+1).k == 'i' && s.tok(i+1).s == "as" && s.tok(i+2).k == 'i' {
					s.aliases[s.tok(i+2).s] = true
				}
			}
		case langJS:
			if (t.k == 'i' || t.k == 's') && (t.s == "child_process" || t.s == "node:child_process") {
				s.childProc = true
			}
		}
	}
}

// Names per language.
var (
	pySpawnAny = set("system", "popen", "popen2", "popen3", "popen4", "Popen", "check_output", "check_call",
		"getoutput", "getstatusoutput", "create_subprocess_exec", "create_subprocess_shell",
		"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
		"spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
		"posix_spawn", "posix_spawnp", "startfile")
	pySpawnSub = set("run", "call")
	pyCmdKw    = set("args", "cmd", "command", "argv", "executable", "file", "path")
	pyEval     = set("eval", "exec", "compile", "__import__", "import_module", "getattr", "execfile")
	jsSpawn    = set("exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync")
	jsEval     = set("eval", "Function", "require", "import", "binding", "_linkedBinding", "runInNewContext",
		"runInThisContext", "runInContext", "compileFunction")
	plSpawn = set("system", "exec", "readpipe", "open", "open2", "open3")
	plEval  = set("eval", "do", "require")
	rbSpawn = set("system", "exec", "spawn", "popen", "popen2", "popen2e", "popen3", "capture2", "capture2e",
		"capture3", "pipeline", "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start", "open")
	rbEval   = set("eval", "instance_eval", "class_eval", "module_eval", "instance_exec", "class_exec")
	phpSpawn = set("system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec")
	phpEval  = set("eval", "assert", "create_function", "call_user_func", "call_user_func_array", "preg_replace_callback_array")
	luaSpawn = set("execute", "popen")
	luaEval  = set("load", "loadstring", "dofile", "loadfile", "require")
	// markers are the names that must be followed wherever they appear.
	markers = map[string][]string{
		langPython: {"system", "popen", "subprocess", "Popen", "check_output", "check_call", "getoutput",
			"getstatusoutput", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
			"spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
			"posix_spawn", "posix_spawnp", "pty", "eval", "exec", "__import__", "importlib", "getattr", "ctypes",
			"create_subprocess_exec", "create_subprocess_shell", "__builtins__", "builtins"},
		langJS: {"child_process", "execSync", "spawnSync", "execFile", "execFileSync", "spawn", "exec", "eval",
			"Function", "require", "binding", "Deno", "Bun", "doShellScript", "vm"},
		langPerl: {"system", "exec", "readpipe", "qx", "open", "open2", "open3", "eval", "syscall"},
		langRuby: {"system", "exec", "spawn", "popen", "popen2", "popen3", "capture2", "capture2e", "capture3",
			"Open3", "PTY", "eval", "instance_eval", "class_eval", "module_eval", "send", "__send__",
			"public_send", "const_get", "method", "syscall"},
		langPHP: {"system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec", "eval",
			"assert", "create_function", "call_user_func", "call_user_func_array"},
		langLua: {"execute", "popen", "load", "loadstring", "dofile", "loadfile"},
		langOSA: {"shell", "doShellScript"},
	}
	// netHints name network libraries, per language.
	netHints = map[string][]string{
		langPython: {"urllib", "urllib2", "urllib3", "requests", "httpx", "aiohttp", "http.client", "socket",
			"ftplib", "smtplib", "telnetlib", "paramiko", "urlopen", "websocket", "websockets"},
		langJS: {"fetch", "http", "https", "net", "tls", "dgram", "axios", "undici", "WebSocket",
			"XMLHttpRequest", "node:http", "node:https", "node:net"},
		langPerl: {"LWP", "IO::Socket", "HTTP::Tiny", "Net::", "Socket", "WWW::Mechanize", "Mojo::UserAgent"},
		langRuby: {"Net::HTTP", "open-uri", "URI.open", "Socket", "TCPSocket", "HTTParty", "Faraday",
			"RestClient", "Net::FTP"},
		langPHP: {"curl_", "fsockopen", "stream_socket_client", "socket_connect", "get_headers"},
		langLua: {"socket", "http"},
		langOSA: {"curl", "http"},
	}
	// urlReaders read a URL they are given as they read a file.
	urlReaders = map[string][]string{
		langPHP:  {"file_get_contents", "fopen", "readfile", "copy", "file", "simplexml_load_file", "parse_ini_file"},
		langRuby: {"open", "URI"},
		langPerl: {"get", "getprint", "getstore", "head"},
	}
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// at looks at token i.
func (s *scanner) at(i int) {
	t := s.toks[i]
	if s.used[i] {
		return
	}
	switch t.k {
	case 'x':
		s.used[i] = true
		if t.dyn {
			s.opaque(i, i+1, "a command string that is not a literal")
			return
		}
		s.r.cmd(t.s)
		return
	case 's':
		// Bun.$`…` and zx's $`…` run a template as shell.
		if t.tpl && s.lang == langJS && s.tok(i-1).k == 'i' && s.tok(i-1).s == "$" {
			s.used[i] = true
			if t.dyn {
				s.opaque(i-1, i+1, "a shell template that is not a literal")
				return
			}
			s.r.cmd(t.s)
		}
		return
	case 'v':
		// $f(…) in PHP calls a function named by a variable.
		if s.lang == langPHP && s.isP(i+1, "(") && !s.isP(i-1, "->") && !s.isP(i-1, "::") {
			s.opaque(i, i+2, "a call of a function named by a variable")
		}
		return
	case 'p':
		// f[x](…): a function called by a computed name.
		if t.s == "]" && s.isP(i+1, "(") && s.lang != langPerl && s.lang != langOSA {
			k := i - 1
			for depth := 0; k >= 0; k-- {
				u := s.toks[k]
				if u.k == 'p' && (u.s == "]" || u.s == ")" || u.s == "}") {
					depth++
				} else if u.k == 'p' && (u.s == "[" || u.s == "(" || u.s == "{") {
					if depth == 0 {
						break
					}
					depth--
				}
			}
			if k < 0 || k+2 != i || s.tok(k+1).k != 's' || s.tok(k+1).dyn || spawnName(s.tok(k+1).s) {
				s.opaque(max(k, 0), i+2, "a function called by a computed name")
			}
		}
		return
	case 'i':
	default:
		return
	}
	name, q := t.s, s.qual(i)
	if target, ok := s.fnAlias[name]; ok && q == "" && !s.isP(i-1, "{") && !s.isP(i+1, ":") {
		name = target
	}
	if name == "constructor" && s.lang == langJS && s.isP(i+1, "(") {
		s.opaque(i, i+2, "the Function constructor")
		return
	}
	switch s.lang {
	case langPython:
		switch {
		case pySpawnAny[name] || pySpawnSub[name] && (q == "subprocess" || s.aliases[q] || q == "" && s.subprocess || q == ")") ||
			name == "spawn" && q == "pty":
			s.spawn(i, name)
		case pyEval[name] && (q == "" || name == "import_module"):
			s.eval(i, name)
		}
	case langJS:
		switch {
		case jsSpawn[name] && (s.childProc || name != "exec") && q != "?":
			s.spawn(i, name)
		case q == "Deno" && (name == "Command" || name == "run"), q == "Bun" && (name == "spawn" || name == "spawnSync"):
			s.spawn(i, name)
		case name == "doShellScript":
			s.spawn(i, name)
		case jsEval[name] && (q == "" || name == "binding" || name == "_linkedBinding" || strings.HasPrefix(name, "run") || name == "compileFunction"):
			s.eval(i, name)
		}
	case langPerl:
		switch {
		case plSpawn[name] && (q == "" || q == "CORE" || q == "IPC"):
			s.spawn(i, name)
		case plEval[name] && q == "":
			s.eval(i, name)
		}
	case langRuby:
		switch {
		case rbSpawn[name] && (name != "open" || q == "" || q == "Kernel") && q != "File":
			s.spawn(i, name)
		case rbEval[name]:
			s.eval(i, name)
		}
	case langPHP:
		switch {
		case phpSpawn[name] && q == "":
			s.spawn(i, name)
		case phpEval[name] && q == "":
			s.eval(i, name)
		}
	case langLua:
		switch {
		case luaSpawn[name] && (q == "os" || q == "io"):
			s.spawn(i, name)
		case luaEval[name] && q == "":
			s.eval(i, name)
		}
	case langOSA:
		if name == "do" && s.tok(i+1).k == 'i' && strings.EqualFold(s.tok(i+1).s, "shell") && s.tok(i+2).k == 'i' && strings.EqualFold(s.tok(i+2).s, "script") {
			s.used[i+1], s.used[i+2] = true, true
			s.spawnAt(i, i+2, name)
		} else if name == "doShellScript" {
			s.spawn(i, name)
		}
	}
}

// spawnNames are the names of process-spawning and code-evaluating
// functions that a program may call by name.
var spawnNames = set("system", "popen", "Popen", "check_output", "check_call", "getoutput", "getstatusoutput",
	"exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync", "shell_exec", "passthru", "proc_open",
	"pcntl_exec", "readpipe", "execute", "popen3", "popen2", "capture2", "capture2e", "capture3", "eval",
	"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe", "spawnl", "spawnle",
	"spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp",
	"doShellScript", "instance_eval", "class_eval", "module_eval", "assert", "create_function", "constructor")

// spawnName reports whether a name, given as a string, is that of a
// process-spawning or code-evaluating function in some language.
func spawnName(n string) bool { return spawnNames[n] }
