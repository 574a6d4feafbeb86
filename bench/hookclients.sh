#!/usr/bin/env bash
# Times Warden's hook as each real agent CLI runs it, over the
# real-client scenarios of internal/cli (Claude Code, Codex CLI, Gemini
# CLI): the tests put testdata/hooktime in front of the hook command the
# client runs, which times each call from the moment the client has
# handed over the whole payload to the hook's exit, and also from its own
# start (the client's writing of the payload included; the fake model's
# log cannot time a hook: it also holds the tools' and the client's own
# time). Prints, per client, the hook calls, their median,
# p90 and slowest; goal: median ≤ 10 ms. The approval test, whose hook
# waits for a person's answer by design, is left out.
#
#   bench/hookclients.sh [ROUNDS]      (default 1; each round runs every scenario once)
#
# The clients are the ones test.sh installs, pinned, under
# ~/.cache/warden-ci and npm's global prefix; run ./test.sh once first.
# As the tests: root on Linux.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cache="$HOME/.cache/warden-ci"
export WARDEN_TEST_MCP_FILESYSTEM="$cache/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
export WARDEN_TEST_CODEX="$cache/codex/node_modules/.bin/codex"
export WARDEN_TEST_GEMINI="$cache/gemini/node_modules/.bin/gemini"
export WARDEN_TEST_HOOK_TIMES="$tmp/times.jsonl"
for c in claude "$WARDEN_TEST_CODEX" "$WARDEN_TEST_GEMINI"; do
	command -v "$c" > /dev/null || echo "no $c: its line is missing (./test.sh installs it)"
done
# Gemini CLI's ask under -p waits 30 s for an answer that never comes, by
# design of the test: left out, with the approval test.
go test -c -tags integration -o "$tmp/cli.test" ./internal/cli
for ((i = 0; i < rounds; i++)); do
	for run in 'TestClaudeCodeRealClient$|TestClaudeCodeRealClientNoWrap|TestClaudeCodeRealClientAsk|TestClaudeCodeRealClientGovernance' \
		'TestCodexRealClient' 'TestGeminiRealClient/(yolo|default|read_tools|@_path|subagent|note)'; do
		(cd internal/cli && "$tmp/cli.test" -test.count=1 -test.run "$run") > "$tmp/test.log" 2>&1 || { tail -n 30 "$tmp/test.log"; exit 1; }
	done
done
[ -s "$WARDEN_TEST_HOOK_TIMES" ] || { echo "no hook call was timed"; exit 1; }
python3 - "$WARDEN_TEST_HOOK_TIMES" <<'PY'
import json, sys
by, total = {}, {}
for line in open(sys.argv[1]):
    c = json.loads(line)
    by.setdefault(c["client"], []).append(c["ms"])
    total.setdefault(c["client"], []).append(c.get("total_ms", c["ms"]))
def med(v):
    v = sorted(v)
    return v[len(v) // 2]
print(f'{"client":<14} {"calls":>6} {"median ms":>10} {"p90 ms":>8} {"slowest":>8} {"with writing":>13}  goal median ≤ 10 ms')
for client, ms in sorted(by.items()):
    ms.sort()
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    print(f'{client:<14} {len(ms):>6} {med(ms):>10.1f} {p90:>8.1f} {ms[-1]:>8.1f} {med(total[client]):>13.1f}  {"met" if med(ms) <= 10 else "NOT MET"}')
print("median ms: from the payload handed over to the hook's exit; with writing: from the wrapper's start, the client's writing of the payload included")
PY
