// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"warden.dev/warden/internal/shellparse"
)

// Analyze runs full shell analysis (package shellparse) on a bash command
// and returns what the request needs of it.
func Analyze(command, cwd, home string) Shell {
	an := shellparse.Analyze(command, shellparse.Options{Cwd: cwd, Home: home})
	s := Shell{
		Classes:    an.Classes,
		Commands:   an.Commands(),
		Hosts:      an.Hosts,
		Refs:       an.Refs,
		Flags:      an.Flags,
		Unresolved: an.Unresolved,
		Detail:     an,
	}
	for _, p := range an.Paths {
		s.Paths = append(s.Paths, ShellPath{Path: p.Path, Access: p.Access, Recursive: p.Recursive})
	}
	return s
}
