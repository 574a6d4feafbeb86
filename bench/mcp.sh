#!/usr/bin/env bash
# Times tools/call round trips through `warden mcp` against the same
# server called directly, in one run: a tiny Go SDK server whose tool
# touches nothing (a stable number: transport plus gateway), and the real
# @modelcontextprotocol/server-filesystem reading a small file when it is
# installed (WARDEN_TEST_MCP_FILESYSTEM, as .ci/run sets it). The client
# is the Go SDK's; each line is N calls on one session after a warm-up.
# The gateway decides every call on the default policy with the path
# resolved (a read_file inside the project), and its budget is 1 ms a
# call on loopback.
#
#   bench/mcp.sh [N]      (default N=2000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/warden" ./cmd/warden
go build -o "$tmp/mcpbench" ./bench/mcpbench
mkdir -p "$tmp/project/.git/objects" && echo 'ref: refs/heads/main' > "$tmp/project/.git/HEAD"
echo hello > "$tmp/project/a.txt"
printf 'version: 1\nserver: bench\ntools:\n  read_text_file: {as: read_file, paths: [path]}\n' > "$tmp/tools.yaml"
cd "$tmp/project"

lines=()
lines+=("$("$tmp/mcpbench" client -n "$n" -label echo_direct -path "$tmp/project/a.txt" -- "$tmp/mcpbench" server)")
lines+=("$("$tmp/mcpbench" client -n "$n" -label echo_via_warden -path "$tmp/project/a.txt" -- "$tmp/warden" mcp --tools "$tmp/tools.yaml" -- "$tmp/mcpbench" server)")
fs=${WARDEN_TEST_MCP_FILESYSTEM:-$HOME/.cache/warden-ci/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js}
if [ -f "$fs" ] && command -v node > /dev/null; then
	lines+=("$("$tmp/mcpbench" client -n "$n" -label fs_direct -path "$tmp/project/a.txt" -- node "$fs" "$tmp/project" 2> /dev/null)")
	lines+=("$("$tmp/mcpbench" client -n "$n" -label fs_via_warden -path "$tmp/project/a.txt" -- "$tmp/warden" mcp -- node "$fs" "$tmp/project" 2> /dev/null)")
else
	echo "(server-filesystem not found at $fs: its lines are left out)"
fi

printf '%-18s %10s %10s\n' "tools/call ($n)" "median µs" "p90 µs"
for line in "${lines[@]}"; do
	set -- $line
	printf '%-18s %10d %10d\n' "$1" "$2" "$3"
done
echo
printf '%-18s %14s %14s %8s\n' "server" "Δ median µs" "Δ p90 µs" "ratio"
for pair in "echo_direct echo_via_warden" "fs_direct fs_via_warden"; do
	set -- $pair
	d=$(printf '%s\n' "${lines[@]}" | awk -v a="$1" '$1 == a {print $2, $3}')
	w=$(printf '%s\n' "${lines[@]}" | awk -v b="$2" '$1 == b {print $2, $3}')
	[ -n "$d" ] && [ -n "$w" ] || continue
	set -- $d $w
	printf '%-18s %14d %14d %8.2f\n' "${pair%%_direct *}" $(($3 - $1)) $(($4 - $2)) "$(awk -v a="$3" -v b="$1" 'BEGIN {print a / b}')"
done
