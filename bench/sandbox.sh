#!/usr/bin/env bash
# Times `warden run -- /bin/true` beside a bare /bin/true, two bubblewrap
# lines, Anthropic's sandbox-runtime (srt) and `codex sandbox`, in one run,
# and shows where warden's time and memory go:
#
#   1. wall-clock per invocation: N rounds, each running every line once in
#      a rotating order (the first 3 rounds are warm-up and dropped), with
#      an idle gap after each run (WARDEN_BENCH_GAP, default 20ms: an
#      agent's tool calls are spaced, and a run that follows another at
#      once finds part of the kernel's work done); median, p10, p90 and
#      ratios, with the goals: warden ≤ 1.5× the bwrap line with the
#      boundaries bubblewrap can give (read-only root, /dev, /proc, private
#      /tmp and home, all namespaces, no nested user namespaces, no
#      capabilities, a new session, a clean environment, prlimit, timeout),
#      ≤ 2× a bare `bwrap --ro-bind / / --unshare-all true`, ≥ 20× faster
#      than srt;
#   2. the median of each setup stage from WARDEN_SANDBOX_TRACE=1, as is
#      and with --degraded=cgroup (runs taking turns), the start-up cost
#      of a Go process (`warden version` beside /bin/true), and what
#      moving a process into a cgroup v1 costs on this host;
#   3. peak memory during `… sleep 1`: warden's supervisor and init (VmHWM),
#      and the whole process tree of each peer (summed RSS every 50 ms).
#
#   bench/sandbox.sh [N]      (default N=100; run as root on Linux)
#
# Missing peers are installed once, outside the repository: bubblewrap,
# socat and ripgrep with apt-get (srt needs all three), srt
# (@anthropic-ai/sandbox-runtime) and codex (@openai/codex) with
# `npm install --prefix ~/.cache/warden-bench/npm` (WARDEN_BENCH_CACHE
# moves it). A peer that cannot be installed or run is shown as
# "unavailable: <why>" and the others are still timed.
#
# Timing is done by bench/proctime, a small Go program that fork-execs
# each command and waits for it, rather than `date +%s%N` around each
# command in bash: date is two more processes per sample, which on a busy
# 2-core VM adds as much noise as the whole bwrap line costs, and
# hyperfine runs one command's samples back to back, where this bench
# needs every line interleaved in each round so that load changes hit all
# lines alike; layer costs and other differences are the median of the
# differences within each round. Warden is built as the README builds it
# (CGO_ENABLED=0: static, without the libc start-up that cgo brings); the
# what-if lines time `warden version` and the same warden built with cgo. The lines run in a project directory under
# /var/tmp (warden and srt replace /tmp), srt with a settings file
# allowing writes to the project and no network, codex with CODEX_HOME
# under the cache (codex refuses a CODEX_HOME under /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
warmup=3
gap=${WARDEN_BENCH_GAP:-20ms}
cache=${WARDEN_BENCH_CACHE:-$HOME/.cache/warden-bench}
tmp=$(mktemp -d)
project=$(mktemp -d /var/tmp/warden-bench-XXXXXX)
trap 'rm -rf "$tmp" "$project"' EXIT

echo "== build"
# As the README builds it (static, CGO_ENABLED=0); the what-if lines time
# a cgo build too.
CGO_ENABLED=0 go build -o "$tmp/warden.linked" ./cmd/warden
CGO_ENABLED=1 go build -o "$tmp/warden-cgo.linked" ./cmd/warden
go build -o "$tmp/proctime" ./bench/proctime
# Timed as an installed binary is, not as the linker left it: the Go
# linker writes its output through a memory mapping, which leaves it in
# the page cache as single pages, and every process of it then takes
# more, smaller page faults to start (and unmaps more at its exit) than
# it does once the file is read back from disk or written by an
# installer (dpkg, cp): about 0.4 ms a process here. bwrap, srt and codex
# are timed as their packages installed them.
cp "$tmp/warden.linked" "$tmp/warden"
cp "$tmp/warden-cgo.linked" "$tmp/warden-cgo"

echo "== peers"
declare -A why # line label -> why it is unavailable

# apt_need CMD PACKAGE: installs PACKAGE with apt-get unless CMD exists;
# on failure sets $reason.
apt_need() {
	local cmd=$1 pkg=$2
	command -v "$cmd" > /dev/null && return 0
	if ! command -v apt-get > /dev/null; then
		reason="$cmd not found and no apt-get to install $pkg"
		return 1
	fi
	if ! { apt-get install -y -qq "$pkg" || { apt-get update -qq && apt-get install -y -qq "$pkg"; }; } > "$tmp/apt.log" 2>&1; then
		reason="apt-get install $pkg failed: $(tail -n 1 "$tmp/apt.log")"
		return 1
	fi
	echo "installed: $pkg (apt-get)"
}

# npm_need PACKAGE BIN: installs PACKAGE into the cache unless BIN is
# there; on failure sets $reason.
npm_need() {
	local pkg=$1 bin=$cache/npm/node_modules/.bin/$2
	[ -x "$bin" ] && return 0
	if ! command -v npm > /dev/null; then
		reason="npm not found (Node.js is needed to install $pkg)"
		return 1
	fi
	mkdir -p "$cache/npm"
	if ! npm install --prefix "$cache/npm" --no-audit --no-fund "$pkg" > "$tmp/npm.log" 2>&1; then
		reason="npm install $pkg failed: $(grep -m 1 -i err "$tmp/npm.log" || tail -n 1 "$tmp/npm.log")"
		return 1
	fi
	echo "installed: $pkg into $cache/npm (npm)"
}

reason=
if apt_need bwrap bubblewrap; then
	echo "bwrap: $(command -v bwrap), $(bwrap --version)"
else
	why[bwrap]=$reason
fi
srt=$cache/npm/node_modules/.bin/srt
reason=
if apt_need bwrap bubblewrap && apt_need socat socat && apt_need rg ripgrep && npm_need @anthropic-ai/sandbox-runtime srt; then
	echo "srt: $srt, $("$srt" --version) (node $(node --version))"
else
	why[srt]=$reason
fi
codex=$cache/npm/node_modules/.bin/codex
reason=
if npm_need @openai/codex codex; then
	echo "codex: $codex, $("$codex" --version 2>/dev/null)"
else
	why[codex]=$reason
fi
export CODEX_HOME=$cache/codex-home
mkdir -p "$CODEX_HOME"
cat > "$tmp/srt-settings.json" <<'JSON'
{
  "network": {"allowedDomains": [], "deniedDomains": []},
  "filesystem": {"denyRead": [], "allowWrite": ["."], "denyWrite": []}
}
JSON

# Each warden line names its state directory: cold has no warden serve,
# so every run starts its own sandbox and opens the store; warm has one,
# which keeps a sandbox started for the next run and holds the store
# (serve's own socket paths must stay short, hence not under $tmp's
# long name).
cold=$tmp/cold
warm=$(mktemp -d /tmp/wbs-XXXXXX)
mkdir -p "$cold"
WARDEN_STATE_DIR=$warm "$tmp/warden" serve > "$tmp/serve.log" 2>&1 &
serve=$!
trap 'kill $serve 2> /dev/null; wait $serve 2> /dev/null; rm -rf "$tmp" "$project" "$warm"' EXIT
for ((i = 0; i < 100; i++)); do
	[ -S "$warm/warden.sock" ] && break
	sleep 0.05
done
if ! grep -q "a sandbox kept started" "$tmp/serve.log"; then
	why[warm]="warden serve keeps no sandbox started: $(tail -n 1 "$tmp/serve.log")"
fi

# The lines, in table order: label, title, command (tab-separated argv;
# NAME=value words first set its environment).
labels=(true bwrap bwrapfull warden warm nolandlock noseccomp nocgroup srt codex)
extras=(version warden0 version0)
declare -A title=(
	[true]="bare /bin/true"
	[bwrap]="bwrap, bare"
	[bwrapfull]="bwrap, all it can bound"
	[warden]="warden run"
	[warm]="warden run, warden serve running"
	[nolandlock]="warden run --degraded=landlock"
	[noseccomp]="warden run --degraded=seccomp"
	[nocgroup]="warden run --degraded=cgroup"
	[srt]="srt"
	[codex]="codex sandbox -P :workspace"
	[version]="warden version"
	[warden0]="warden run, cgo build (CGO_ENABLED=1)"
	[version0]="warden version, cgo build"
)
declare -A argv=(
	[true]="/bin/true"
	[bwrap]="bwrap --ro-bind / / --unshare-all /bin/true"
	[bwrapfull]="timeout 600 prlimit --nofile=1024 --nproc=1024 --core=0 -- bwrap --unshare-all --unshare-user --disable-userns --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs $HOME --bind $project $project --chdir $project --hostname warden --cap-drop ALL --die-with-parent --new-session --clearenv --setenv PATH /usr/bin:/bin /bin/true"
	[warden]="WARDEN_STATE_DIR=$cold $tmp/warden run -- /bin/true"
	[warm]="WARDEN_STATE_DIR=$warm $tmp/warden run -- /bin/true"
	[nolandlock]="WARDEN_STATE_DIR=$cold $tmp/warden run --degraded=landlock -- /bin/true"
	[noseccomp]="WARDEN_STATE_DIR=$cold $tmp/warden run --degraded=seccomp -- /bin/true"
	[nocgroup]="WARDEN_STATE_DIR=$cold $tmp/warden run --degraded=cgroup -- /bin/true"
	[srt]="$srt --settings $tmp/srt-settings.json -- /bin/true"
	[codex]="$codex sandbox -P :workspace -- /bin/true"
	[version]="$tmp/warden version"
	[warden0]="WARDEN_STATE_DIR=$cold $tmp/warden-cgo run -- /bin/true"
	[version0]="$tmp/warden-cgo version"
)

# Each line must succeed once, in the project, before it is timed.
cd "$project"
: > "$tmp/lines"
for l in "${labels[@]}" "${extras[@]}"; do
	[ -n "${why[$l]:-}" ] && continue
	st=0
	# shellcheck disable=SC2086 # argv is split on purpose
	env ${argv[$l]} < /dev/null > /dev/null 2> "$tmp/check.err" || st=$?
	if [ "$st" != 0 ]; then
		why[$l]="exits with status $st: $(tail -n 1 "$tmp/check.err")"
		continue
	fi
	printf '%s\t%s\n' "$l" "${argv[$l]// /$'\t'}" >> "$tmp/lines"
done
for l in "${labels[@]}"; do
	[ -n "${why[$l]:-}" ] && echo "${title[$l]}: unavailable: ${why[$l]}"
done

echo
echo "== wall-clock, $n rounds of every line in rotating order ($warmup warm-up rounds dropped, $gap idle after each run), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/proctime" time -rounds "$n" -warmup "$warmup" -gap "$gap" -samples "$tmp/samples" \
	-pairs warden:nolandlock,warden:noseccomp,warden:nocgroup,warden:warm,warden0:warden,version0:version,version:true "$tmp/lines" > "$tmp/times"
declare -A med p10 p90 fails diff
while read -r l m a b c f; do
	if [ "$l" = pair ]; then
		diff[$m:$a]="$b $c $f" # median p25 p75 of A − B per round
		continue
	fi
	med[$l]=$m p10[$l]=$a p90[$l]=$b fails[$l]=$f
done < "$tmp/times"

ms() { awk -v u="$1" 'BEGIN {printf "%.2f", u / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}'; }
printf '%-34s %10s %9s %9s %9s\n' "line" "median ms" "p10 ms" "p90 ms" "÷ bare"
for l in "${labels[@]}" - "${extras[@]}"; do
	if [ "$l" = - ]; then
		echo "what if:"
		continue
	fi
	if [ -n "${why[$l]:-}" ]; then
		printf '%-34s unavailable: %s\n' "${title[$l]}" "${why[$l]}"
		continue
	fi
	note=
	[ "${fails[$l]}" != 0 ] && note="  (${fails[$l]} runs failed, left out)"
	printf '%-34s %10s %9s %9s %9s%s\n' "${title[$l]}" "$(ms "${med[$l]}")" "$(ms "${p10[$l]}")" "$(ms "${p90[$l]}")" \
		"$(ratio "${med[$l]}" "${med[bwrap]:-0}")" "$note"
done
echo
# goal NAME VALUE OP LIMIT: "met" or "missed".
goal() { awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN {ok = op == "<=" ? v <= l : v >= l; print ok ? "met" : "missed"}'; }
if [ -n "${med[warden]:-}" ] && [ -n "${med[bwrapfull]:-}" ]; then
	r=$(ratio "${med[warden]}" "${med[bwrapfull]}")
	echo "warden ÷ bwrap with all it can bound: ${r}× (goal ≤ 1.5×: $(goal w "$r" "<=" 1.5))"
fi
if [ -n "${med[warden]:-}" ] && [ -n "${med[bwrap]:-}" ]; then
	r=$(ratio "${med[warden]}" "${med[bwrap]}")
	echo "warden ÷ bare bwrap: ${r}× (goal ≤ 2×, through a sandbox kept ready by warden serve: $(goal w "$r" "<=" 2))"
fi
if [ -n "${med[warm]:-}" ] && [ -n "${med[bwrapfull]:-}" ]; then
	r=$(ratio "${med[warm]}" "${med[bwrapfull]}")
	echo "warden with serve ÷ bwrap with all it can bound: ${r}× (goal ≤ 1.5×: $(goal w "$r" "<=" 1.5))"
fi
if [ -n "${med[warm]:-}" ] && [ -n "${med[bwrap]:-}" ]; then
	r=$(ratio "${med[warm]}" "${med[bwrap]}")
	echo "warden with serve ÷ bare bwrap: ${r}× (goal ≤ 2×: $(goal w "$r" "<=" 2))"
fi
if [ -n "${med[warden]:-}" ] && [ -n "${med[srt]:-}" ]; then
	r=$(ratio "${med[srt]}" "${med[warden]}")
	echo "srt ÷ warden: ${r}× — warden is ${r}× faster than srt (goal ≥ 20×: $(goal w "$r" ">=" 20))"
fi
if [ -n "${med[warden]:-}" ] && [ -n "${med[codex]:-}" ]; then
	echo "codex ÷ warden: $(ratio "${med[codex]}" "${med[warden]}")× — warden is $(ratio "${med[codex]}" "${med[warden]}")× faster than codex sandbox"
fi
# paired A B WHAT: the per-round difference A − B in ms.
paired() {
	[ -n "${diff[$1:$2]:-}" ] || return 0
	# shellcheck disable=SC2086 # three numbers
	set -- ${diff[$1:$2]} "$3"
	echo "$4: $(ms "$1") ms (median of per-round differences; middle half $(ms "$2") to $(ms "$3"))"
}
paired warden nolandlock "landlock costs (warden run − --degraded=landlock)"
paired warden noseccomp "seccomp costs (warden run − --degraded=seccomp)"
paired warden nocgroup "the cgroup costs (warden run − --degraded=cgroup)"
paired warden warm "warden serve saves each run (warden run − the same with serve running)"
paired warden0 warden "cgo costs warden run (cgo build − the README's static build)"
paired version0 version "cgo costs each Go process start (warden version, cgo build − static)"

echo
echo "== stages of warden run -- /bin/true (WARDEN_SANDBOX_TRACE=1, median of $n runs)"
# The same run without a cgroup (--degraded=cgroup), taking turns with
# the first.
: > "$tmp/trace.cgroup"
: > "$tmp/trace.nocgroup"
for ((i = 0; i < n; i++)); do
	WARDEN_STATE_DIR=$cold WARDEN_SANDBOX_TRACE=1 "$tmp/warden" run -- /bin/true < /dev/null > /dev/null 2>> "$tmp/trace.cgroup"
	WARDEN_STATE_DIR=$cold WARDEN_SANDBOX_TRACE=1 "$tmp/warden" run --degraded=cgroup -- /bin/true < /dev/null > /dev/null 2>> "$tmp/trace.nocgroup"
	if [ -z "${why[warm]:-}" ]; then
		WARDEN_STATE_DIR=$warm WARDEN_SANDBOX_TRACE=1 "$tmp/warden" run -- /bin/true < /dev/null > /dev/null 2>> "$tmp/trace.warm"
		sleep 0.02 # serve starts the next sandbox after a run
	fi
done
"$tmp/proctime" stages < "$tmp/trace.cgroup" > "$tmp/stages.cgroup"
"$tmp/proctime" stages < "$tmp/trace.nocgroup" > "$tmp/stages.nocgroup"
printf '%-52s %14s %14s\n' "" "as is" "no cgroup"
printf '%-52s %7s %6s %7s %6s\n' "stage" "own ms" "end" "own ms" "end"
awk -F'\t' '
	NR == FNR { own[$4] = $1; end[$4] = $2; if (!($4 in seen)) { seen[$4] = 1; order[++k] = $4 }; next }
	{ nown[$4] = $1; nend[$4] = $2; if (!($4 in seen)) { seen[$4] = 1; order[++k] = $4 } }
	END {
		for (i = 1; i <= k; i++) {
			s = order[i]
			a = s in own ? sprintf("%7.3f %6.2f", own[s], end[s]) : sprintf("%7s %6s", "-", "-")
			b = s in nown ? sprintf("%7.3f %6.2f", nown[s], nend[s]) : sprintf("%7s %6s", "-", "-")
			printf "%-52s %s %s\n", s, a, b
		}
	}' "$tmp/stages.cgroup" "$tmp/stages.nocgroup"
echo "own = the stage's own time; end = ms since the trace began; no cgroup = --degraded=cgroup. A parent stage spans whatever init did meanwhile."
# What the trace does not show directly, from the medians above.
awk -F'\t' '
	FNR == 1 { f++ }
	{ own[f, $4] = $1; end[f, $4] = $2; if (!first[f] && $4 ~ /^init:/) first[f] = $4; if ($4 ~ /^parent: command ended/) ended[f] = $4 }
	END {
		sent = "parent: rlimits, base configuration sent"; start = "parent: start init"
		cmd = "init: start command"; reaped = ended[1]
		printf "after the command starts (its run, its exit, its processes reaped): %.2f ms\n", end[1, reaped] - end[1, cmd]
		if (!first[2]) exit
		boot = end[2, first[2]] - own[2, first[2]] - end[2, sent]
		printf "init start-up (Go runtime, configuration read), seen without a cgroup, where nothing holds the configuration back: %.2f ms\n", boot
		wait = end[1, sent] - end[1, start] - boot
		printf "with the cgroup and rlimits, the first configuration is sent %.2f ms after init started, so init waits %.2f ms for it\n", end[1, sent] - end[1, start], (wait > 0 ? wait : 0)
	}' "$tmp/stages.cgroup" "$tmp/stages.nocgroup"
if [ -s "$tmp/trace.warm" ]; then
	echo
	echo "stages with warden serve running (init taken from the sandbox serve keeps started):"
	"$tmp/proctime" stages < "$tmp/trace.warm" | awk -F'\t' '{printf "%-52s %7.3f %6.2f\n", $4, $1, $2}'
fi
if [ -n "${diff[version:true]:-}" ]; then
	# shellcheck disable=SC2086 # three numbers
	set -- ${diff[version:true]}
	echo "Go start-up: warden version $(ms "${med[version]}") ms against /bin/true $(ms "${med[true]}") ms (medians of the timed rounds above);" \
		"per round, $(ms "$1") ms more (middle half $(ms "$2") to $(ms "$3")) per Go process. warden run starts two: the CLI, before the trace begins, and init, inside 'start init' and the stage after it"
fi
if "$tmp/proctime" cgjoin -runs 20 > "$tmp/cgjoin" 2> "$tmp/cgjoin.err"; then
	awk '{v[$1] = sprintf("%.2f ms (p10 %.2f, p90 %.2f)", $2 / 1000, $3 / 1000, $4 / 1000)} END {
		print "cgroup v1 join on this host: moving a process that has been idle 100 ms takes " v["first"] ", moving it again at once " v["second"]
	}' "$tmp/cgjoin"
	echo "(the first move waits for an RCU grace period in percpu_down_write(&cgroup_threadgroup_rwsem) unless the kernel favours dynamic cgroup changes: favordynmods)"
else
	echo "cgroup v1 join: not measured: $(tail -n 1 "$tmp/cgjoin.err")"
fi

echo
echo "== peak memory during sleep 1 (median of 5 runs; MB = 1024 KiB)"
printf '%-34s %12s %12s %14s %12s\n' "line" "root VmHWM" "child VmHWM" "tree peak RSS" "ru_maxrss"
mem_line() {
	local l=$1; shift
	if [ -n "${why[$l]:-}" ]; then
		printf '%-34s unavailable: %s\n' "${title[$l]}" "${why[$l]}"
		return
	fi
	if ! "$tmp/proctime" mem -interval 50ms -runs 5 -- "$@" > "$tmp/mem" 2> "$tmp/mem.err"; then
		printf '%-34s failed: %s\n' "${title[$l]}" "$(tail -n 1 "$tmp/mem.err")"
		return
	fi
	awk -v t="${title[$l]}" '{v[$1] = $2 / 1024} END {printf "%-34s %12.1f %12.1f %14.1f %12.1f\n", t, v["root_hwm_kb"], v["child_hwm_kb"], v["tree_peak_kb"], v["maxrss_kb"]}' "$tmp/mem"
	cp "$tmp/mem" "$tmp/mem.$l"
}
mem_line bwrap bwrap --ro-bind / / --unshare-all --cap-drop ALL --die-with-parent --new-session --clearenv /bin/sleep 1
mem_line warden env WARDEN_STATE_DIR="$cold" "$tmp/warden" run -- sleep 1
mem_line warm env WARDEN_STATE_DIR="$warm" "$tmp/warden" run -- sleep 1
mem_line srt "$srt" --settings "$tmp/srt-settings.json" -- sleep 1
mem_line codex "$codex" sandbox -P :workspace -- sleep 1
echo "root = the process started (warden: the supervisor; srt, codex: node), child = its largest child (warden: init);"
echo "tree peak = the largest sum of VmRSS over the whole tree in one 50 ms sample; ru_maxrss = largest single process (GNU time %M)"
if [ -f "$tmp/mem.warden" ]; then
	sup=$(awk '$1 == "root_hwm_kb" {printf "%.1f", $2 / 1024}' "$tmp/mem.warden")
	echo "warden supervisor: $sup MB (goal ≤ 15 MB: $(goal w "$sup" "<=" 15)); srt's tree was about 92 MB when measured before"
fi
