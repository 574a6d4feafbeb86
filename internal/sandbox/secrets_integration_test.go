// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package sandbox

// Adversarial tests for the secrets a run must not read: the credential
// files of the tools agents use, planted in a test home, histories and
// private keys at any depth of it, the paths of Spec.Mask (the CLI's
// credential sources and Warden's own directories), and a hidden home.
// Each plants a canary on the host, tries to read it from inside, and
// checks the canary never came out, with a control that the same command
// does read an ordinary file beside it. Same assumptions as
// attack_integration_test.go.

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// canary marks every planted secret.
const canary = "warden-secret-canary"

// plantHome writes each name=body under a new home on the root
// filesystem, world-readable: only the sandbox may hide them. A body
// without the canary is a control.
func plantHome(t *testing.T, files map[string]string) string {
	t.Helper()
	home := varTempDir(t)
	for name, body := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o644)
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return home
}

// catAll is a script that prints every file named, each after a marker.
func catAll(names []string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "echo '== %s'; cat %q 2>&1; ", n, n)
	}
	return b.String()
}

// wantHidden checks that no canary came out and every control did.
func wantHidden(t *testing.T, o outcome, controls []string) {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	out := o.stdout + o.stderr
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, canary) {
			t.Errorf("a planted secret came out of the sandbox: %q", line)
		}
	}
	for _, c := range controls {
		if !strings.Contains(out, c) {
			t.Errorf("control: %q was not read inside, so the test proves nothing", c)
		}
	}
}

// TestAdversarialSecretsCredentialFiles plants the credential files of
// npm, PyPI, gcloud, cargo, Vault, Terraform, Maven, RubyGems, hub, docker
// and kube, the coding agents' logins (Claude Code, Codex, Gemini CLI,
// Copilot, OpenCode) and other tools' token files, browser profiles,
// shell and REPL histories, and private keys below the top of the home,
// and reads each from inside.
func TestAdversarialSecretsCredentialFiles(t *testing.T) {
	secrets := []string{
		".npmrc", ".yarnrc.yml", ".pypirc",
		".config/gcloud/credentials.db", ".config/gcloud/legacy_credentials/a@b.c/adc.json",
		".cargo/credentials.toml", ".cargo/credentials", ".vault-token",
		".terraform.d/credentials.tfrc.json", ".m2/settings.xml", ".m2/settings-security.xml",
		".gem/credentials", ".config/hub",
		".docker/config.json", ".docker/contexts/meta/0123/meta.json", ".kube/config", ".kube/anything",
		".kube/cache/oidc-token",
		".bash_history", ".zsh_history", ".zhistory", ".histfile", ".local/share/fish/fish_history",
		".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history",
		".irb_history", ".rediscli_history",
		"backup/id_rsa.bak", "backup/old/id_ed25519", "src/other/.env",
		// The coding agents' own logins and state, other tools' token
		// files, browser profiles, more histories.
		".claude/.credentials.json", ".claude.json", ".claude.json.backup", ".claude/backups/.claude.json.backup.1",
		".codex/auth.json", ".gemini/oauth_creds.json", ".gemini/mcp-oauth-tokens-v2.json", ".qwen/oauth_creds.json",
		".config/github-copilot/apps.json", ".local/share/opencode/auth.json",
		".config/git/credentials", ".config/glab-cli/config.yml", ".azure/msal_token_cache.json", ".tsh/keys/p/u",
		".config/.wrangler/config/default.toml", ".pgpass", ".my.cnf", ".s3cfg", ".pulumi/credentials.json",
		".cache/huggingface/token", ".kaggle/kaggle.json", ".config/sops/age/keys.txt", ".gradle/gradle.properties",
		".mozilla/firefox/p.default/logins.json", ".config/google-chrome/Default/Login Data",
		".local/share/keyrings/login.keyring", ".local/share/atuin/history.db", ".viminfo",
		".ipython/profile_default/history.sqlite",
	}
	files := map[string]string{
		// Controls: ordinary files beside the secrets.
		".profile":           "control-profile",
		".cargo/config.toml": "control-cargo-config",
		".m2/notes.txt":      "control-m2",
		".config/other.conf": "control-config",
		"backup/notes.txt":   "control-backup",
		"backup/id_rsa.pub":  "control-public-key",
		".bashrc":            "control-bashrc",
		// The agents' other files stay readable.
		".claude/settings.json": "control-claude-settings",
		".codex/config.toml":    "control-codex-config",
		".config/git/config":    "control-git-config",
	}
	for _, s := range secrets {
		files[s] = canary + " " + s
	}
	home := plantHome(t, files)
	// ~/archive is a link to a directory elsewhere: what the command
	// reads as ~/archive/id_rsa.bak is a key too.
	archive := plantHome(t, map[string]string{"id_rsa.bak": canary + " linked archive", "notes.txt": "control-archive"})
	if err := os.Symlink(archive, filepath.Join(home, "archive")); err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, "archive/id_rsa.bak")
	// Outside, every secret is readable: the sandbox alone hides them.
	for _, s := range secrets {
		if b, err := os.ReadFile(filepath.Join(home, s)); err != nil || !strings.Contains(string(b), canary) {
			t.Fatalf("control: %s is not readable outside: %v", s, err)
		}
	}
	// A project with an .npmrc and a .docker/ of its own: project
	// configuration, read inside (the home-anchored entries).
	project := openProject(t)
	writeFiles(t, project, map[string]string{".npmrc": "control-project-npmrc", ".docker/compose.yml": "control-project-docker"})
	os.Chmod(filepath.Join(project, ".docker"), 0o755)
	var paths []string
	for _, s := range secrets {
		paths = append(paths, "~/"+s)
	}
	script := strings.ReplaceAll(catAll(paths), `"~/`, `"$HOME/`) +
		"cat ~/.profile ~/.cargo/config.toml ~/.m2/notes.txt ~/.config/other.conf ~/backup/notes.txt ~/backup/id_rsa.pub ~/.bashrc ~/archive/notes.txt ~/.claude/settings.json ~/.codex/config.toml ~/.config/git/config .npmrc .docker/compose.yml; " +
		"grep -r " + canary + " ~ 2>/dev/null; true"
	o := run(t, Spec{Project: project, Home: home, Mode: WorkspaceWrite, Argv: sh(script)})
	wantHidden(t, o, []string{"control-profile", "control-cargo-config", "control-m2", "control-config",
		"control-backup", "control-public-key", "control-bashrc", "control-archive", "control-project-npmrc", "control-project-docker",
		"control-claude-settings", "control-codex-config", "control-git-config"})
}

// TestAdversarialSecretsMaskedPaths reads the paths of Spec.Mask from
// inside: a credential's source file outside the home, Warden's state and
// configuration directories (a CA key, a policy, a token), each with an
// ordinary file beside it.
func TestAdversarialSecretsMaskedPaths(t *testing.T) {
	dir := plantHome(t, map[string]string{
		"creds/token":               canary + " credential source",
		"creds/ordinary":            "control-beside-credential",
		"config/warden/policy.yaml": canary + " policy",
		"config/warden/ca/ca.key":   canary + " CA key",
		"config/other.conf":         "control-config",
		"state/warden/token":        canary + " API token",
		"state/warden/warden.db":    canary + " store",
		"state/other":               "control-state",
		"link-to-token":             "", // replaced by a link below
		// A name Spec.Mask takes literally: as a glob, it would not
		// match itself.
		"creds/[x]*?.key": canary + " a name that is not a glob",
		"creds/x1.key":    "control-glob-neighbour",
	})
	// A link to the source: the target is what is masked.
	link := filepath.Join(dir, "link-to-token")
	os.Remove(link)
	if err := os.Symlink(filepath.Join(dir, "creds/token"), link); err != nil {
		t.Fatal(err)
	}
	mask := []string{filepath.Join(dir, "creds/token"), filepath.Join(dir, "config/warden"), filepath.Join(dir, "state/warden"),
		filepath.Join(dir, "creds/[x]*?.key"), filepath.Join(dir, "does-not-exist")}
	script := catAll([]string{
		filepath.Join(dir, "creds/token"), link, filepath.Join(dir, "config/warden/policy.yaml"),
		filepath.Join(dir, "config/warden/ca/ca.key"), filepath.Join(dir, "state/warden/token"),
		filepath.Join(dir, "state/warden/warden.db"), filepath.Join(dir, "creds/[x]*?.key"),
		filepath.Join(dir, "creds/x1.key"), filepath.Join(dir, "creds/ordinary"), filepath.Join(dir, "config/other.conf"), filepath.Join(dir, "state/other"),
	}) + "ls -la " + filepath.Join(dir, "config/warden") + "; grep -r " + canary + " " + dir + " 2>/dev/null; true"
	o := run(t, Spec{Home: varTempDir(t), Mask: mask, Argv: sh(script)})
	wantHidden(t, o, []string{"control-beside-credential", "control-config", "control-state", "control-glob-neighbour"})
}

// TestAdversarialSecretsNamesNotUTF8: a home, a project directory and a
// path of Spec.Mask whose names are not UTF-8 (a Latin-1 é, a byte an
// agent chose). init gets its configuration as JSON, whose strings are
// UTF-8: each such path reached it as another one, and init skips a mask
// it does not find, so ~/.ssh/id_rsa below a home named in Latin-1, an
// .env in a directory the agent named so, or a masked credential came
// out of the sandbox.
func TestAdversarialSecretsNamesNotUTF8(t *testing.T) {
	parent := plantHome(t, nil)
	home := filepath.Join(parent, "caf\xe9")
	writeFiles(t, home, map[string]string{
		".ssh/id_rsa":      canary + " private key below a Latin-1 home",
		".aws/credentials": canary + " AWS credentials below a Latin-1 home",
		"notes.txt":        "control-home-notes",
	})
	creds := plantHome(t, map[string]string{"\xff\xfe/token": canary + " masked credential", "\xff\xfe/ordinary": "control-beside-mask"})
	project := openProject(t)
	writeFiles(t, project, map[string]string{"sub\xff/.env": canary + " project .env below a name that is not UTF-8",
		"sub\xff/notes.txt": "control-project-notes"})
	// The command names them by glob: its arguments and environment
	// went through the same JSON.
	script := fmt.Sprintf(`cat "$HOME/notes.txt" %[1]s/caf*/.ssh/id_rsa %[1]s/caf*/.aws/credentials %[1]s/caf*/notes.txt `+
		`sub*/.env sub*/notes.txt %[2]s/*/token %[2]s/*/ordinary 2>&1; grep -r %[3]s %[1]s . %[2]s 2>/dev/null; true`,
		parent, creds, canary)
	o := run(t, Spec{Project: project, Home: home, Mask: []string{filepath.Join(creds, "\xff\xfe/token")},
		Mode: WorkspaceWrite, Argv: sh(script)})
	wantHidden(t, o, []string{"control-home-notes", "control-beside-mask", "control-project-notes"})
	// $HOME came through as it is, too.
	if strings.Count(o.stdout, "control-home-notes") < 2 {
		t.Errorf("$HOME/notes.txt was not read inside: the home's path did not reach the command as it is")
	}
}

// TestAdversarialSecretsHiddenHome runs with the home hidden: a canary in
// ~/notes.txt and the home's other files are not there at all, the
// project under the home is writable, a read-only path the policy lists is
// readable and not writable, and go build finds its module in the module
// cache, bound back read-only.
func TestAdversarialSecretsHiddenHome(t *testing.T) {
	requireTool(t, "go")
	home := plantHome(t, map[string]string{
		"notes.txt":        canary + " notes",
		"src/other/README": canary + " another project",
		".gitconfig":       "control-gitconfig",
		"proj/go.mod":      "module example.com/proj\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"proj/main.go":     "package main\n\nimport \"example.com/dep\"\n\nfunc main() { println(dep.Hello()) }\n",
	})
	project := filepath.Join(home, "proj")
	os.Chmod(project, 0o777)
	fillModuleCache(t, home, project)
	cache := filepath.Join(home, ".cache", "warden", "run-cache", "x")
	if err := os.MkdirAll(cache, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cache, 0o777)

	script := catAll([]string{"$HOME/notes.txt", "$HOME/src/other/README", "$HOME/.gitconfig"}) +
		`ls -A ~; echo x > ~/planted && echo WROTE-HOME; echo x >> ~/.gitconfig && echo WROTE-GITCONFIG; ` +
		`echo made > ~/proj/made && echo WROTE-PROJECT; ` +
		`GOPROXY=off GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOSUMDB=off go build -o hello . && ./hello`
	spec := Spec{Project: project, Home: home, HideHome: true, Mode: WorkspaceWrite, Cache: cache,
		ReadOnly: []string{filepath.Join(home, ".gitconfig")}, Argv: sh(script)}
	o := run(t, spec)
	wantHidden(t, o, []string{"control-gitconfig", "WROTE-PROJECT", "hello from the module cache"})
	for _, bad := range []string{"WROTE-HOME", "WROTE-GITCONFIG"} {
		if strings.Contains(o.stdout, bad) {
			t.Errorf("%s: the hidden home was writable", bad)
		}
	}
	for _, name := range []string{"notes.txt", "src"} {
		if strings.Contains(o.stdout, "\n"+name+"\n") {
			t.Errorf("ls ~ listed %s, which the hidden home does not show", name)
		}
	}
	// From outside: the project's file arrived, nothing was planted in
	// the home, and the policy's read-only file is unchanged.
	if b, err := os.ReadFile(filepath.Join(project, "made")); err != nil || string(b) != "made\n" {
		t.Errorf("the write in the project did not reach the host: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(home, "planted")); err == nil {
		t.Error("a file was planted in the host's home")
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".gitconfig")); string(b) != "control-gitconfig" {
		t.Errorf("~/.gitconfig changed on the host: %q", b)
	}

	// Control: the same run with the home visible reads the canary, so
	// the hidden run proves something.
	spec.HideHome = false
	spec.Argv = sh("cat ~/notes.txt")
	if o := run(t, spec); !strings.Contains(o.stdout, canary) {
		t.Errorf("control: with the home visible, ~/notes.txt was not read: %q", o.stdout)
	}
}

// fillModuleCache puts module example.com/dep v1.0.0 in home's module
// cache (GOMODCACHE's default, ~/go/pkg/mod) the way go does, from a
// file proxy, and writes the project's go.sum.
func fillModuleCache(t *testing.T, home, project string) {
	t.Helper()
	proxy := varTempDir(t)
	v := filepath.Join(proxy, "example.com", "dep", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/dep\n\ngo 1.22\n"
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(v, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("list", "v1.0.0\n")
	write("v1.0.0.info", `{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}`)
	write("v1.0.0.mod", mod)
	f, err := os.Create(filepath.Join(v, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range map[string]string{
		"go.mod": mod,
		"dep.go": "package dep\n\n// Hello greets.\nfunc Hello() string { return \"hello from the module cache\" }\n",
	} {
		w, err := zw.Create("example.com/dep@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Outside, as the user's go would: the module cache in the home.
	for _, args := range [][]string{{"mod", "download", "example.com/dep@v1.0.0"}, {"mod", "tidy"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "HOME="+home, "GOPATH="+filepath.Join(home, "go"), "GOMODCACHE="+filepath.Join(home, "go", "pkg", "mod"),
			"GOPROXY=file://"+proxy, "GOSUMDB=off", "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local", "GOENV=off", "GOCACHE="+filepath.Join(proxy, "gocache"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			if d.IsDir() {
				os.Chmod(p, 0o755)
			} else {
				os.Chmod(p, 0o644)
			}
		}
		return nil
	})
	os.Chmod(project, 0o777)
}

// TestAdversarialSecretsHiddenHomeInTmp hides a home under /tmp, as CI
// machines have them: the sandbox's /tmp is its own, and the project
// below the home is still bound back, writable.
func TestAdversarialSecretsHiddenHomeInTmp(t *testing.T) {
	home, err := os.MkdirTemp("/tmp", "warden-home-")
	if err != nil {
		t.Skipf("requires a writable /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	os.Chmod(home, 0o755)
	project := filepath.Join(home, "proj")
	writeFiles(t, home, map[string]string{"notes.txt": canary + " notes", "proj/README": "control-project"})
	os.Chmod(project, 0o777)
	o := run(t, Spec{Project: project, Home: home, HideHome: true, Mode: WorkspaceWrite,
		Argv: sh("cat ~/notes.txt; cat README; echo made > made")})
	wantHidden(t, o, []string{"control-project"})
	if b, err := os.ReadFile(filepath.Join(project, "made")); err != nil || string(b) != "made\n" {
		t.Errorf("the write in the project did not reach the host: %q, %v", b, err)
	}
}
