// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds GNU parallel, the repeater that rebuilds its command
// line for every combination of its arguments and runs it with a shell:
// each line is analysed as shell code, for up to maxParallelArgs
// combinations; arguments not known here (read from a file or standard
// input) stand as a variable. watch and entr, which rerun the command
// they are given, are peeled with the grammars of wrappers.go.

import (
	"slices"
	"strings"

	"warden.dev/warden/internal/action"
)

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
