#!/usr/bin/env bash
# Times `warden hook claude-code` as a process, the way Claude Code calls
# it: one process per tool call, the payload on stdin. Prints the median
# and p90 over N runs of a recorded PreToolUse payload (a Bash command, so
# shell analysis runs) beside a process that does nothing (/bin/true) and
# `warden version` (start-up alone), with ratios. The hook's state (note
# limits) goes to a temporary cache directory.
#
#   bench/hook.sh [N]      (default N=300)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/warden" ./cmd/warden
export XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$tmp/project/.git/objects" && echo 'ref: refs/heads/main' > "$tmp/project/.git/HEAD"
# The recorded PreToolUse payload of Claude Code 2.1.197, with a command
# that is allowed (the hook's common case) and its cwd made real.
sed -e "s#/tmp/cc-harness-EXAMPLE/project#$tmp/project#" \
	-e 's#"cat ~/.ssh/id_rsa"#"git status \&\& go test ./... 2>\&1 | tail -n 20"#' \
	internal/adapter/claudecode/testdata/payloads/PreToolUse-Bash.json > "$tmp/payload.json"
sed -e 's#"git status[^"]*"#"cat ~/.ssh/id_rsa"#' "$tmp/payload.json" > "$tmp/deny.json"

# time_cmd LABEL INPUT CMD...: prints "LABEL median_us p90_us".
time_cmd() {
	local label=$1 input=$2; shift 2
	local i t0 t1
	: > "$tmp/$label.times"
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" < "$input" > /dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >> "$tmp/$label.times"
	done
	sort -n "$tmp/$label.times" | awk -v l="$label" '{a[NR]=$1} END {printf "%s %d %d\n", l, a[int(NR/2)+1], a[int(NR*0.9)]}'
}

"$tmp/warden" hook claude-code < "$tmp/payload.json" | grep -q '"permissionDecision":"allow"'
"$tmp/warden" hook claude-code --wrap < "$tmp/payload.json" | grep -q '"updatedInput"'
"$tmp/warden" hook claude-code < "$tmp/deny.json" | grep -q '"permissionDecision":"deny"'
true_line=$(time_cmd true "$tmp/payload.json" /bin/true)
version_line=$(time_cmd version "$tmp/payload.json" "$tmp/warden" version)
allow_line=$(time_cmd hook_allow "$tmp/payload.json" "$tmp/warden" hook claude-code)
wrap_line=$(time_cmd hook_wrap "$tmp/payload.json" "$tmp/warden" hook claude-code --wrap)
deny_line=$(time_cmd hook_deny "$tmp/deny.json" "$tmp/warden" hook claude-code)

base=$(echo "$true_line" | awk '{print $2}')
printf '%-34s %10s %10s %12s\n' "command ($n runs)" "median µs" "p90 µs" "÷ /bin/true"
for line in "$true_line" "$version_line" "$allow_line" "$wrap_line" "$deny_line"; do
	set -- $line
	printf '%-34s %10d %10d %12.1f\n' "$1" "$2" "$3" "$(awk -v a="$2" -v b="$base" 'BEGIN {print a / b}')"
done
