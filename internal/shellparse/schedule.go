// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the programs of the file tools family (files.go) that
// make code run later, outside the caller's containment: crontab, at and
// batch, systemd-run, systemctl and launchctl. Queueing or installing a
// job writes where the scheduler keeps it and is runs_code, in the
// background; a literal job is analysed as shell code; a system unit is
// privilege_escalation; listing only reads.

import (
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

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
var systemctlRead = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"status": true, "show": true, "cat": true, "list-units": true, "list-unit-files": true, "list-timers": true,
		"list-sockets": true, "list-dependencies": true, "list-jobs": true, "list-machines": true, "list-paths": true,
		"list-automounts": true, "is-active": true, "is-enabled": true, "is-failed": true, "is-system-running": true,
		"help": true, "get-default": true, "show-environment": true, "--version": true,
	}
})

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
	if verb == "" || systemctlRead()[verb] {
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
