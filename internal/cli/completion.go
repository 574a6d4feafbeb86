// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// This file makes shell completions and manual pages from the one source
// of every command's help: its --help output. Nothing is written twice,
// so they cannot drift from what --help says (TestCompletionAndMan).

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"warden.dev/warden/internal/safefile"
)

// helpOf runs "warden ARGS --help" and returns what it printed.
func helpOf(args ...string) string {
	var b bytes.Buffer
	out, errw := Stdout, Stderr
	Stdout, Stderr = &b, &b
	defer func() { Stdout, Stderr = out, errw }()
	Run(context.Background(), append(append([]string(nil), args...), "--help"))
	return b.String()
}

// flagLine is a flag in the flag package's listing: "  -name value".
var flagLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^  -([a-zA-Z][\w-]*)(?: (\S+))?$`) })

// leaf is a command that takes flags: its words and its flags (with
// whether each takes a file).
type leaf struct {
	words []string
	flags []string
	files bool // its arguments or a flag's value are files
}

// leaves lists every command that takes flags, from the command table,
// the groups' subcommands and each one's --help.
func leaves() []leaf {
	groups := map[string][][2]string{"policy": policyGroup.subs, "net": netSubcommands, "hook": hookGroup().subs}
	var words [][]string
	for _, c := range commands() {
		subs, ok := groups[c.name]
		if !ok {
			words = append(words, []string{c.name})
			continue
		}
		for _, s := range subs {
			words = append(words, []string{c.name, s[0]})
		}
	}
	var out []leaf
	for _, w := range words {
		help := helpOf(w...)
		l := leaf{words: w, files: strings.Contains(help, "FILE")}
		for _, m := range flagLine().FindAllStringSubmatch(help, -1) {
			l.flags = append(l.flags, "--"+m[1])
		}
		out = append(out, l)
	}
	return out
}

func runCompletion(ctx context.Context, args []string) error {
	fs := newFlags("completion", "completion bash|zsh|fish")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return badInput("completion needs one shell: bash, zsh or fish",
			"load it with: source <(warden completion bash), or save warden completion fish to ~/.config/fish/completions/warden.fish")
	}
	switch rest[0] {
	case "bash":
		writeBash(Stdout, leaves(), false)
	case "zsh":
		writeBash(Stdout, leaves(), true)
	case "fish":
		writeFish(Stdout, leaves())
	default:
		return badInput(fmt.Sprintf("no completion for %q (want bash, zsh or fish)", rest[0]), suggest("warden completion ", rest[0], []string{"bash", "zsh", "fish"}))
	}
	return nil
}

// writeBash writes a bash completion function (for zsh, loaded through
// bashcompinit): commands, subcommands, each command's flags, and files
// where a command takes them.
func writeBash(w io.Writer, ls []leaf, zsh bool) {
	if zsh {
		fmt.Fprintln(w, "#compdef warden\nautoload -U +X bashcompinit && bashcompinit")
	}
	var top []string
	subs := map[string][]string{}
	for _, l := range ls {
		if !slices.Contains(top, l.words[0]) {
			top = append(top, l.words[0])
		}
		if len(l.words) > 1 {
			subs[l.words[0]] = append(subs[l.words[0]], l.words[1])
		}
	}
	top = append(top, "help")
	fmt.Fprintln(w, "_warden() {")
	fmt.Fprintln(w, `	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} sub=${COMP_WORDS[2]}`)
	fmt.Fprintln(w, "	if [ \"$COMP_CWORD\" -eq 1 ]; then")
	fmt.Fprintf(w, "\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\")); return\n", strings.Join(top, " "))
	fmt.Fprintln(w, "\tfi")
	fmt.Fprintln(w, "\tcase \"$cmd\" in")
	for _, name := range top {
		if s, ok := subs[name]; ok {
			fmt.Fprintf(w, "\t%s)\n\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return; fi\n\t\tcase \"$sub\" in\n", name, strings.Join(s, " "))
			for _, l := range ls {
				if len(l.words) == 2 && l.words[0] == name {
					fmt.Fprintf(w, "\t\t%s) _warden_words %q %t ;;\n", l.words[1], strings.Join(l.flags, " "), l.files)
				}
			}
			fmt.Fprintln(w, "\t\tesac ;;")
			continue
		}
		for _, l := range ls {
			if len(l.words) == 1 && l.words[0] == name {
				fmt.Fprintf(w, "\t%s) _warden_words %q %t ;;\n", name, strings.Join(l.flags, " "), l.files)
			}
		}
	}
	fmt.Fprintf(w, "\thelp) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", strings.Join(top, " "))
	fmt.Fprintln(w, "\tesac\n}")
	fmt.Fprintln(w, `_warden_words() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$1" -- "$cur"))
	elif [ "$2" = true ]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -F _warden warden`)
}

// writeFish writes fish completions: commands, subcommands and flags.
func writeFish(w io.Writer, ls []leaf) {
	fmt.Fprintln(w, "complete -c warden -f")
	seen := map[string]bool{}
	for _, l := range ls {
		if !seen[l.words[0]] {
			seen[l.words[0]] = true
			fmt.Fprintf(w, "complete -c warden -n __fish_use_subcommand -a %s\n", l.words[0])
		}
		cond := "__fish_seen_subcommand_from " + l.words[0]
		if len(l.words) == 2 {
			fmt.Fprintf(w, "complete -c warden -n %q -a %s\n", cond, l.words[1])
			cond += "; and __fish_seen_subcommand_from " + l.words[1]
		}
		for _, f := range l.flags {
			fmt.Fprintf(w, "complete -c warden -n %q -l %s\n", cond, strings.TrimPrefix(f, "--"))
		}
		if l.files {
			fmt.Fprintf(w, "complete -c warden -n %q -F\n", cond)
		}
	}
}

func runMan(ctx context.Context, args []string) error {
	fs := newFlags("man", "man [--dir DIR] [COMMAND [SUBCOMMAND]]")
	dir := fs.String("dir", "", "write every page into `DIR` (warden.1, warden-run.1, …) instead of printing one")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		writeMan(Stdout, rest)
		return nil
	}
	if len(rest) > 0 {
		return badInput("man --dir writes every page: give no command")
	}
	pages := [][]string{nil}
	for _, l := range leaves() {
		pages = append(pages, l.words)
	}
	for _, words := range pages {
		var b bytes.Buffer
		writeMan(&b, words)
		name := strings.Join(append([]string{"warden"}, words...), "-") + ".1"
		if err := safefile.WriteFile(filepath.Join(*dir, name), b.Bytes(), 0o644); err != nil {
			return badInput(fmt.Sprintf("man --dir: %v", err))
		}
	}
	return nil
}

// writeMan writes the manual page of warden (words empty) or of one of
// its commands, in roff: the command's --help, as it prints it.
func writeMan(w io.Writer, words []string) {
	title := strings.ToUpper(strings.Join(append([]string{"warden"}, words...), "-"))
	date := time.Now().UTC().Format("2006-01-02")
	fmt.Fprintf(w, ".TH %s 1 %s Warden\n", title, date)
	name := strings.Join(append([]string{"warden"}, words...), " ")
	fmt.Fprintf(w, ".SH NAME\n%s\n", roff(name))
	var help string
	if len(words) == 0 {
		var b bytes.Buffer
		usage(&b)
		help = b.String()
	} else {
		help = helpOf(words...)
	}
	fmt.Fprintf(w, ".SH DESCRIPTION\n.nf\n%s.fi\n", roff(help))
	if len(words) == 0 {
		fmt.Fprintln(w, ".SH SEE ALSO")
		var pages []string
		for _, l := range leaves() {
			pages = append(pages, "warden-"+strings.Join(l.words, "-")+"(1)")
		}
		fmt.Fprintln(w, strings.Join(pages, ", "))
	}
}

// roff escapes text for a roff page: backslashes, and a line starting
// with a dot or a quote.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
