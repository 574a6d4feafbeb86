#!/usr/bin/env bash
# Times `warden hook claude-code`, `warden hook codex` and `warden hook
# gemini` as processes, the way the agents call them: one process per tool
# call, the payload on stdin. Prints the median and p90 over N runs of a
# shell-command payload of each (recorded from Claude Code 2.1.197;
# constructed from Codex's and Gemini CLI's source), so shell analysis
# runs, beside a process that does nothing (/bin/true) and `warden
# version` (start-up alone), with ratios. The hook's state (note
# limits) goes to a temporary cache directory, the store it records every
# decision in to a temporary state directory; the recording's cost is the
# pair "recording on" and "store unavailable" (the same policy, with
# audit: best-effort, so that a decision the store cannot take is answered
# anyway: the store's open fails at once); the last line is the hook
# while warden serve runs, which records for it.
#
#   bench/hook.sh [N]      (default N=300)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/warden.linked" ./cmd/warden
# As an installed binary is, not as the linker left it in the page cache
# (see bench/sandbox.sh).
cp "$tmp/warden.linked" "$tmp/warden"
export XDG_CACHE_HOME="$tmp/cache"
export WARDEN_STATE_DIR="$tmp/state"
printf 'version: 1\naudit: best-effort\n' > "$tmp/best-effort.yaml"
mkdir -p "$tmp/project/.git/objects" && echo 'ref: refs/heads/main' > "$tmp/project/.git/HEAD"
# The recorded PreToolUse payload of Claude Code 2.1.197, with a command
# that is allowed uncontained (the hook's common case: read-only, so no
# builtin:runs-code prompt) and its cwd made real.
sed -e "s#/tmp/cc-harness-EXAMPLE/project#$tmp/project#" \
	-e 's#"cat ~/.ssh/id_rsa"#"git status \&\& git log --oneline -n 20 2>\&1 | tail -n 5"#' \
	internal/adapter/claudecode/testdata/payloads/PreToolUse-Bash.json > "$tmp/payload.json"
sed -e 's#"git status[^"]*"#"cat ~/.ssh/id_rsa"#' "$tmp/payload.json" > "$tmp/deny.json"
# The same command in Codex's PreToolUse and Gemini CLI's BeforeTool.
for agent in codex gemini; do
	src=internal/adapter/$agent/testdata/payloads/PreToolUse-Bash-gotest.json
	[ $agent = gemini ] && src=internal/adapter/gemini/testdata/payloads/run_shell_command-gotest.json
	sed -e "s#/tmp/$agent-EXAMPLE/project#$tmp/project#" \
		-e 's#"go test ./..."#"git status \&\& git log --oneline -n 20 2>\&1 | tail -n 5"#' "$src" > "$tmp/$agent.json"
	sed -e 's#"git status[^"]*"#"cat ~/.ssh/id_rsa"#' "$tmp/$agent.json" > "$tmp/$agent-deny.json"
done

# time_cmd LABEL INPUT CMD...: prints "LABEL median_us p90_us".
time_cmd() {
	local label=$1 input=$2; shift 2
	local i t0 t1
	: > "$tmp/$label.times"
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" < "$input" > /dev/null 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >> "$tmp/$label.times"
	done
	sort -n "$tmp/$label.times" | awk -v l="$label" '{a[NR]=$1} END {printf "%s %d %d\n", l, a[int(NR/2)+1], a[int(NR*0.9)]}'
}

"$tmp/warden" hook claude-code < "$tmp/payload.json" | grep -q '"permissionDecision":"allow"'
"$tmp/warden" hook claude-code --wrap < "$tmp/payload.json" | grep -q '"updatedInput"'
"$tmp/warden" hook claude-code < "$tmp/deny.json" | grep -q '"permissionDecision":"deny"'
"$tmp/warden" hook codex < "$tmp/codex.json" | grep -qx '{}'
"$tmp/warden" hook codex --wrap < "$tmp/codex.json" | grep -q '"updatedInput"'
"$tmp/warden" hook codex < "$tmp/codex-deny.json" | grep -q '"permissionDecision":"deny"'
"$tmp/warden" hook gemini < "$tmp/gemini.json" | grep -q '"decision":"allow"'
"$tmp/warden" hook gemini --wrap < "$tmp/gemini.json" | grep -q '"tool_input"'
"$tmp/warden" hook gemini < "$tmp/gemini-deny.json" | grep -q '"decision":"deny"'
true_line=$(time_cmd true "$tmp/payload.json" /bin/true)
version_line=$(time_cmd version "$tmp/payload.json" "$tmp/warden" version)
allow_line=$(time_cmd hook_allow "$tmp/payload.json" "$tmp/warden" hook claude-code)
rec_on_line=$(time_cmd recording_on "$tmp/payload.json" "$tmp/warden" hook claude-code --policy "$tmp/best-effort.yaml")
rec_off_line=$(WARDEN_STATE_DIR=/dev/null/none time_cmd store_unavailable "$tmp/payload.json" "$tmp/warden" hook claude-code --policy "$tmp/best-effort.yaml")
wrap_line=$(time_cmd hook_wrap "$tmp/payload.json" "$tmp/warden" hook claude-code --wrap)
deny_line=$(time_cmd hook_deny "$tmp/deny.json" "$tmp/warden" hook claude-code)
codex_line=$(time_cmd codex_allow "$tmp/codex.json" "$tmp/warden" hook codex)
codex_wrap_line=$(time_cmd codex_wrap "$tmp/codex.json" "$tmp/warden" hook codex --wrap)
codex_deny_line=$(time_cmd codex_deny "$tmp/codex-deny.json" "$tmp/warden" hook codex)
gemini_line=$(time_cmd gemini_allow "$tmp/gemini.json" "$tmp/warden" hook gemini)
gemini_wrap_line=$(time_cmd gemini_wrap "$tmp/gemini.json" "$tmp/warden" hook gemini --wrap)
gemini_deny_line=$(time_cmd gemini_deny "$tmp/gemini-deny.json" "$tmp/warden" hook gemini)
# The same hook while warden serve runs: the decision is recorded through
# it, which holds the store open (its socket path must stay short).
serve_state=$(mktemp -d /tmp/whs-XXXXXX)
WARDEN_STATE_DIR=$serve_state "$tmp/warden" serve --no-warm > "$tmp/serve.log" 2>&1 &
serve=$!
trap 'kill $serve 2> /dev/null; wait $serve 2> /dev/null; rm -rf "$tmp" "$serve_state"' EXIT
for ((i = 0; i < 100; i++)); do
	[ -S "$serve_state/warden.sock" ] && break
	sleep 0.05
done
serve_line=$(WARDEN_STATE_DIR=$serve_state time_cmd hook_allow_with_serve "$tmp/payload.json" "$tmp/warden" hook claude-code)

base=$(echo "$true_line" | awk '{print $2}')
printf '%-34s %10s %10s %12s\n' "command ($n runs)" "median µs" "p90 µs" "÷ /bin/true"
for line in "$true_line" "$version_line" "$allow_line" "$rec_on_line" "$rec_off_line" "$wrap_line" "$deny_line" \
	"$codex_line" "$codex_wrap_line" "$codex_deny_line" "$gemini_line" "$gemini_wrap_line" "$gemini_deny_line" "$serve_line"; do
	set -- $line
	printf '%-34s %10d %10d %12.1f\n' "$1" "$2" "$3" "$(awk -v a="$2" -v b="$base" 'BEGIN {print a / b}')"
done
