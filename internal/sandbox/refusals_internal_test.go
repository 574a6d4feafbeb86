// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"strings"
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
		masks: []string{"/p/.env", "/h/.ssh", "/p/sub\xff/.env"},
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
		{"a name coreutils quotes for the shell", "cat: 'sub'$'\\377''/.env': Permission denied\ncat: '/h/.ssh/'$'\\n''x': Permission denied\n",
			[]audit.Refusal{{Path: "/p/sub\xff/.env", Kind: audit.RefusedMasked, Error: "Permission denied"}, {Path: "/h/.ssh", Kind: audit.RefusedMasked, Error: "Permission denied"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := findRefusals(v, spec, "/p", tt.stderr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findRefusals(%q) (-want +got):\n%s", tt.stderr, diff)
			}
		})
	}
}

// FuzzUnshellQuote: any name quoted as coreutils quotes it for the
// shell (shell-escape) is read back as it was, and no word panics.
func FuzzUnshellQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "sub\xff/.env", "a'b", "\n\t\a", "\x00\x7f\x80", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		unshellQuote(name)
		w, escaped := shellEscape(name)
		got, ok := unshellQuote(w)
		if !ok || got != name {
			t.Fatalf("unshellQuote(%s) = %q, %v; want %q", w, got, ok, name)
		}
		if !escaped {
			return // quoted plainly: quotedPath's to find
		}
		found := shellQuoted().FindAllString("cat: "+w+": Permission denied", -1)
		if len(found) != 1 || found[0] != w {
			t.Fatalf("shellQuoted finds %q in a line naming %s", found, w)
		}
	})
}

// shellEscape quotes name as coreutils' shell-escape-always style does:
// printable runs in single quotes, the rest in $'…' with C or octal
// escapes, and a quote as \'. escaped reports a $'…' part.
func shellEscape(name string) (w string, escaped bool) {
	var b strings.Builder
	plain := func(c byte) bool { return c >= 0x20 && c < 0x7f && c != '\'' }
	for i := 0; i < len(name); {
		if plain(name[i]) {
			j := i
			for j < len(name) && plain(name[j]) {
				j++
			}
			b.WriteString("'" + name[i:j] + "'")
			i = j
			continue
		}
		b.WriteString("$'")
		escaped = true
		for ; i < len(name) && !plain(name[i]); i++ {
			switch c := name[i]; c {
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\'':
				b.WriteString(`\'`)
			default:
				fmt.Fprintf(&b, `\%03o`, c)
			}
		}
		b.WriteString("'")
	}
	if b.Len() == 0 {
		return "''", false
	}
	return b.String(), escaped
}
