// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import "warden.dev/warden/internal/action"

// The consoles family: programs that run shell commands their input or
// arguments give them, in a language of their own (ed's and dc's "!",
// sqlite3's .shell and .system, mysql's system, psql's \!, ftp's and
// lftp's "!"), or what a directory or the desktop's defaults hold.
// Each runs code, however it is spelled and whatever it is given.
func init() {
	runs := want{flags: []action.Flag{action.FlagRunsCode}, prompt: true}
	allFamilies["consoles"] = []member{
		{cmd: "ed -s notes.txt", want: runs},
		{cmd: "ed notes.txt < cmds.txt", want: runs, plain: true},
		{cmd: "dc -e '!id'", want: runs},
		{cmd: "dc script.dc", want: runs},
		{cmd: "sqlite3 x.db '.system id'", want: runs},
		{cmd: "sqlite3 -cmd '.shell id' x.db", want: runs},
		{cmd: "sqlite3 x.db < cmds.sql", want: runs, plain: true},
		{cmd: "sqlite x.db", want: runs},
		{cmd: "mysql -e 'system id'", want: runs},
		{cmd: "mariadb -e 'system id'", want: runs},
		{cmd: "psql -c '\\! id'", want: runs},
		{cmd: "ftp h.example", want: want{classes: []action.Class{action.NetworkEgress}, flags: []action.Flag{action.FlagRunsCode}, prompt: true}},
		{cmd: "lftp h.example", want: runs},
		{cmd: "run-parts .", want: runs},
		{cmd: "xdg-open notes.txt", want: runs},
		{cmd: "gio open notes.txt", want: runs},
		{cmd: "zip x.zip notes.txt -T -TT 'sh -c id'", want: runs},
		{cmd: "zip --unzip-command='sh -c id' -T x.zip notes.txt", want: runs},
	}
}
