// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
)

func TestFindRefusals(t *testing.T) {
	v := view{
		binds: []bind{
			{Path: "/p", Writable: true, Dir: true},
			{Path: "/p/.git", Writable: true, Dir: true}, // a pin
			{Path: "/p/.git/config"},
			{Path: "/p/.git/hooks", Dir: true},
		},
		masks: []string{"/p/.env", "/h/.ssh"},
	}
	spec := Spec{Project: "/p", Home: "/h"}
	for _, tt := range []struct {
		name, stderr string
		want         []audit.Refusal
	}{
		{"dash", "sh: 1: cannot create .env: Read-only file system\n",
			[]audit.Refusal{{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Read-only file system"}}},
		{"mv over, quoted", "mv: cannot move 'x' to '.env': Device or resource busy\n",
			[]audit.Refusal{{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Device or resource busy"}}},
		{"python", "PermissionError: [Errno 13] Permission denied: './.env'\n",
			[]audit.Refusal{{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Permission denied"}}},
		{"below a masked directory, curly quotes", "mkdir: cannot create directory ‘/h/.ssh/d’: Permission denied\n",
			[]audit.Refusal{{Path: "/h/.ssh", Kind: audit.RefusedMasked, Error: "Permission denied"}}},
		{"protected", "sh: 2: cannot create .git/config: Read-only file system\nbash: .git/hooks/pre-commit: Read-only file system\n",
			[]audit.Refusal{{Path: "/p/.git/config", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}, {Path: "/p/.git/hooks", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}}},
		{"listed once", "cat: .env: Permission denied\nrm: cannot remove '.env': Device or resource busy\n",
			[]audit.Refusal{{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Permission denied"}}},
		{"sed -i: its temporary file, next to the protected one", "sed: cannot rename .git/sedsMOJKe: Device or resource busy\n",
			[]audit.Refusal{{Path: "/p/.git/config", Kind: audit.RefusedReadOnly, Error: "Device or resource busy"}}},
		{"sed -i in the project", "sed: cannot rename ./sedAb12Cd: Device or resource busy\n",
			[]audit.Refusal{{Path: "/p/.env", Kind: audit.RefusedMasked, Error: "Device or resource busy"}}},
		{"outside the writable roots: the path named", "touch: cannot touch '/etc/x': Read-only file system\nsh: 1: cannot create /usr/foo: Read-only file system\nOSError: [Errno 30] Read-only file system: '/opt/a b'\ntouch: cannot touch '/etc/x': Read-only file system\n",
			[]audit.Refusal{{Path: "/etc/x", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}, {Path: "/usr/foo", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}, {Path: "/opt/a b", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}}},
		{"outside, relative", "sh: 1: cannot create ../up: Read-only file system\n",
			[]audit.Refusal{{Path: "/up", Kind: audit.RefusedReadOnly, Error: "Read-only file system"}}},
		{"EROFS in a writable root is not the sandbox's", "cp: cannot create regular file '/p/sub/x': Read-only file system\n", nil},
		{"EACCES outside is not the sandbox's", "touch: cannot touch '/etc/x': Permission denied\n", nil},
		{"EBUSY elsewhere", "umount: /mnt: Device or resource busy\n", nil},
		{"EACCES below a read-only bind is the file's own", "cat: .git/hooks/secret: Permission denied\n", nil},
		{"a writable path is no refusal", "sh: cannot create .git/x: Permission denied\n", nil},
		{"no error on the line", "reading .env and .git/config\n", nil},
		{"another error", "cp: cannot stat '.env': No such file or directory\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := findRefusals(v, spec, "/p", tt.stderr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findRefusals(%q) (-want +got):\n%s", tt.stderr, diff)
			}
		})
	}
}
