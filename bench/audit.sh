#!/usr/bin/env bash
# Times `warden audit` over a large store: N events (default 1,000,000)
# spread over the last 30 days, made by bench/auditgen with the store's
# own appends; then `warden audit --since 24h` (the table and --json),
# `--verdict deny --since 24h`, `export --ocsf --since 24h` and
# `audit verify` over the whole chain, each the median of 5 runs, with
# the goal (--since 24h ≤ 1 s). The store goes in a temporary state
# directory.
#
#   bench/audit.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/warden" ./cmd/warden
go build -o "$tmp/auditgen" ./bench/auditgen
export WARDEN_STATE_DIR="$tmp/state"
t0=$(date +%s%N)
"$tmp/auditgen" -dir "$WARDEN_STATE_DIR" -n "$n" -days 30
t1=$(date +%s%N)
echo "== $n events over 30 days made in $(((t1 - t0) / 1000000)) ms; store $(du -h "$WARDEN_STATE_DIR/warden.db" | cut -f1)"

# med LABEL CMD...: the median wall time of 5 runs, and the lines printed.
med() {
	local label=$1 i t0 t1 lines
	shift
	: > "$tmp/times"
	for ((i = 0; i < 5; i++)); do
		t0=$(date +%s%N)
		"$@" > "$tmp/out"
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >> "$tmp/times"
	done
	lines=$(wc -l < "$tmp/out")
	printf '%-44s %8d ms %10d lines\n' "$label" "$(sort -n "$tmp/times" | awk '{a[NR] = $1} END {print a[3]}')" "$lines"
}
med "audit --since 24h" "$tmp/warden" audit --since 24h
med "audit --since 24h --json" "$tmp/warden" audit --since 24h --json
med "audit --since 24h --verdict deny" "$tmp/warden" audit --since 24h --verdict deny
med "audit --kind network --limit 100" "$tmp/warden" audit --kind network --limit 100
med "audit export --ocsf --since 24h" "$tmp/warden" audit export --ocsf --since 24h
med "audit verify (the whole chain)" "$tmp/warden" audit verify
echo "goal: audit --since 24h over $n events ≤ 1000 ms"
