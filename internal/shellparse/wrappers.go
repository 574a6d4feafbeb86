// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file and its neighbours hold the wrappers whose grammar does not
// fit the table of peel.go. Each is peeled: the command it runs is
// analysed as its own invocation, or as a shell string where the wrapper
// hands it to a shell. As in peel.go, an option a grammar does not know
// makes the command unresolved.
//
// Here are the wrappers read with a grammar of simpleWrappers (namespace
// tools, tracers, proxies, watch, entr, script, runuser) and the tracers,
// debuggers and sandbox tools with a parser of their own (bwrap,
// valgrind, gdb, lldb). Session managers that type keys into a shell
// (tmux, screen, expect) and editors are in sessions.go; project runners
// (pipenv run, bundle exec, direnv exec, nix-shell --run, dotenv) and user
// switches (runuser, sg) in runners.go; repeaters (parallel) in
// repeaters.go.

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// grammar applies w to args; on an unknown option it reports the command
// unresolved and ok is false.
func (a *analyzer) grammar(name string, w wrapper, args []field) (opts []opt, ops []field, ok bool) {
	opts, ops, bad := peelArgs(w, args)
	if bad != "" {
		a.unresolved(fmt.Sprintf("%s: unknown option %s", name, bad))
		return nil, nil, false
	}
	return opts, ops, true
}

// simpleWrappers run the command of their operands, with the option
// grammar given; the handler of each reads the options that matter.
var simpleWrappers = sync.OnceValue(func() map[string]wrapper {
	return map[string]wrapper{
		"unshare": {flags: "f r c --fork --map-root-user --map-current-user --map-auto",
			vals:     "R w S G --propagation --setgroups --root --wd --setuid --setgid --monotonic --boottime --map-user --map-group --map-users --map-groups",
			optional: "m u i n p U C T --mount --uts --ipc --net --pid --user --cgroup --time --kill-child --mount-proc --mount-binfmt"},
		"nsenter": {flags: "a F Z e c --all --no-fork --follow-context --preserve-credentials --keep-caps --env --join-cgroup",
			vals:     "t S G W --target --setuid --setgid --wdns",
			optional: "m u i n p U C T r w --mount --uts --ipc --net --pid --user --cgroup --time --root --wd"},
		"strace": {flags: "c C d D f F h i k n q r t T v V w x y z Z --summary-only --summary --follow-forks --output-separately " +
			"--seccomp-bpf --no-abbrev --raw --verbose --debug --help --version --summary-wall-clock --kill-on-exit " +
			"--instruction-pointer --stack-trace --successful-only --failed-only",
			vals: "a b e E I o O p P s S u U X --trace --signal --status --output --attach --user --env --string-limit --columns " +
				"--argv0 --trace-path --abbrev --read --write --fault --inject --summary-columns --summary-sort-by " +
				"--summary-syscall-overhead --const-print-style --trace-fds",
			optional: "--quiet --decode-fds --decode-pids --secontext --timestamps --syscall-times --absolute-timestamps " +
				"--relative-timestamps --strings-in-hex --tips --daemonize"},
		"ltrace": {flags: "b c C f h i L r S t T V --demangle --help --version --no-signals",
			vals: "a A D e F l n o p s u w x --align --indent --library --output --where --config"},
		"faketime":    {flags: "m f --exclude-monotonic --disable-shm", vals: "p --date-prog", skip: 1},
		"torsocks":    {flags: "i d q --isolate --debug --quiet --shell", vals: "u p a P --user --pass --address --port"},
		"proxychains": {flags: "q", vals: "f"}, "proxychains4": {flags: "q", vals: "f"},
		"sshpass": {flags: "v h V", vals: "f d p P", optional: "e"},
		"watch": {flags: "b c d e g h p t v x w r C --beep --color --no-color --errexit --chgexit --exec --precise --no-title " +
			"--no-wrap --no-linewrap --no-rerun --help --version",
			vals: "n q s --interval --equexit --shell", optional: "--differences"},
		"entr":    {flags: "a c d n p r s z"},
		"script":  {flags: "a e f q k d p r --append --return --flush --quiet --force", vals: "c T I O B m E o F --command --log-timing --log-in --log-out --log-io --logging-format --echo --output-limit", optional: "t --timing", permute: true},
		"runuser": {flags: "l m p f P --login --preserve-environment --fast --pty", vals: "u g G s w c --user --group --supp-group --shell --whitelist-environment --command --session-command"},
	}
})

// simpleWrapper peels the wrappers of simpleWrappers.
func (a *analyzer) simpleWrapper(e *env, name string, args []field) (bool, bool) {
	w := simpleWrappers()[name]
	opts, cmd, ok := a.grammar(name, w, args)
	if !ok {
		return false, false
	}
	c := e
	switch name {
	case "unshare", "nsenter":
		if name == "nsenter" {
			a.flag(action.FlagPrivilegeEscalation) // it enters another process's namespaces
		}
		for _, o := range opts {
			root := o.name == "--root" || o.name == "-R" && name == "unshare" || o.name == "-r" && name == "nsenter"
			switch {
			case root:
				if o.has {
					a.path(e, o.val, action.Read)
				}
				c = c.fork()
				c.cwd, c.ok = nil, nil // paths now name another root
			case o.name == "-w" || o.name == "--wd" || o.name == "-W" || o.name == "--wdns":
				if o.has {
					c = a.chdir(c, o.val)
				}
			}
		}
		if len(cmd) == 0 {
			a.openShell()
			return false, true
		}
	case "strace", "ltrace":
		for _, o := range opts {
			switch o.name {
			case "-o", "--output":
				if !o.val.dyn && (strings.HasPrefix(o.val.s, "|") || strings.HasPrefix(o.val.s, "!")) {
					// strace -o '|cmd' pipes the trace into a shell command.
					a.shellString(e, []field{{s: o.val.s[1:]}})
					continue
				}
				a.path(e, o.val, action.Write)
			case "-E", "--env":
				if !o.val.dyn {
					k, v, _ := strings.Cut(o.val.s, "=")
					a.envVar(e, k, v, true)
				} else {
					a.unresolved("cannot be analysed statically: " + name + " " + o.name + " " + o.val.s)
				}
			case "-F", "--config":
				a.path(e, o.val, action.Read)
			case "-p", "--attach":
				// Tracing another process shows what it reads and
				// writes, its secrets included.
				a.class(action.SecretAccess)
			}
		}
		if len(cmd) == 0 {
			return true, true // attached to a running process
		}
	case "faketime":
		if hasOpt(opts, "--date-prog") {
			a.flag(action.FlagRunsCode)
		}
	case "torsocks":
		if hasOpt(opts, "--shell") {
			a.openShell()
			return false, true
		}
		if len(cmd) > 0 && !cmd[0].dyn && slices.Contains([]string{"on", "off", "show"}, cmd[0].s) {
			return false, true // to be sourced: sets LD_PRELOAD in the caller's shell
		}
	case "proxychains", "proxychains4":
		for _, f := range optVals(opts, "-f") {
			a.path(e, f, action.Read)
		}
	case "sshpass":
		for _, f := range optVals(opts, "-f") {
			a.path(e, f, action.Read)
		}
	case "watch":
		if len(cmd) == 0 {
			return true, true
		}
		if hasOpt(opts, "-x", "--exec") {
			return true, a.inner(e, cmd, nil, true)
		}
		// watch joins its arguments and runs them with sh -c.
		a.shellString(e, cmd)
		return true, true
	case "entr":
		if len(cmd) == 0 {
			return true, true
		}
		if hasOpt(opts, "-s") {
			a.shellString(e, cmd[:1])
			return true, true
		}
		inner := make([]field, 0, len(cmd))
		for _, f := range cmd {
			if f.s == "/_" {
				f = field{s: f.s, dyn: true} // the file that changed
			}
			inner = append(inner, f)
		}
		return true, a.inner(e, inner, nil, true)
	case "script":
		if !hasOpt(opts, "-c", "--command") && len(cmd) > 1 {
			// BSD: script [opts] file command…, whose options are the
			// command's own.
			w.permute = false
			if opts, cmd, ok = a.grammar(name, w, args); !ok {
				return false, false
			}
		}
		return a.script(e, opts, cmd)
	case "runuser":
		return a.runuser(e, opts, cmd, args)
	}
	if len(cmd) == 0 {
		return true, true
	}
	return true, a.inner(c, cmd, nil, true)
}

// bwrapArgs is how many values each bubblewrap option takes.
var bwrapArgs = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"--unshare-all": 0, "--share-net": 0, "--unshare-user": 0, "--unshare-user-try": 0, "--unshare-ipc": 0,
		"--unshare-pid": 0, "--unshare-net": 0, "--unshare-uts": 0, "--unshare-cgroup": 0, "--unshare-cgroup-try": 0,
		"--clearenv": 0, "--new-session": 0, "--die-with-parent": 0, "--as-pid-1": 0, "--disable-userns": 0,
		"--assert-userns-disabled": 0, "--help": 0, "--version": 0, "--level-prefix": 0,
		"--argv0": 1, "--userns": 1, "--userns2": 1, "--pidns": 1, "--uid": 1, "--gid": 1, "--hostname": 1,
		"--chdir": 1, "--unsetenv": 1, "--lock-file": 1, "--sync-fd": 1, "--remount-ro": 1, "--exec-label": 1,
		"--file-label": 1, "--proc": 1, "--dev": 1, "--tmpfs": 1, "--dir": 1, "--seccomp": 1, "--add-seccomp-fd": 1,
		"--block-fd": 1, "--userns-block-fd": 1, "--info-fd": 1, "--json-status-fd": 1, "--cap-add": 1,
		"--cap-drop": 1, "--perms": 1, "--size": 1, "--mqueue": 1, "--overlay-src": 1, "--tmp-overlay": 1,
		"--ro-overlay": 1,
		"--setenv":     2, "--bind": 2, "--bind-try": 2, "--dev-bind": 2, "--dev-bind-try": 2, "--ro-bind": 2,
		"--ro-bind-try": 2, "--bind-fd": 2, "--ro-bind-fd": 2, "--file": 2, "--bind-data": 2, "--ro-bind-data": 2,
		"--symlink": 2, "--chmod": 2,
		"--overlay": 3,
	}
})

// bwrap runs a command in a bubblewrap sandbox: options take 0 to 3
// values; --args reads more options from a descriptor.
func (a *analyzer) bwrap(e *env, args []field) (bool, bool) {
	c := e
	i := 0
	for i < len(args) {
		f := args[i]
		if f.dyn || !strings.HasPrefix(f.s, "--") {
			break
		}
		if f.s == "--" {
			i++
			break
		}
		n, ok := bwrapArgs()[f.s]
		if !ok || i+n >= len(args) && n > 0 {
			a.unresolved("bwrap: unknown option " + f.s)
			return false, false
		}
		vals := args[i+1 : i+1+n]
		switch f.s {
		case "--args":
			a.unresolved("cannot be analysed statically: bwrap --args reads options from a descriptor")
			return false, false
		case "--chdir":
			c = a.chdir(c, vals[0])
		case "--setenv":
			if vals[0].dyn || vals[1].dyn {
				a.unresolved("cannot be analysed statically: bwrap --setenv " + vals[0].s)
			} else {
				a.envVar(e, vals[0].s, vals[1].s, true)
			}
		}
		i += 1 + n
	}
	cmd := args[i:]
	if len(cmd) == 0 {
		return true, true
	}
	return true, a.inner(c, cmd, nil, true)
}

// valgrind: every option is one word (--name=value), so the first word
// that is not an option is the program.
func (a *analyzer) valgrind(e *env, args []field) (bool, bool) {
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		if f.dyn || !strings.HasPrefix(f.s, "-") {
			break
		}
		if f.s == "--" {
			i++
			break
		}
		for _, p := range []string{"--log-file=", "--xml-file="} {
			if v, ok := strings.CutPrefix(f.s, p); ok {
				a.path(e, field{s: v}, action.Write)
			}
		}
		if strings.HasPrefix(f.s, "--vgdb") || strings.HasPrefix(f.s, "--db-command") || strings.HasPrefix(f.s, "--suppressions") {
			a.flag(action.FlagRunsCode)
		}
	}
	if i >= len(args) {
		return true, true
	}
	return true, a.inner(e, args[i:], nil, true)
}

// gdb runs code: its init files, -ex commands and scripts; gdb --args
// runs the command given.
func (a *analyzer) gdb(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	vals := []string{"ex", "iex", "x", "ix", "eval-command", "init-eval-command", "command", "init-command",
		"p", "pid", "c", "core", "d", "directory", "s", "symbols", "e", "exec", "se", "cd", "tty", "D",
		"data-directory", "b", "l", "i", "interpreter", "eix", "early-init-eval-command", "eiex", "early-init-command"}
	flags := []string{"batch", "batch-silent", "q", "quiet", "silent", "nx", "n", "nh", "tui", "readnow",
		"readnever", "write", "statistics", "return-child-result", "version", "help", "configuration", "w", "nw", "nowindows", "windows"}
	for i := 0; i < len(args); i++ {
		f := args[i]
		if f.dyn || !strings.HasPrefix(f.s, "-") {
			continue // the program, a core file or a pid
		}
		name, val, has := strings.Cut(strings.TrimLeft(f.s, "-"), "=")
		switch {
		case name == "args":
			if i+1 < len(args) {
				return false, a.inner(e, args[i+1:], nil, true)
			}
			return false, true
		case slices.Contains(vals, name):
			v := field{s: val}
			if !has {
				if i+1 >= len(args) {
					return false, true
				}
				i++
				v = args[i]
			}
			switch name {
			case "ex", "iex", "eval-command", "init-eval-command", "eix", "early-init-eval-command":
				a.gdbCommand(e, v)
			case "x", "ix", "command", "init-command", "eiex", "early-init-command":
				a.path(e, v, action.Read)
			case "cd":
				e = a.chdir(e, v)
			}
		case slices.Contains(flags, name):
		default:
			a.unresolved("gdb: unknown option " + f.s)
			return false, false
		}
	}
	return false, true
}

// lldb runs code (its init files, -o commands, scripts); lldb -- CMD
// runs the command given.
func (a *analyzer) lldb(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	for i, f := range args {
		if !f.dyn && f.s == "--" {
			return false, a.inner(e, args[i+1:], nil, true)
		}
	}
	return false, true
}

// gdbCommand analyses the shell command of gdb's shell and ! commands.
func (a *analyzer) gdbCommand(e *env, v field) {
	if v.dyn {
		a.unresolved("cannot be analysed statically: a gdb command " + v.s)
		return
	}
	s := strings.TrimSpace(v.s)
	for _, p := range []string{"shell ", "!", "pipe "} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			if p == "pipe " {
				// pipe COMMAND | SHELL_COMMAND
				_, sh, found := strings.Cut(rest, "|")
				if !found {
					return
				}
				rest = sh
			}
			a.shellString(e, []field{{s: rest}})
			return
		}
	}
}
