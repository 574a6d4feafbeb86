#!/usr/bin/env bash
# Times `warden explain` as a process, the way an agent hook calls it: one
# process per decision, JSON on stdin, a policy file on disk. Prints the
# median and p90 over N runs, beside a process that does nothing (/bin/true)
# and `warden version` (start-up alone), with ratios.
#
#   bench/explain.sh [N]      (default N=300)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/warden" ./cmd/warden
cat > "$tmp/policy.yaml" <<'YAML'
version: 1
rules:
  - id: protect-main
    scope: workspace
    class: gitPush
    refs: ["main", "release/**"]
    decision: deny
  - id: features
    scope: workspace
    class: gitPush
    refs: ["feature/**"]
    decision: allow
  - id: no-curl
    scope: workspace
    command: curl
    decision: prompt
YAML
echo '{"tool":"git_push","refs":["feature/login"],"principal":{"agent":"bot"}}' > "$tmp/action.json"

# time_cmd LABEL CMD...: prints "LABEL median_us p90_us".
time_cmd() {
	local label=$1; shift
	local i t0 t1
	: > "$tmp/$label.times"
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" < "$tmp/action.json" > /dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) >> "$tmp/$label.times"
	done
	sort -n "$tmp/$label.times" | awk -v l="$label" '{a[NR]=$1} END {printf "%s %d %d\n", l, a[int(NR/2)+1], a[int(NR*0.9)]}'
}

"$tmp/warden" explain --policy "$tmp/policy.yaml" --json < "$tmp/action.json" | grep -q '"decision": "allow"'
true_line=$(time_cmd true /bin/true)
version_line=$(time_cmd version "$tmp/warden" version)
explain_line=$(time_cmd explain "$tmp/warden" explain --policy "$tmp/policy.yaml" --json)
json_line=$(time_cmd explain_readable "$tmp/warden" explain --policy "$tmp/policy.yaml")

base=$(echo "$true_line" | awk '{print $2}')
printf '%-34s %10s %10s %12s\n' "command ($n runs)" "median µs" "p90 µs" "÷ /bin/true"
for line in "$true_line" "$version_line" "$explain_line" "$json_line"; do
	set -- $line
	printf '%-34s %10d %10d %12.1f\n' "$1" "$2" "$3" "$(awk -v a="$2" -v b="$base" 'BEGIN {print a / b}')"
done
