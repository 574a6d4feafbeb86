// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommandReach pins the one table that builtin:runs-code, lint and
// remembered approvals read: which command prefixes reach any code, which
// name the code they run, and which run only what they say.
func TestCommandReach(t *testing.T) {
	names := map[reach]string{reachSaid: "said", reachNamed: "named", reachAny: "any"}
	cases := map[string]string{
		// Interpreters: alone, or with nothing after what takes the code.
		"python":              "any",
		"python3":             "any",
		"/usr/bin/Python3.12": "any",
		"python -c":           "any",
		"python -m":           "any",
		"python -W ignore":    "any", // an option first: its value could be anything
		"python -Sc":          "any",
		"python -c print(1)":  "named",
		"python -m pytest":    "named",
		"python tools/gen.py": "named",
		"node":                "any",
		"node -e":             "any",
		"node --eval":         "any",
		"node -p":             "any",
		"node server.js":      "named",
		"bash":                "any",
		"bash -c":             "any",
		"bash -ec":            "any",
		"bash scripts/ci.sh":  "named",
		"sh":                  "any",
		"sh -c":               "any",
		"zsh -c":              "any",
		"perl -e":             "any",
		"perl -E":             "any",
		"ruby -e":             "any",
		"php8 -r":             "any",
		"lua -e":              "any",
		"osascript -e":        "any",
		"deno":                "any",
		"deno eval":           "any",
		"deno eval 1":         "named",
		"deno run":            "any",
		"deno run main.ts":    "named",
		"bun":                 "any",
		"bun -e":              "any",
		"bun run build":       "named",
		"awk":                 "any",
		"awk -f":              "any",
		"awk -F: {print}":     "any",
		"awk {print}":         "named",
		"pwsh -Command":       "any",
		// Wrappers: every program they can run.
		"env":                  "any",
		"env FOO=1 make test":  "any",
		"sudo make test":       "any",
		"xargs":                "any",
		"timeout 60 make test": "any",
		"nohup":                "any",
		"strace":               "any",
		// Runners of project targets: the target names what runs.
		"make":             "any",
		"make -f":          "any",
		"make -C sub test": "any",
		"make test":        "named",
		"gmake check":      "named",
		"just build":       "named",
		"npx":              "any",
		"npx prettier":     "named",
		"gradle test":      "named",
		"mvn":              "any",
		// Test runners run the project's code by name.
		"pytest":        "named",
		"pytest tests/": "named",
		"pytest -p":     "any",
		// Multi-purpose tools: alone they are everything.
		"git":                   "any",
		"git -c":                "any",
		"git -c core.pager=cat": "any",
		"git status":            "said",
		"git log":               "said",
		"npm":                   "any",
		"npm test":              "named",
		"npm run":               "any",
		"npm run --if-present":  "any",
		"npm run build":         "named",
		"npm install":           "said",
		"npm exec":              "any",
		"yarn dlx":              "any",
		"go":                    "any",
		"go test":               "named",
		"go test ./...":         "named",
		"go run":                "any",
		"go run ./cmd/tool":     "named",
		"go vet":                "said",
		"go build":              "said",
		"cargo":                 "any",
		"cargo build":           "named",
		"cargo test":            "named",
		"cargo fmt":             "said",
		"uv run":                "any",
		"uv run pytest":         "named",
		"bundle exec":           "any",
		"bundle exec rspec":     "named",
		"docker":                "any",
		"docker ps":             "said",
		"kubectl":               "any",
		// Programs the table does not know run what they say; one run
		// by a path outside the system directories is a file the agent
		// can edit.
		"ls":                 "said",
		"/usr/bin/ls":        "said",
		"./build.sh":         "named",
		"scripts/deploy":     "named",
		"/usr/bin/make test": "named",
		"rm -rf":             "said",
	}
	got, want := map[string]string{}, map[string]string{}
	for prefix, w := range cases {
		got[prefix] = names[commandReach(strings.Fields(prefix))]
		want[prefix] = w
		if InterpreterWide(strings.Fields(prefix)) != (w == "any") {
			t.Errorf("InterpreterWide(%q) = %t, want %t", prefix, !(w == "any"), w == "any")
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commandReach (-want +got):\n%s", diff)
	}
	if !InterpreterWide(nil) {
		t.Error("InterpreterWide(nil) = false, want true: an empty prefix is every command")
	}
}

// TestProgramTable checks the table itself: a program is listed once
// (the table panics at start-up otherwise), by its normalised name, and
// what takes the code is given only where the kind reads it.
func TestProgramTable(t *testing.T) {
	for name, p := range programs() {
		if programName(name) != name {
			t.Errorf("program %q is listed under a name that programName changes to %q: it would never be found", name, programName(name))
		}
		if p.kind == 0 {
			t.Errorf("program %q has no kind", name)
		}
		if len(p.code) > 0 && p.kind != tool {
			t.Errorf("program %q lists subcommands that run code, but only a tool has subcommands", name)
		}
	}
}
