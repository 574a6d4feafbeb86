// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the wrappers whose grammar does not fit the table of
// invoke.go: tracers and debuggers, namespace and sandbox tools, session
// managers that type keys into a shell (tmux, screen, expect), project
// runners (pipenv run, bundle exec, direnv exec, nix-shell --run, dotenv),
// user switches (runuser, sg) and repeaters (watch, entr, parallel). Each
// is peeled: the command it runs is analysed as its own invocation, or as
// a shell string where the wrapper hands it to a shell. As in invoke.go,
// an option a grammar does not know makes the command unresolved.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
var simpleWrappers = map[string]wrapper{
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

// simpleWrapper peels the wrappers of simpleWrappers.
func (a *analyzer) simpleWrapper(e *env, name string, args []field) (bool, bool) {
	w := simpleWrappers[name]
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

// script runs a shell command with -c (util-linux) or the command after
// the typescript file (BSD); without either it opens an interactive shell.
func (a *analyzer) script(e *env, opts []opt, ops []field) (bool, bool) {
	for _, o := range opts {
		switch o.name {
		case "-T", "-I", "-O", "-B", "-F", "-t", "--log-timing", "--log-in", "--log-out", "--log-io", "--timing":
			if o.has && o.val.s != "" {
				a.path(e, o.val, action.Write)
			}
		}
	}
	cmds := optVals(opts, "-c", "--command")
	file := field{s: "typescript"}
	if len(ops) > 0 {
		file = ops[0]
	}
	a.path(e, file, action.Write)
	for _, c := range cmds {
		a.shellString(e, []field{c})
	}
	switch {
	case len(cmds) > 0:
		if len(ops) > 1 {
			a.unresolved("script: more than one operand with -c")
			return false, false
		}
	case len(ops) > 1:
		return false, a.inner(e, ops[1:], nil, true)
	default:
		a.openShell()
	}
	return false, true
}

// runuser -u USER [--] CMD runs a command; runuser [-] USER [-c STRING]
// is su.
func (a *analyzer) runuser(e *env, opts []opt, ops, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	if !hasOpt(opts, "-u", "--user") {
		// su style: options may follow the user name.
		w := simpleWrappers["runuser"]
		w.permute = true
		var ok bool
		if opts, ops, ok = a.grammar("runuser", w, args); !ok {
			return false, false
		}
	}
	if hasOpt(opts, "-u", "--user") {
		if len(ops) == 0 {
			a.openShell()
			return false, true
		}
		return false, a.inner(e, ops, nil, true)
	}
	return a.suCommands(e, opts)
}

// sg GROUP [-c] COMMAND runs COMMAND with /bin/sh -c; newgrp opens a
// shell.
func (a *analyzer) sg(e *env, name string, args []field) (bool, bool) {
	a.flag(action.FlagPrivilegeEscalation)
	if len(args) > 0 && !args[0].dyn && args[0].s == "-" {
		args = args[1:]
	}
	if name == "newgrp" || len(args) < 2 {
		a.openShell()
		return false, true
	}
	rest := args[1:]
	if !rest[0].dyn && rest[0].s == "-c" {
		rest = rest[1:]
	}
	a.shellString(e, rest)
	return false, true
}

// bwrapArgs is how many values each bubblewrap option takes.
var bwrapArgs = map[string]int{
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
		n, ok := bwrapArgs[f.s]
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

// tmuxKeys are the key names send-keys turns into characters a shell
// reads as text: Enter submits a line; C-c, C-u and C-d end it (what was
// typed is analysed all the same). Other keys edit the line or recall
// history (BSpace, Tab, Up, C-r): the text run is then unknown.
var tmuxKeys = map[string]string{"Enter": "\n", "C-m": "\n", "KPEnter": "\n", "C-j": "\n", "Space": " ",
	"C-c": "\n", "C-u": "\n", "C-d": "\n", "C-l": ""}

// tmux analyses the commands of a tmux command line, separated by ";":
// new-session, new-window, split-window, respawn-pane and the like run a
// shell command; run-shell, if-shell and pipe-pane a shell string;
// send-keys types keys into a pane, which are analysed as shell code.
func (a *analyzer) tmux(e *env, args []field) (bool, bool) {
	opts, cmd, ok := a.grammar("tmux", wrapper{flags: "2 C D h l N u U V v", vals: "c f L S T"}, args)
	if !ok {
		return false, false
	}
	for _, c := range optVals(opts, "-c") {
		a.shellString(e, []field{c}) // tmux -c runs a shell command like sh -c
	}
	for _, f := range optVals(opts, "-f") {
		a.path(e, f, action.Read)
		a.flag(action.FlagRunsCode) // a configuration file holds tmux commands
	}
	if len(cmd) == 0 {
		if len(opts) > 0 && hasOpt(opts, "-c", "-V") {
			return false, true
		}
		a.openShell() // tmux alone starts a session with a shell
		return false, true
	}
	// A word ";" ends a command, and so does a word ending in an
	// unescaped ";" (neww;), whose text before it is the last word.
	ro, known := true, true
	var part []field
	for j := 0; j <= len(cmd); j++ {
		end := j == len(cmd)
		if !end {
			f := cmd[j]
			switch {
			case f.dyn || !strings.HasSuffix(f.s, ";"):
				part = append(part, f)
				continue
			case strings.HasSuffix(f.s, `\;`):
				part = append(part, field{s: strings.TrimSuffix(f.s, `\;`) + ";"})
				continue
			case f.s != ";":
				part = append(part, field{s: strings.TrimSuffix(f.s, ";")})
			}
		}
		if len(part) > 0 {
			r, k := a.tmuxCommand(e, part)
			ro, known = ro && r, known && k
		}
		part = nil
	}
	return ro, known
}

// tmuxCommand analyses one tmux command.
func (a *analyzer) tmuxCommand(e *env, part []field) (bool, bool) {
	if part[0].dyn {
		a.unresolved("cannot be analysed statically: a tmux command " + part[0].s)
		return false, false
	}
	verb, args := part[0].s, part[1:]
	runs := func(w wrapper) (bool, bool) {
		opts, cmd, ok := a.grammar("tmux "+verb, w, args)
		if !ok {
			return false, false
		}
		c := e
		for _, d := range optVals(opts, "-c") {
			c = a.chdir(c, d)
		}
		for _, v := range optVals(opts, "-e") {
			if v.dyn {
				a.unresolved("cannot be analysed statically: tmux -e " + v.s)
				continue
			}
			k, val, _ := strings.Cut(v.s, "=")
			a.envVar(e, k, val, true)
		}
		a.flag(action.FlagBackground) // a new session or window outlives the command
		if len(cmd) == 0 {
			// The default shell of the new window: commands come later.
			return false, true
		}
		// tmux gives one word to sh -c, several to exec.
		if len(cmd) == 1 {
			a.shellString(c, cmd)
			return false, true
		}
		return false, a.inner(c, cmd, nil, true)
	}
	switch verb {
	case "new-session", "new":
		return runs(wrapper{flags: "A d D E P X", vals: "c e f F n s t x y", permute: false})
	case "new-window", "neww":
		return runs(wrapper{flags: "a b d k P S", vals: "c e F n t"})
	case "split-window", "splitw":
		return runs(wrapper{flags: "b d f h I v P Z", vals: "c e l p t F"})
	case "respawn-pane", "respawnp", "respawn-window", "respawnw":
		return runs(wrapper{flags: "k", vals: "c e t"})
	case "display-popup", "popup":
		return runs(wrapper{flags: "B C E N", vals: "b c d e h s S t T w x y"})
	case "run-shell", "run", "if-shell", "if", "pipe-pane", "pipep":
		opts, ops, ok := a.grammar("tmux "+verb, wrapper{flags: "b C F o I O", vals: "c d t"}, args)
		if !ok {
			return false, false
		}
		if len(ops) == 0 {
			return false, true
		}
		if hasOpt(opts, "-C") && (verb == "run-shell" || verb == "run") {
			return a.tmuxCommand(e, ops)
		}
		a.shellString(e, ops[:1])
		if verb == "if-shell" || verb == "if" {
			for _, t := range ops[1:] {
				a.tmuxString(e, t)
			}
		}
		return false, true
	case "send-keys", "send":
		opts, keys, ok := a.grammar("tmux send-keys", wrapper{flags: "F H K l M R X", vals: "c N t"}, args)
		if !ok {
			return false, false
		}
		if hasOpt(opts, "-H", "-X") {
			a.unresolved("cannot be analysed statically: tmux send-keys -H/-X")
			return false, false
		}
		var b strings.Builder
		for _, k := range keys {
			if k.dyn {
				a.unresolved("cannot be analysed statically: keys typed into a tmux pane: " + k.s)
				return false, false
			}
			if t, ok := tmuxKeys[k.s]; ok && !hasOpt(opts, "-l") {
				b.WriteString(t)
				continue
			}
			if !hasOpt(opts, "-l") && tmuxKeyName(k.s) {
				a.unresolved("cannot be analysed statically: the key " + k.s + " typed into a tmux pane")
				return false, false
			}
			b.WriteString(k.s)
		}
		a.typed(e, b.String())
		return false, true
	case "source-file", "source", "bind-key", "bind", "set-hook", "command-prompt", "confirm-before", "confirm":
		a.flag(action.FlagRunsCode) // tmux commands that run later or come from a file
		return false, true
	case "attach-session", "attach", "a", "detach-client", "detach", "kill-session", "kill-server", "kill-window",
		"killw", "kill-pane", "killp", "select-window", "selectw", "select-pane", "selectp", "rename-window",
		"renamew", "rename-session", "rename", "set-option", "set", "set-window-option", "setw", "resize-pane",
		"resizep", "switch-client", "switchc", "wait-for", "wait", "set-environment", "setenv", "last-window",
		"last", "next-window", "next", "previous-window", "prev", "start-server", "start", "unbind-key", "unbind",
		"swap-pane", "swapp", "swap-window", "swapw", "break-pane", "breakp", "join-pane", "joinp", "move-window",
		"movew", "clear-history", "clearhist", "refresh-client", "refresh", "select-layout", "selectl":
		if verb == "set-environment" || verb == "setenv" {
			_, ops := scan(args, "t", nil, false)
			if len(ops) >= 2 && !ops[0].dyn {
				a.envVar(e, ops[0].s, ops[1].s, !ops[1].dyn)
			}
		}
		return false, true
	case "list-sessions", "ls", "list-windows", "lsw", "list-panes", "lsp", "list-clients", "lsc",
		"list-buffers", "lsb", "list-keys", "lsk", "list-commands", "lscm", "has-session", "has",
		"display-message", "display", "capture-pane", "capturep", "show-options", "show", "show-window-options",
		"showw", "show-environment", "showenv", "show-buffer", "showb", "info", "server-info":
		return true, true
	}
	a.unresolved("tmux: command " + verb + " is not analysed")
	return false, false
}

// tmuxString analyses a tmux command given as one string (if-shell's
// branches).
func (a *analyzer) tmuxString(e *env, f field) {
	if f.dyn || strings.ContainsAny(f.s, `"'\{}$`) {
		a.unresolved("cannot be analysed statically: a tmux command string " + f.s)
		return
	}
	var part []field
	for _, w := range strings.Fields(f.s) {
		part = append(part, field{s: w})
	}
	if len(part) > 0 {
		a.tmuxCommand(e, part)
	}
}

// tmuxKeyName reports a word that send-keys reads as a key name (C-c,
// M-x, Escape, F1) rather than text.
func tmuxKeyName(s string) bool {
	if len(s) > 2 && (s[1] == '-') && strings.ContainsRune("CMS^", rune(s[0])) {
		return true
	}
	switch s {
	case "Escape", "BSpace", "BTab", "DC", "Delete", "End", "Home", "IC", "Insert", "NPage", "PageDown", "PgDn",
		"PPage", "PageUp", "PgUp", "Up", "Down", "Left", "Right", "Any":
		return true
	}
	if len(s) >= 2 && s[0] == 'F' {
		if _, err := strconv.Atoi(s[1:]); err == nil {
			return true
		}
	}
	return strings.HasPrefix(s, "KP")
}

// typed analyses text typed into a terminal (tmux send-keys, screen
// stuff, expect send) as shell code: the shell there has a working
// directory of its own, unknown here. Text that no newline submits is
// analysed too: a later key can submit it.
func (a *analyzer) typed(e *env, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	a.flag(action.FlagRunsCode) // whatever runs in the pane reads the keys
	c := e.fork()
	c.cwd, c.ok, c.prev, c.prevOk, c.dirs = nil, nil, nil, nil, nil
	a.code(c, text, true)
}

// screen: -dm/-dmS NAME CMD starts a detached session running CMD; -X
// stuff TEXT types text into a session; alone it opens a shell.
func (a *analyzer) screen(e *env, args []field) (bool, bool) {
	// Options of several letters come first: screen's own parser.
	multi := map[string]int{"-ls": 0, "-list": 0, "-wipe": 0, "-Logfile": 1, "-fn": 0, "-fa": 0, "-ln": 0, "-Dm": 0, "-dmS": 1, "-dm": 0, "-DmS": 1}
	dSeen, mSeen, query := false, false, false
	var xcmd []field
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		if s == "--" {
			i++
			break
		}
		if n, ok := multi[s]; ok {
			if strings.HasPrefix(s, "-dm") || strings.HasPrefix(s, "-Dm") {
				dSeen, mSeen = true, true
			}
			if s == "-ls" || s == "-list" || s == "-wipe" {
				query = true
			}
			if s == "-Logfile" && i+1 < len(args) {
				a.path(e, args[i+1], action.Write)
			}
			i += n
			continue
		}
		for j := 1; j < len(s); j++ {
			switch ch := s[j]; {
			case strings.IndexByte("aAfiLlOqUrRxdDmv", ch) >= 0:
				switch ch {
				case 'd', 'D':
					dSeen = true
				case 'm':
					mSeen = true
				case 'r', 'R', 'x', 'v':
					query = true
				}
			case strings.IndexByte("cehpsStTX", ch) >= 0:
				var v field
				if j+1 < len(s) {
					v = field{s: s[j+1:]}
				} else if i+1 < len(args) {
					i++
					v = args[i]
				}
				switch ch {
				case 'c':
					a.path(e, v, action.Read)
					a.flag(action.FlagRunsCode) // a screenrc runs commands
				case 's':
					a.flag(action.FlagRunsCode) // the shell screen starts
				case 'X':
					xcmd = append([]field{v}, args[i+1:]...)
					i = len(args)
				}
				j = len(s)
			default:
				a.unresolved("screen: unknown option " + s)
				return false, false
			}
		}
	}
	if xcmd != nil {
		return a.screenCommand(e, xcmd)
	}
	if i > len(args) {
		i = len(args)
	}
	cmd := args[i:]
	if dSeen && mSeen {
		a.flag(action.FlagBackground) // a detached session
	}
	if len(cmd) == 0 {
		if query {
			return false, true
		}
		a.openShell()
		return false, true
	}
	return false, a.inner(e, cmd, nil, true)
}

// screenCommand analyses a command given to a running session with -X.
func (a *analyzer) screenCommand(e *env, cmd []field) (bool, bool) {
	if len(cmd) == 0 || cmd[0].dyn {
		a.unresolved("cannot be analysed statically: screen -X with a command that is not static")
		return false, false
	}
	switch cmd[0].s {
	case "stuff":
		var b strings.Builder
		for _, f := range cmd[1:] {
			if f.dyn {
				a.unresolved("cannot be analysed statically: text typed into a screen session: " + f.s)
				return false, false
			}
			b.WriteString(strings.NewReplacer("^M", "\n", "^J", "\n", `\n`, "\n", `\r`, "\n", `\015`, "\n", `\012`, "\n").Replace(f.s))
		}
		a.typed(e, b.String())
		return false, true
	case "screen":
		a.flag(action.FlagBackground)
		if len(cmd) > 1 {
			return false, a.inner(e, cmd[1:], nil, true)
		}
		return false, true
	case "quit", "kill", "detach", "hardcopy", "log", "logfile", "title", "select", "windowlist", "sessionname", "info":
		return false, true
	}
	a.flag(action.FlagRunsCode)
	a.unresolved("screen: command " + cmd[0].s + " is not analysed")
	return false, false
}

// expect runs Tcl: the words after spawn are a command; any other
// statement is expect code, runs_code. A script file or standard input
// is runs_code.
func (a *analyzer) expect(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	opts, ops, ok := a.grammar("expect", wrapper{flags: "d D i n N b f", vals: "c"}, args)
	if !ok {
		return false, false
	}
	codes := optVals(opts, "-c")
	for _, c := range codes {
		if c.dyn {
			a.unresolved("cannot be analysed statically: expect -c " + c.s)
			continue
		}
		for _, st := range tclStatements(c.s) {
			words := strings.Fields(st)
			if len(words) == 0 || words[0] != "spawn" {
				continue
			}
			if strings.ContainsAny(st, "{}[]$\"\\") {
				a.unresolved("cannot be analysed statically: expect spawn with Tcl substitutions: " + st)
				continue
			}
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if words[0] == "-ignore" && len(words) > 1 {
					words = words[1:]
				}
				words = words[1:]
			}
			var argv []field
			for _, w := range words {
				argv = append(argv, field{s: w})
			}
			a.inner(e, argv, nil, true)
		}
	}
	if len(codes) == 0 {
		if len(ops) > 0 {
			a.scriptArg(e, ops[0], "expect", "expect")
		} else {
			a.stdinCode(e, "expect", "expect")
		}
	}
	return false, true
}

// tclStatements splits Tcl code at newlines and semicolons outside braces
// and quotes.
func tclStatements(s string) []string {
	var out []string
	depth, quote, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '"' && depth == 0:
			quote = !quote
		case c == '{' && !quote:
			depth++
		case c == '}' && !quote && depth > 0:
			depth--
		case (c == '\n' || c == ';') && depth == 0 && !quote:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// runner handles project runners with a subcommand that runs a command:
// pipenv run CMD, bundle exec CMD, direnv exec DIR CMD. Their other
// subcommands install packages or run the project's code.
func (a *analyzer) runner(e *env, name string, args []field) (bool, bool) {
	i := 0
	for i < len(args) && !args[i].dyn && strings.HasPrefix(args[i].s, "-") {
		i++
	}
	if i >= len(args) {
		if name == "bundle" {
			a.class(action.PackageInstall) // bundle alone is bundle install
			a.flag(action.FlagRunsCode)
			return false, true
		}
		a.flag(action.FlagRunsCode)
		return false, true
	}
	if args[i].dyn {
		a.unresolved(name + " with a subcommand that is not static")
		return false, false
	}
	verb, rest := args[i].s, args[i+1:]
	switch {
	case name == "pipenv" && verb == "run", name == "bundle" && (verb == "exec" || verb == "ex"):
		if name == "bundle" {
			a.flag(action.FlagRunsCode) // Bundler loads the project's Gemfile
		}
		if len(rest) > 0 && !rest[0].dyn && rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return false, true
		}
		return false, a.inner(e, rest, nil, true)
	case name == "direnv" && verb == "exec":
		a.flag(action.FlagRunsCode) // the .envrc it loads is a bash script
		if len(rest) < 2 {
			return false, true
		}
		return false, a.inner(e, rest[1:], nil, true)
	case name == "pipenv" && verb == "shell":
		a.openShell()
		return false, true
	case slices.Contains([]string{"install", "i", "add", "update", "upgrade", "sync", "lock", "uninstall"}, verb):
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		return false, true
	case slices.Contains([]string{"status", "version", "--version", "help", "graph", "check", "list", "show", "outdated", "--venv", "--where", "--py"}, verb):
		return false, true
	}
	a.flag(action.FlagRunsCode)
	return false, true
}

// nixShell: --run and --command give a shell string; -p installs the
// packages named; a shell.nix runs its shellHook.
func (a *analyzer) nixShell(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	two := []string{"--arg", "--argstr", "--option"}
	one := []string{"-A", "--attr", "-I", "--include", "-E", "--expr", "--keep", "-i", "-j", "--max-jobs", "--cores", "--run", "--command", "--log-format"}
	flags := []string{"--pure", "--impure", "--show-trace", "--quiet", "--verbose", "-v", "--no-build-output", "-Q", "--keep-going", "-k", "--dry-run", "--help", "--version", "-K", "--keep-failed", "--fallback", "--repair", "--offline", "-L", "--print-build-logs"}
	ran, pkgs := false, false
	for i := 0; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn || !strings.HasPrefix(s, "-") {
			if pkgs {
				continue
			}
			a.path(e, f, action.Read) // shell.nix or default.nix
			continue
		}
		pkgs = false
		switch {
		case s == "-p" || s == "--packages":
			a.class(action.PackageInstall)
			pkgs = true
		case slices.Contains(two, s):
			i += 2
		case slices.Contains(one, s):
			if i+1 >= len(args) {
				return false, true
			}
			i++
			if s == "--run" || s == "--command" {
				ran = true
				a.shellString(e, args[i:i+1])
			}
		case slices.Contains(flags, s):
		default:
			a.unresolved("nix-shell: unknown option " + s)
			return false, false
		}
	}
	if !ran {
		a.openShell()
	}
	return false, true
}

// dotenv runs a command with variables from .env files: dotenv [-e FILE]
// [-v VAR=VALUE] [-c [ENV]] -- CMD (dotenv-cli), or dotenv [-f FILE] run
// CMD (python-dotenv).
func (a *analyzer) dotenv(e *env, args []field) (bool, bool) {
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		s := f.s
		if f.dyn {
			break
		}
		if s == "--" {
			i++
			break
		}
		switch s {
		case "-e", "-f", "--file", "-v", "-p":
			if i+1 >= len(args) {
				return false, true
			}
			i++
			v := args[i]
			switch s {
			case "-v":
				if v.dyn {
					a.unresolved("cannot be analysed statically: dotenv -v " + v.s)
				} else {
					k, val, _ := strings.Cut(v.s, "=")
					a.envVar(e, k, val, true)
				}
			case "-p":
				return false, true // prints a variable
			default:
				a.path(e, v, action.Read)
			}
			continue
		case "-c":
			if i+1 < len(args) && !args[i+1].dyn && !strings.HasPrefix(args[i+1].s, "-") && slices.ContainsFunc(args[i+1:], func(f field) bool { return f.s == "--" }) {
				i++ // the environment name
			}
			continue
		case "--no-expand", "--debug", "-o", "--override", "-q", "--quiet", "--export":
			continue
		case "run":
			// python-dotenv: run [--override|--no-override] CMD
			i++
			for i < len(args) && !args[i].dyn && (args[i].s == "--override" || args[i].s == "--no-override") {
				i++
			}
		case "list", "get", "set", "unset":
			a.flag(action.FlagRunsCode)
			return false, true
		default:
			if strings.HasPrefix(s, "-") {
				a.unresolved("dotenv: unknown option " + s)
				return false, false
			}
		}
		break
	}
	if i >= len(args) {
		return false, true
	}
	return false, a.inner(e, args[i:], nil, true)
}

// parallelReplace are GNU parallel's replacement strings.
var parallelReplace = []string{"{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{7}", "{8}", "{9}"}

// maxParallelArgs bounds the argument combinations analysed.
const maxParallelArgs = 16

// parallel: GNU parallel joins the command's words and runs them with a
// shell once per argument, which it quotes and puts at {} (or at the
// end). Without a command, each argument is a command line.
func (a *analyzer) parallel(e *env, args []field) (bool, bool) {
	w := wrapper{
		flags: "0 k q u g v t X m e r --null --keep-order --quote --ungroup --group --verbose --xargs --no-run-if-empty --pipe " +
			"--pipepart --dry-run --dryrun --eta --progress --bar --tag --line-buffer --lb --will-cite --no-notice --shuf " +
			"--silent --gnu --plus --files --keep --version --help --number-of-cpus --number-of-cores --fg --bg --cat " +
			"--fifo --compress --csv --halt-on-error --nonall --onall --citation",
		vals: "j P n N L s a d E I S C --jobs --max-procs --max-args --max-replace-args --max-lines --arg-file --delimiter " +
			"--eof --replace --sshlogin --sshloginfile --slf --colsep --joblog --results --res --tmpdir --workdir --wd " +
			"--env --halt --timeout --delay --memfree --load --retries --tagstring --tag-string --basefile --bf " +
			"--transfer-file --tf --return --header --block --blocksize --recstart --recend --limit --ssh --termseq " +
			"--nice --group-by --trim --shebang-wrap",
	}
	opts, rest, ok := a.grammar("parallel", w, args)
	if !ok {
		return false, false
	}
	for _, o := range opts {
		switch o.name {
		case "-S", "--sshlogin", "--sshloginfile", "--slf":
			a.class(action.NetworkEgress) // the jobs run on other hosts
			if o.name == "-S" || o.name == "--sshlogin" {
				for _, h := range strings.Split(o.val.s, ",") {
					if h = strings.TrimSpace(h); h != "" && h != ":" && !o.val.dyn {
						_, h = cutLast(h, "/")
						if _, host, ok := strings.Cut(h, "@"); ok {
							h = host
						}
						a.host(h)
					}
				}
			}
		case "--joblog", "--results", "--res":
			a.path(e, o.val, action.Write)
		case "-a", "--arg-file":
			a.path(e, o.val, action.Read)
		}
	}
	repl := "{}"
	for _, v := range optVals(opts, "-I", "--replace") {
		repl = v.s
	}
	// The command is the words before the first ::: or ::::.
	var cmd []field
	var lists [][]string
	fromFile := hasOpt(opts, "-a", "--arg-file")
	dynArgs := fromFile || hasOpt(opts, "--pipe", "--pipepart")
	k := 0
	for ; k < len(rest) && (rest[k].dyn || !strings.HasPrefix(rest[k].s, ":::")); k++ {
		cmd = append(cmd, rest[k])
	}
	if k == len(rest) {
		dynArgs = true // arguments from standard input
	}
	for k < len(rest) {
		sep := rest[k].s
		k++
		var list []string
		for ; k < len(rest) && (rest[k].dyn || !strings.HasPrefix(rest[k].s, ":::")); k++ {
			if rest[k].dyn || sep == "::::" || sep == "::::+" {
				dynArgs = true
				fromFile = fromFile || sep == "::::" || sep == "::::+"
				if sep == "::::" || sep == "::::+" {
					a.path(e, rest[k], action.Read)
				}
				continue
			}
			list = append(list, rest[k].s)
		}
		if len(list) > 0 {
			lists = append(lists, list)
		}
	}
	// The words are joined as they are, or quoted one by one with -q,
	// which ~/.parallel/config may also give: both are analysed.
	var joined, quoted []string
	for _, f := range cmd {
		if f.dyn {
			a.unresolved("cannot be analysed statically: the parallel command holds " + f.s)
			return false, false
		}
		joined = append(joined, f.s)
		quoted = append(quoted, shQuote(f.s))
	}
	lines := []string{strings.Join(joined, " ")}
	if len(cmd) > 1 {
		lines = append(lines, strings.Join(quoted, " "))
	}
	if strings.Contains(lines[0], "{=") {
		a.flag(action.FlagRunsCode) // a perl expression
	}
	combos := [][]string{nil}
	for _, l := range lists {
		var next [][]string
		for _, c := range combos {
			for _, v := range l {
				next = append(next, append(slices.Clip(c), v))
			}
		}
		combos = next
		if len(combos) > maxParallelArgs {
			a.unresolved("cannot be analysed statically: parallel runs too many argument combinations")
			return false, false
		}
	}
	if len(lists) == 0 {
		combos = nil
	}
	run := func(s string) { a.code(e.fork(), s, true) }
	if len(cmd) == 0 {
		// Each argument is a command line.
		for _, c := range combos {
			run(strings.Join(c, " "))
		}
		switch {
		case fromFile:
			a.flag(action.FlagRunsCode) // command lines read from a file: a script
		case dynArgs:
			a.stdinCode(e, "shell", "parallel")
		}
		return true, true
	}
	for _, line := range lines {
		for _, c := range combos {
			run(parallelLine(line, repl, c, true))
		}
		if dynArgs {
			run(parallelLine(line, repl, nil, false))
		}
	}
	return true, true
}

// parallelLine puts one combination of arguments into the command line;
// known false puts a variable, whose value is not known, instead.
func parallelLine(line, repl string, args []string, known bool) string {
	val := func(i int) string {
		if !known || i >= len(args) {
			return `"$PARALLEL_ARG"`
		}
		return shQuote(args[i])
	}
	all := func() string {
		if !known {
			return val(0)
		}
		q := make([]string, len(args))
		for i := range args {
			q[i] = val(i)
		}
		return strings.Join(q, " ")
	}
	found := false
	out := line
	for _, r := range append([]string{repl}, parallelReplace...) {
		if r == "" || !strings.Contains(out, r) {
			continue
		}
		found = true
		v := all()
		if len(r) == 3 && r[1] >= '1' && r[1] <= '9' {
			v = val(int(r[1] - '1'))
		}
		out = strings.ReplaceAll(out, r, v)
	}
	if !found {
		out += " " + all()
	}
	return out
}

// shQuote quotes s for a shell.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (string, string) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):]
	}
	return "", s
}

// editor: vim and its kin run ex commands given with -c, +CMD and
// --cmd; :!CMD, :r !CMD, :w !CMD and :%!CMD run a shell command. Plugins,
// modelines and scripts (-S) run code: runs_code. The files named are
// edited: written.
func (a *analyzer) editor(e *env, args []field) (bool, bool) {
	a.flag(action.FlagRunsCode)
	// vim's options are not clustered: -es is one option.
	vals := []string{"-c", "-S", "-u", "-U", "-i", "-w", "-W", "-s", "-t", "-T", "-q", "--cmd", "--startuptime",
		"--servername", "--remote", "--remote-silent", "--remote-wait", "--remote-send", "--remote-expr",
		"--remote-tab", "--log", "--socketid", "--listen"}
	var files []field
	for i := 0; i < len(args); i++ {
		f := args[i]
		switch {
		case f.dyn || !strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "+") || f.s == "-":
			files = append(files, f)
		case f.s == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(f.s, "+"):
			a.exCommand(e, field{s: f.s[1:]})
		case slices.Contains(vals, f.s):
			if i+1 >= len(args) {
				break
			}
			i++
			v := args[i]
			switch f.s {
			case "-c", "--cmd", "--remote-send", "--remote-expr":
				a.exCommand(e, v)
			case "-S", "-u", "-U":
				a.path(e, v, action.Read)
			case "-s":
				// A script of keys, or, in Ex mode, the first file.
				a.path(e, v, action.Read)
				files = append(files, v)
			case "-w", "-W", "--startuptime", "--log":
				a.path(e, v, action.Write)
			case "--remote", "--remote-silent", "--remote-wait", "--remote-tab":
				files = append(files, v)
			}
		}
	}
	for _, f := range files {
		a.path(e, f, action.Read)
		a.path(e, f, action.Write)
	}
	return false, true
}

// exCommand analyses the shell command of an ex command line.
func (a *analyzer) exCommand(e *env, c field) {
	if c.dyn {
		a.unresolved("cannot be analysed statically: an editor command " + c.s)
		return
	}
	rest := c.s
	for rest != "" {
		// A range (%, ., $, numbers, marks) is not modelled.
		s := strings.TrimLeft(rest, " \t:%.$0123456789,;'<>+-")
		for _, p := range []string{"silent! ", "silent ", "sil! ", "sil "} {
			s = strings.TrimPrefix(s, p)
		}
		for _, p := range []string{"r !", "r!", "read !", "read!", "w !", "w!", "write !", "!"} {
			if cmd, ok := strings.CutPrefix(s, p); ok {
				// The rest of the line, bars included, is the command.
				a.shellString(e, []field{{s: cmd}})
				return
			}
		}
		if strings.Contains(s, "system") || strings.HasPrefix(s, "exe") || strings.HasPrefix(s, "ter") ||
			strings.HasPrefix(s, "py") || strings.HasPrefix(s, "lua") || strings.HasPrefix(s, "perl") || strings.HasPrefix(s, "rub") ||
			strings.HasPrefix(s, "so") || strings.HasPrefix(s, "norm") || strings.HasPrefix(s, "call") {
			a.unresolved("cannot be analysed statically: the editor command " + c.s)
			return
		}
		_, rest, _ = strings.Cut(s, "|")
	}
}
