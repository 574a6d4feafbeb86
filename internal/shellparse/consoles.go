// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the consoles family: programs that run shell commands
// their input or their arguments give them, in a language of their own
// that this analysis does not read (ed's and dc's "!", sqlite3's .shell,
// .system and .load, mysql's system and \!, psql's \!, lftp's "!"; ftp's, a network
// client's, is in network.go), or
// whatever a directory or the desktop's defaults hold (run-parts,
// xdg-open and its kin). Each is runs_code, whatever else it is given:
// uncontained it needs approval, contained it runs. Their operands are
// looked at as any program's are (the sensitive floor, a command line
// given whole). What is typed into a console after it started (an
// agent's terminal session) is never seen by a hook: this is what makes
// starting one a question.

import "warden.dev/warden/internal/action"

// consoles are the programs of this family.
var consoles = []string{
	"ed", "dc",
	"sqlite3", "sqlite", "mysql", "mariadb", "psql",
	"lftp",
	"run-parts",
	"xdg-open", "gio", "kde-open", "kde-open5", "gnome-open", "sensible-browser", "x-www-browser", "www-browser",
}

func consolePrograms() map[string]handler {
	m := map[string]handler{}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.flag(action.FlagRunsCode)
		a.unknownProgram(e, c.args)
		return false, true
	}, consoles...)
	return m
}
