#!/usr/bin/env bash
# Runs every test of Warden, unit and integration, on a fresh Debian or
# Ubuntu machine: it installs what the tests drive first (where missing),
# then runs them. Integration tests need root on Linux (the sandbox's
# attack tests also run themselves again as uid 65534); .ci/run calls this
# after its static checks.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"

# The sandbox's attack tests drive these tools inside and outside the
# sandbox (setpriv and unshare: util-linux; ip: iproute2; dig, nslookup:
# dnsutils; nc: netcat-openbsd); sqlite3 changes a store behind Warden's
# back in the audit tests; Gemini CLI's grep_search runs ripgrep (rg),
# without which it falls back to a tool that answers some calls itself.
need=()
for pair in setpriv:util-linux unshare:util-linux ip:iproute2 strace:strace socat:socat \
	dig:dnsutils nc:netcat-openbsd git:git sqlite3:sqlite3 python3:python3 node:nodejs npm:npm curl:curl getent:libc-bin \
	rg:ripgrep; do
	command -v "${pair%%:*}" > /dev/null || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q > /dev/null
	apt-get install -y -q "${need[@]}" > /dev/null
fi
# The Claude Code hook's real-client tests (internal/cli) drive the claude
# CLI, pinned to the version they were written against. Its postinstall
# puts the native binary in place; npm 11 runs it only when allowed by name.
if ! claude --version > /dev/null 2>&1; then
	echo "installing: @anthropic-ai/claude-code@2.1.197"
	npm install -g -q --allow-scripts=@anthropic-ai/claude-code @anthropic-ai/claude-code@2.1.197 > /dev/null
	claude --version
fi
# warden mcp's real-server tests (internal/cli) put the MCP filesystem
# server behind the gateway, pinned to the version its declaration covers.
mcp_dir="$HOME/.cache/warden-ci/mcp"
export WARDEN_TEST_MCP_FILESYSTEM="$mcp_dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
if [ ! -f "$WARDEN_TEST_MCP_FILESYSTEM" ]; then
	echo "installing: @modelcontextprotocol/server-filesystem@2026.8.31"
	npm install -q --prefix "$mcp_dir" @modelcontextprotocol/server-filesystem@2026.8.31 > /dev/null
fi

# The Codex adapter's real-client test (internal/cli) drives the codex
# CLI, pinned to the version it was written against; if npm cannot
# install it, the test says why and skips.
codex_dir="$HOME/.cache/warden-ci/codex"
export WARDEN_TEST_CODEX="$codex_dir/node_modules/.bin/codex"
if ! "$WARDEN_TEST_CODEX" --version 2> /dev/null | grep -q 'codex-cli 0.171.0'; then
	echo "installing: @openai/codex@0.171.0"
	mkdir -p "$codex_dir"
	if ! npm install -q --prefix "$codex_dir" @openai/codex@0.171.0 > "$codex_dir.log" 2>&1; then
		export WARDEN_TEST_CODEX_MISSING="npm install @openai/codex@0.171.0 failed: $(tail -n 1 "$codex_dir.log")"
		echo "$WARDEN_TEST_CODEX_MISSING"
	fi
fi

# The Gemini CLI adapter's real-client test (internal/cli) drives the
# gemini CLI, pinned to the version it was written against; if npm cannot
# install it, the test says why and skips.
gemini_dir="$HOME/.cache/warden-ci/gemini"
export WARDEN_TEST_GEMINI="$gemini_dir/node_modules/.bin/gemini"
if ! "$WARDEN_TEST_GEMINI" --version 2> /dev/null | grep -qx '0.61.0'; then
	echo "installing: @google/gemini-cli@0.61.0"
	mkdir -p "$gemini_dir"
	if ! npm install -q --prefix "$gemini_dir" @google/gemini-cli@0.61.0 > "$gemini_dir.log" 2>&1; then
		export WARDEN_TEST_GEMINI_MISSING="npm install @google/gemini-cli@0.61.0 failed: $(tail -n 1 "$gemini_dir.log")"
		echo "$WARDEN_TEST_GEMINI_MISSING"
	fi
fi

# -timeout: internal/cli's real-client and attack tests take close to go
# test's default ten minutes under -race on a slow machine; a package that
# hangs is still stopped, with every goroutine's stack.
echo "+ go test -race -tags integration -timeout 30m ./..."
go test -race -tags integration -timeout 30m ./...
# The sandbox's tests again, every run taking its init from a sandbox
# kept started, as warden serve keeps one (docs/security-model.md);
# -count=1: the test cache does not see that variable.
echo "+ WARDEN_TEST_WARM=1 go test -race -tags integration -timeout 30m -count=1 ./internal/sandbox"
WARDEN_TEST_WARM=1 go test -race -tags integration -timeout 30m -count=1 ./internal/sandbox
