// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// inlineLangs are the scanner's languages, indexed by the fuzz input.
var inlineLangs = []string{langPython, langJS, langPerl, langRuby, langPHP, langLua, langOSA}

// TestScanInline checks what the scanner finds in one program.
func TestScanInline(t *testing.T) {
	type res struct {
		Cmds   []string
		Opaque int
		Net    bool
		Hosts  []string
	}
	for _, tc := range []struct {
		lang, src string
		want      res
	}{
		{langPython, `import os; os.system("git push")`, res{Cmds: []string{"git push"}}},
		{langPython, `os.system('git push')  # done`, res{Cmds: []string{"git push"}}},
		{langPython, `os.system("""git push""")`, res{Cmds: []string{"git push"}}},
		{langPython, `os.system("git " "push")`, res{Cmds: []string{"git push"}}},
		{langPython, `os.system("\x67it push")`, res{Cmds: []string{"git push"}}},
		{langPython, `os.system(r"echo \n")`, res{Cmds: []string{`echo \n`}}},
		{langPython, `subprocess.run(["git", "push"], check=True)`, res{Cmds: []string{"'git' 'push'"}}},
		{langPython, `subprocess.run("git push", shell=True)`, res{Cmds: []string{"git push"}}},
		{langPython, `subprocess.run(["docker", "exec", "c"]) # exec(x)`, res{Cmds: []string{"'docker' 'exec' 'c'"}, Opaque: 1}},
		{langPython, `os.system("python3 -c 'import os; os.system(0)'")`, res{Cmds: []string{"python3 -c 'import os; os.system(0)'"}}},
		{langPython, `print("a \" os.system(x) \" b")`, res{Opaque: 1}},
		{langPython, `x = "\\"; os.system(y)`, res{Opaque: 1}},
		{langPython, `print(f"{{x}}")`, res{}},
		{langPython, `os.system(f"{x}")`, res{Opaque: 1}},
		{langPython, `exec("os.system('ls')")`, res{Cmds: []string{"ls"}}},
		{langPython, `exec(open("x.py").read())`, res{}},
		{langPython, `exec(open(f).read())`, res{Opaque: 1}},
		{langPython, `exec(open("x.py").read() + y)`, res{Opaque: 1}},
		{langPython, `import requests; requests.get("https://Example.COM:8443/p")`, res{Net: true, Hosts: []string{"example.com"}}},
		{langJS, `require('child_process').execSync('ls -l')`, res{Cmds: []string{"ls -l"}}},
		{langJS, "const s = `x`; require('child_process').execSync(s)", res{Opaque: 1}},
		{langJS, `/* execSync("x") */ console.log(1)`, res{Opaque: 1}},
		{langJS, `// child_process` + "\n" + `console.log(1)`, res{Opaque: 1}},
		{langJS, `Deno.run({cmd: ["git", "push"]})`, res{Cmds: []string{"'git' 'push'"}}},
		{langPerl, `system("ls") or die`, res{Cmds: []string{"ls"}}},
		{langPerl, `print qq{$x}`, res{}},
		{langPerl, `my @a = qw(a b); system @a`, res{Opaque: 1}},
		{langPerl, `print "\$x"; system('ls')`, res{Cmds: []string{"ls"}}},
		{langPerl, `s/"/x/g; system("ls")`, res{Cmds: []string{"ls"}}},
		{langPerl, `$#a; system("ls")`, res{Cmds: []string{"ls"}}},
		{langRuby, `system 'ls'`, res{Cmds: []string{"ls"}}},
		{langRuby, `x = %q(system); puts x`, res{}},
		{langRuby, `exec("ls")`, res{Cmds: []string{"ls"}}},
		{langPHP, `echo "$x"; system('ls');`, res{Cmds: []string{"ls"}}},
		{langPHP, `$pdo->exec("DROP TABLE x");`, res{}},
		{langPHP, `popen("ls", "r");`, res{Cmds: []string{"ls"}}},
		{langJS, `require("child_process").execSync("git push", "utf8")`, res{Cmds: []string{"git push", "'git push' 'utf8'"}}},
		{langRuby, `system("git", "push")`, res{Cmds: []string{"'git' 'push'"}}},
		{langLua, `os.execute([[git push]])`, res{Cmds: []string{"git push"}}},
		{langLua, `--[[ os.execute("x") ]] print(1)`, res{Opaque: 1}},
		{langLua, `load("os.execute('ls')")()`, res{Cmds: []string{"ls"}}},
		{langOSA, `do shell script "ls" with administrator privileges`, res{Cmds: []string{"ls"}}},
		{langOSA, `(* do shell script "x" *) beep`, res{Opaque: 1}},
		{langPython, strings.Repeat("x", maxInline+1), res{Opaque: 1}},
	} {
		r := scanInline(tc.lang, tc.src)
		got := res{Cmds: r.cmds, Opaque: len(r.opaque), Net: r.net, Hosts: r.hosts}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("scanInline(%s, %q) (-want +got):\n%s\nopaque: %q", tc.lang, tc.src, diff, r.opaque)
		}
	}
}

// FuzzInline checks the scanner alone, for any program in any of its
// languages: it does not panic; it is deterministic; its work and output
// are bounded; a program over the size limit is opaque and starts
// nothing. Seeds are in testdata/fuzz/FuzzInline.
func FuzzInline(f *testing.F) {
	for k, src := range []string{
		`import os; os.system("git push")`,
		`require("child_process").spawn("git", ["push"])`,
		`open(F, "|-", "git", "push"); print qq{$x} =~ s/a/b/r`,
		`%x(ls); system("a #{b}"); :sym`,
		`$f("x"); echo ` + "`ls`;",
		`os.execute([==[ls]==]) --[[ c ]]`,
		`do shell script "ls" & x`,
	} {
		f.Add(byte(k), src)
	}
	f.Fuzz(func(t *testing.T, l byte, src string) {
		lang := inlineLangs[int(l)%len(inlineLangs)]
		r := scanInline(lang, src)
		again := scanInline(lang, src)
		if !reflect.DeepEqual(r, again) {
			t.Fatalf("scanInline(%s, %q) is not deterministic:\n%+v\n%+v", lang, src, r, again)
		}
		if len(r.cmds) > maxInlineCmds || len(r.opaque) > 8 || len(r.hosts) > 16 {
			t.Fatalf("scanInline(%s, %q): %d commands, %d opaque, %d hosts", lang, src, len(r.cmds), len(r.opaque), len(r.hosts))
		}
		size := 0
		for _, c := range r.cmds {
			size += len(c)
		}
		// A command is a decoded string of the program, or an argument
		// vector with each element quoted; eval("…") reads it again.
		if size > (maxInlineDepth+1)*(5*len(src)+16) {
			t.Fatalf("scanInline(%s, %q): %d bytes of commands from %d bytes", lang, src, size, len(src))
		}
		if len(src) > maxInline && (len(r.cmds) > 0 || len(r.opaque) == 0) {
			t.Fatalf("scanInline(%s, …%d bytes): an oversized program is not opaque", lang, len(src))
		}
	})
}
