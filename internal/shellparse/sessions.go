// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the wrappers that drive an interactive program with
// text: session managers that type keys into a shell (tmux, screen,
// expect), script, which records a session, and the editors of the vim
// family, which run ex commands. The commands they start, the shell
// commands an ex command runs and the text typed into a terminal are
// analysed as shell code; typed text runs in the terminal's shell, whose
// working directory is not known here.

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

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

// tmuxKeys are the key names send-keys turns into characters a shell
// reads as text: Enter submits a line; C-c, C-u and C-d end it (what was
// typed is analysed all the same). Other keys edit the line or recall
// history (BSpace, Tab, Up, C-r): the text run is then unknown.
var tmuxKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{"Enter": "\n", "C-m": "\n", "KPEnter": "\n", "C-j": "\n", "Space": " ",
		"C-c": "\n", "C-u": "\n", "C-d": "\n", "C-l": ""}
})

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
			if t, ok := tmuxKeys()[k.s]; ok && !hasOpt(opts, "-l") {
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
