#!/usr/bin/env bash
# Times Warden's egress proxy beside direct connections on loopback, in
# one run, and prints ratios:
#
#   1. latency of 1,000 small HTTPS requests (a GET answered with 128
#      bytes): direct, through a CONNECT tunnel, and intercepted (TLS
#      terminated with a minted leaf and opened again upstream), each on
#      a new connection per request (fresh, as a tool started per command
#      does) and on one kept-alive connection (reuse); goal: CONNECT
#      ≤ 1.2× direct;
#   2. throughput of a 1 GiB transfer from a TCP server, direct and
#      through a CONNECT tunnel; goal: ≥ 0.9× direct;
#   3. as root, 100 MB from a server in a network namespace made here,
#      fetched by curl inside `warden run` over HTTP (through the forward
#      proxy and in a CONNECT tunnel) and HTTPS (a CONNECT tunnel), beside
#      curl from the host; goal ≥ 0.9× direct; then again over a wire of
#      1 Gbit/s (WARDEN_BENCH_WIRE, a rate as tc writes it: the veth
#      shaped with tc's tbf), where the link rather than the processors
#      bounds the transfer;
#      and, the same way, the time of a small request on a new
#      connection (curl's time_total), direct and through the proxy;
#      goal: at most 0.2 ms more;
#   4. 10,000 concurrent CONNECT tunnels opened, each echoing bytes, and
#      closed, with the goroutine and descriptor leak check
#      (TestManyTunnels).
#
#   bench/proxy.sh [ROUNDS]      (default 3; each line is the median of ROUNDS runs)
#
# Each round runs every line once, direct first, so that the load of a
# shared machine falls on all lines alike; each line is the median over
# the rounds.
# Everything runs in-process on loopback: the proxy's resolver and dialer
# map test names to local servers (internal/proxy/bench_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
wire=${WARDEN_BENCH_WIRE:-1gbit} # the shaped pass's rate, as tc writes it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/proxy.test" ./internal/proxy

# median FILE NAME FIELD: the median of the value before unit FIELD
# (ns/op, MB/s) on the lines of benchmark NAME.
median() {
	grep -E "^$2-[0-9]+ " "$1" | awk -v u="$3" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}' |
		sort -g | awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else print a[int((NR + 1) / 2)]}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "== latency: 1,000 small HTTPS requests, median of $rounds"
for ((i = 0; i < rounds; i++)); do
	"$tmp/proxy.test" -test.run '^$' -test.bench '^BenchmarkHTTPS$' -test.benchtime 1000x >> "$tmp/https.txt"
done
printf '%-20s %12s %10s\n' "request" "µs each" "÷ direct"
for mode in fresh reuse; do
	direct=$(median "$tmp/https.txt" "BenchmarkHTTPS/$mode/direct" ns/op)
	for path in direct connect intercept; do
		v=$(median "$tmp/https.txt" "BenchmarkHTTPS/$mode/$path" ns/op)
		printf '%-20s %12.1f %10s\n' "$mode/$path" "$(awk -v v="$v" 'BEGIN {print v / 1000}')" "$(ratio "$v" "$direct")"
	done
done
c=$(median "$tmp/https.txt" BenchmarkHTTPS/fresh/connect ns/op)
d=$(median "$tmp/https.txt" BenchmarkHTTPS/fresh/direct ns/op)
echo "goal: fresh/connect ≤ 1.2× direct: $(ratio "$c" "$d")×"

echo
echo "== throughput: 1 GiB from a TCP server, median of $rounds"
for ((i = 0; i < rounds; i++)); do
	"$tmp/proxy.test" -test.run '^$' -test.bench '^BenchmarkTransfer$' -test.benchtime 2x -proxy.transfer 1073741824 >> "$tmp/transfer.txt"
done
direct=$(median "$tmp/transfer.txt" BenchmarkTransfer/direct MB/s)
via=$(median "$tmp/transfer.txt" BenchmarkTransfer/connect MB/s)
dcpu=$(median "$tmp/transfer.txt" BenchmarkTransfer/direct cpu-ms/GB)
vcpu=$(median "$tmp/transfer.txt" BenchmarkTransfer/connect cpu-ms/GB)
printf '%-20s %12s %10s %12s %8s\n' "transfer" "MB/s" "÷ direct" "cpu-ms/GB" "cpus"
printf '%-20s %12.0f %10s %12.0f %8.2f\n' direct "$direct" 1.00 "$dcpu" "$(median "$tmp/transfer.txt" BenchmarkTransfer/direct cpus)" \
	connect "$via" "$(ratio "$via" "$direct")" "$vcpu" "$(median "$tmp/transfer.txt" BenchmarkTransfer/connect cpus)"
echo "goal: connect ≥ 0.9× direct: $(ratio "$via" "$direct")×"
echo "processor time per byte through the tunnel: $(ratio "$vcpu" "$dcpu")× direct (client, proxy and server in this one process, kernel time included);" \
	"with $(nproc) CPUs, a transfer that keeps them busy directly goes through the proxy at most $(ratio "$dcpu" "$vcpu")× as fast"

echo
echo "== through warden run: 100 MB from a server in a network namespace of this script's own, curl inside the sandbox, median of $rounds"
# The proxy never dials loopback or this machine's own addresses, so the
# server is in a network namespace made here, behind a veth pair; direct
# is curl from the host.
if [ "$(id -u)" != 0 ] || ! command -v ip > /dev/null || ! command -v curl > /dev/null; then
	echo "skipped: needs root, ip and curl (found: uid $(id -u), ip: $(command -v ip || echo none), curl: $(command -v curl || echo none))"
elif ip -4 addr | grep -q 'inet 10\.231\.7\.'; then
	echo "skipped: 10.231.7.0/30, the subnet this uses, is taken on this machine"
else
	go build -o "$tmp/proctime" ./bench/proctime
	CGO_ENABLED=0 go build -o "$tmp/warden" ./cmd/warden
	ns=warden-bench-$$ veth=wbp$$
	cleanup_ns() {
		# shellcheck disable=SC2086 # two pids
		[ -n "${srv:-}" ] && kill $srv 2> /dev/null
		ip netns del "$ns" 2> /dev/null
		ip link del "${veth}a" 2> /dev/null
		rm -rf "$tmp"
	}
	trap cleanup_ns EXIT
	ip netns add "$ns"
	ip link add "${veth}a" type veth peer name "${veth}b"
	ip link set "${veth}b" netns "$ns"
	ip addr add 10.231.7.1/30 dev "${veth}a"
	ip link set "${veth}a" up
	ip -n "$ns" addr add 10.231.7.2/30 dev "${veth}b"
	ip -n "$ns" link set "${veth}b" up
	ip -n "$ns" link set lo up
	ip netns exec "$ns" "$tmp/proctime" serve 10.231.7.2:8080 104857600 &
	srv=$!
	ip netns exec "$ns" "$tmp/proctime" serve -tls 10.231.7.2:8443 104857600 &
	srv="$srv $!"
	http=http://10.231.7.2:8080/bulk https=https://10.231.7.2:8443/bulk
	for ((i = 0; i < 50; i++)); do
		curl -s -o /dev/null "$http" && curl -sk -o /dev/null "$https" && break
		sleep 0.1
	done
	# The floor of any proxy: a bare relay on the host (splicing, nothing
	# judged), in front of each server, for curl from the host.
	"$tmp/proctime" relay 127.0.0.1:0 10.231.7.2:8080 > "$tmp/relay-http" &
	srv="$srv $!"
	"$tmp/proctime" relay 127.0.0.1:0 10.231.7.2:8443 > "$tmp/relay-https" &
	srv="$srv $!"
	for ((i = 0; i < 50; i++)); do
		[ -s "$tmp/relay-http" ] && [ -s "$tmp/relay-https" ] && break
		sleep 0.1
	done
	rhttp=http://$(head -1 "$tmp/relay-http")/bulk rhttps=https://$(head -1 "$tmp/relay-https")/bulk
	printf 'version: 1\nnetwork:\n  rules:\n    - allow: {allowed_ips: ["10.231.7.2/32"], ports: [8080, 8443]}\n' > "$tmp/policy.yaml"
	mkdir -p "$tmp/project"
	: > "$tmp/e2e.txt"
	# fetch LABEL [warden] CURL-ARGS...: one transfer's bytes a second.
	fetch() {
		local label=$1
		shift
		echo "$label $(cd "$tmp/project" && "$@" -s -o /dev/null -w '%{speed_download}')" >> "$tmp/e2e.txt"
	}
	for ((i = 0; i < rounds; i++)); do
		fetch http-direct curl "$http"
		fetch http-relay curl "$rhttp"
		fetch http-forward "$tmp/warden" run --policy "$tmp/policy.yaml" -- curl "$http"
		fetch http-tunnel "$tmp/warden" run --policy "$tmp/policy.yaml" -- curl -p "$http"
		fetch https-direct curl -k "$https"
		fetch https-relay curl -k "$rhttps"
		fetch https-tunnel "$tmp/warden" run --policy "$tmp/policy.yaml" -- curl -k "$https"
	done
	med() { awk -v k="$1" '$1 == k {print $2}' "$tmp/e2e.txt" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
	printf '%-34s %12s %10s\n' "path" "MB/s" "÷ direct"
	for k in http-direct http-relay http-forward http-tunnel https-direct https-relay https-tunnel; do
		printf '%-34s %12.0f %10s\n' "$k" "$(awk -v v="$(med "$k")" 'BEGIN {print v / 1e6}')" "$(ratio "$(med "$k")" "$(med "${k%%-*}-direct")")"
	done
	echo "forward = http_proxy, read request by request; http-tunnel = curl -p: plain HTTP in a CONNECT tunnel, read request by request too;"
	echo "https-tunnel = a CONNECT tunnel the proxy does not intercept, spliced between the sockets;"
	echo "relay = curl from the host through a bare relay on the host (proctime relay: one more hop, spliced, nothing judged), the floor of any proxy here"
	echo "goal ≥ 0.9× direct: http-forward $(ratio "$(med http-forward)" "$(med http-direct)")×, https-tunnel $(ratio "$(med https-tunnel)" "$(med https-direct)")×"

	echo
	echo "== the same, over a wire of $wire: the server's side of the veth shaped (tc tbf), median of $rounds"
	# Above, the processors are the wire: client, proxy and server share
	# them, and every hop's copy is a cost. Here the link is, as between
	# a machine and a package index.
	if ! command -v tc > /dev/null || ! tc -n "$ns" qdisc add dev "${veth}b" root tbf rate "$wire" burst 1m latency 50ms 2> "$tmp/tc.err"; then
		echo "skipped: tc cannot shape the veth: $(cat "$tmp/tc.err" 2> /dev/null || echo 'tc not found')"
	else
		: > "$tmp/e2e.txt"
		for ((i = 0; i < rounds; i++)); do
			fetch http-direct curl "$http"
			fetch http-forward "$tmp/warden" run --policy "$tmp/policy.yaml" -- curl "$http"
			fetch https-direct curl -k "$https"
			fetch https-tunnel "$tmp/warden" run --policy "$tmp/policy.yaml" -- curl -k "$https"
		done
		tc -n "$ns" qdisc del dev "${veth}b" root
		printf '%-34s %12s %10s\n' "path" "MB/s" "÷ direct"
		for k in http-direct http-forward https-direct https-tunnel; do
			printf '%-34s %12.0f %10s\n' "$k" "$(awk -v v="$(med "$k")" 'BEGIN {print v / 1e6}')" "$(ratio "$(med "$k")" "$(med "${k%%-*}-direct")")"
		done
		echo "over a $wire wire, goal ≥ 0.9× direct: http-forward $(ratio "$(med http-forward)" "$(med http-direct)")×, https-tunnel $(ratio "$(med https-tunnel)" "$(med https-direct)")×"
	fi

	echo
	echo "== per request, through warden run: 128 bytes (a range of the same file), each on a new connection by a new curl, 40 a round, median of all"
	# curl's own time_total: from the request's start to its end,
	# connection and TLS included, the process's start not.
	printf 'for i in $(seq 40); do curl -sk -r 0-127 -o /dev/null -w "%%{time_total}\\n" "$@"; done\n' > "$tmp/project/each.sh"
	: > "$tmp/each.txt"
	each() {
		local label=$1
		shift
		(cd "$tmp/project" && "$@") | sed "s/^/$label /" >> "$tmp/each.txt"
	}
	for ((i = 0; i < rounds; i++)); do
		each http-direct sh each.sh "$http"
		each http-relay sh each.sh "$rhttp"
		each http-forward "$tmp/warden" run --policy "$tmp/policy.yaml" -- sh each.sh "$http"
		each https-direct sh each.sh "$https"
		each https-relay sh each.sh "$rhttps"
		each https-tunnel "$tmp/warden" run --policy "$tmp/policy.yaml" -- sh each.sh "$https"
	done
	emed() { awk -v k="$1" '$1 == k {print $2 * 1000}' "$tmp/each.txt" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
	printf '%-34s %12s %12s\n' "path" "ms each" "+ ms"
	for k in http-direct http-relay http-forward https-direct https-relay https-tunnel; do
		printf '%-34s %12.3f %12.3f\n' "$k" "$(emed "$k")" "$(awk -v a="$(emed "$k")" -v b="$(emed "${k%%-*}-direct")" 'BEGIN {print a - b}')"
	done
	echo "goal ≤ +0.2 ms a request: http-forward +$(awk -v a="$(emed http-forward)" -v b="$(emed http-direct)" 'BEGIN {printf "%.3f", a - b}') ms, https-tunnel +$(awk -v a="$(emed https-tunnel)" -v b="$(emed https-direct)" 'BEGIN {printf "%.3f", a - b}') ms"
fi

echo
echo "== 10,000 concurrent CONNECT tunnels"
"$tmp/proxy.test" -test.run '^TestManyTunnels$' -test.v 2>&1 | grep -E 'tunnels open|RLIMIT|--- |leak' | sed 's/^ *//'
