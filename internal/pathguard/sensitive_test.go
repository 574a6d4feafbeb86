// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/pathguard"
)

func TestSensitive(t *testing.T) {
	for _, tt := range []struct {
		path string
		want string // the entry; "" when not sensitive
	}{
		{"/home/u/.ssh", ".ssh/"},
		{"/home/u/.ssh/", ".ssh/"},
		{"/home/u/.ssh/id_rsa", ".ssh/"},
		{"/home/u/.ssh/id_rsa.pub", ".ssh/"},
		{"/home/u/.ssh/keys/deploy", ".ssh/"},
		{"/srv/repo/.ssh/authorized_keys", ".ssh/"},
		{"/home/u/.SSH/ID_RSA", ".ssh/"},
		{"/home/u/.sshx/id", ""},
		{"/home/u/x.ssh/id", ""},
		{"relative/.ssh/k", ".ssh/"},
		{"/home/u/.aws/credentials", ".aws/credentials"},
		{"/home/u/.AWS/Credentials", ".aws/credentials"},
		{"/home/u/.aws/config", ".aws/config"},
		{"/home/u/.aws/cli/cache/x.json", ""},
		{"/home/u/aws/credentials", ""},
		{"/home/u/.gnupg", ".gnupg/"},
		{"/home/u/.gnupg/private-keys-v1.d/AB.key", ".gnupg/"},
		{"/home/u/.kube/config", ".kube/"},
		{"/home/u/.kube/cache/x", ".kube/"},
		{"/home/u/.kube/prod.yaml", ".kube/"},
		{"/home/u/.kubex/config", ""},
		{"/home/u/.docker/config.json", ".docker/config.json"},
		{"/p/.docker/config.json", ".docker/config.json"},
		// Without a home, ~/ entries match at any depth (see
		// TestSensitiveIn for the home-anchored reading).
		{"/home/u/.docker/contexts/meta/x/key.pem", "~/.docker/"},
		{"/home/u/.npmrc", "~/.npmrc"},
		{"/p/sub/.npmrc", "~/.npmrc"},
		{"/home/u/.yarnrc.yml", "~/.yarnrc.yml"},
		{"/home/u/.npmrc.bak", ""},
		{"/home/u/.pypirc", ".pypirc"},
		{"/p/.pypirc", ".pypirc"},
		{"/home/u/.config/gcloud", ".config/gcloud/"},
		{"/home/u/.config/gcloud/legacy_credentials/a@b/adc.json", ".config/gcloud/"},
		{"/home/u/.config/gcloudx/a", ""},
		{"/home/u/.cargo/credentials", ".cargo/credentials*"},
		{"/home/u/.cargo/credentials.toml", ".cargo/credentials*"},
		{"/p/.cargo/config.toml", ""},
		{"/home/u/.cargo/registry/index/x", ""},
		{"/home/u/.vault-token", ".vault-token"},
		{"/home/u/.terraform.d/credentials.tfrc.json", ".terraform.d/credentials*"},
		{"/home/u/.terraform.d/plugins/x", ""},
		{"/home/u/.m2/settings.xml", ".m2/settings*.xml"},
		{"/home/u/.m2/settings-security.xml", ".m2/settings*.xml"},
		{"/home/u/.m2/repository/a/b.jar", ""},
		{"/p/.mvn/settings.xml", ""},
		{"/home/u/.gem/credentials", ".gem/credentials"},
		{"/home/u/.config/hub", ".config/hub"},
		{"/home/u/.bash_history", ".bash_history"},
		{"/home/u/.ZSH_HISTORY", ".zsh_history"},
		{"/home/u/.zhistory", ".zhistory"},
		{"/home/u/.histfile", ".histfile"},
		{"/home/u/.local/share/fish/fish_history", ".local/share/fish/fish_history"},
		{"/home/u/.python_history", ".python_history"},
		{"/home/u/.node_repl_history", ".node_repl_history"},
		{"/home/u/.psql_history", ".psql_history"},
		{"/home/u/.mysql_history", ".mysql_history"},
		{"/home/u/.sqlite_history", ".sqlite_history"},
		{"/home/u/.irb_history", ".irb_history"},
		{"/home/u/.rediscli_history", ".rediscli_history"},
		{"/home/u/.mongodb/mongosh/mongosh_repl_history", ".mongodb/mongosh/"},
		// The coding agents' logins and other tools' token files.
		{"/home/u/.claude/.credentials.json", ".claude/.credentials.json"},
		{"/home/u/.claude/settings.json", ""},
		{"/home/u/.claude.json", "~/.claude.json"},
		{"/home/u/.claude.json.backup", ".claude.json.backup*"},
		{"/home/u/.claude/backups/.claude.json.backup.1765", ".claude.json.backup*"},
		{"/home/u/.codex/auth.json", ".codex/auth.json"},
		{"/home/u/.codex/config.toml", ""},
		{"/home/u/.gemini/oauth_creds.json", ".gemini/oauth_creds.json"},
		{"/home/u/.gemini/mcp-oauth-tokens.json", ".gemini/mcp-oauth-tokens*.json"},
		{"/home/u/.gemini/settings.json", ""},
		{"/home/u/.config/github-copilot/apps.json", ".config/github-copilot/"},
		{"/home/u/.local/share/opencode/auth.json", ".local/share/opencode/auth.json"},
		{"/home/u/.config/git/credentials", ".config/git/credentials"},
		{"/home/u/.config/git/config", ""},
		{"/home/u/.azure/msal_token_cache.json", "~/.azure/"},
		{"/home/u/.wrangler/config/default.toml", ".wrangler/config/default.toml"},
		{"/home/u/.config/.wrangler/config/default.toml", ".wrangler/config/default.toml"}, // the first entry that matches
		{"/p/.wrangler/state/v3/d1/x.sqlite", ""},
		{"/home/u/.pgpass", ".pgpass"},
		{"/home/u/.cache/huggingface/token", ".cache/huggingface/token"},
		{"/home/u/.kaggle/kaggle.json", "kaggle.json"},
		{"/home/u/.mozilla/firefox/x.default/cookies.sqlite", "~/.mozilla/"},
		{"/home/u/.config/google-chrome/Default/Cookies", "~/.config/google-chrome/"},
		{"/home/u/.ipython/profile_default/history.sqlite", ".ipython/profile_*/history.sqlite"},
		{"/home/u/.local/share/atuin/history.db", "~/.local/share/atuin/"},
		{"/home/u/.viminfo", ".viminfo"},
		{"/p/.Rhistory", ".Rhistory"},
		{"/home/u/.bashrc", ""},
		{"/home/u/.bash_logout", ""},
		{"/home/u/.netrc", ".netrc"},
		{"/home/u/_netrc", ""},
		{"/home/u/.git-credentials", ".git-credentials"},
		{"/home/u/.config/gh/hosts.yml", ".config/gh/hosts.yml"},
		{"/home/u/.config/gh/config.yml", ""},
		{"/p/.env", ".env"},
		{"/p/.ENV", ".env"},
		{"/p/.Env.Local", ".env.*"},
		{"/p/.env.production", ".env.*"},
		{"/p/.env.", ".env.*"},
		{"/p/.env.local.example", ".env.*"},
		{"/p/.env.example", ""},
		{"/p/.ENV.EXAMPLE", ""},
		{"/p/.env.sample", ""},
		{"/p/.env.template", ""},
		{"/p/.env.dist", ""},
		{"/p/.envrc", ""},
		{"/p/prod.env", ""},
		{"/p/.environment", ""},
		{"/p/.env/bin/python", ""}, // a virtualenv named .env is a directory, not a dotenv file
		{"/p/id_rsa", "id_rsa*"},
		{"/p/ID_RSA.bak", "id_rsa*"},
		{"/p/id_rsa.pub", ""},
		{"/p/id_rsa.PUB", ""},
		{"/p/id_rsa-cert.pub", ""},
		{"/p/id_ecdsa", "id_ecdsa*"},
		{"/p/id_ecdsa_sk", "id_ecdsa*"},
		{"/p/id_ed25519", "id_ed25519*"},
		{"/p/id_ed25519.pub", ""},
		{"/p/my_id_rsa", ""},
		{"/home/u/backup/id_rsa.bak", "id_rsa*"},
		{"/home/u/a/b/c/d/id_ed25519_deploy", "id_ed25519*"},
		{"/home/u/old/id_dsa", "id_dsa*"},
		{"/home/u/old/id_dsa.pub", ""},
		{"/proc/1234/environ", "/proc/*/environ"},
		{"/proc/self/environ", "/proc/*/environ"},
		{"/proc/thread-self/environ", "/proc/*/environ"},
		{"/proc/1/task/7/environ", "/proc/*/task/*/environ"},
		{"/PROC/1/ENVIRON", "/proc/*/environ"},
		{"/proc/1/cmdline", ""},
		{"/srv/proc/1/environ", ""},
		{"/proc/environ", ""},
		{"proc/1/environ", ""},
		{"/home/u/.ssh/../notes", ""}, // cleaned first
		// Unicode simple folding: K (U+212A KELVIN SIGN) folds to k,
		// ſ (U+017F) to s, as a case-folding filesystem would.
		{"/home/u/.\u212Aube/config", ".kube/"},
		{"/home/u/.\u017F\u017Fh/x", ".ssh/"},
		{"/p/id_r\u017Fa", "id_rsa*"},
		{"/", ""},
		{"", ""},
	} {
		got, ok := pathguard.Sensitive(tt.path)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Sensitive(%q) = %q, %v; want %q, %v", tt.path, got, ok, tt.want, tt.want != "")
		}
	}
}

// TestSensitiveIn checks the entries anchored at the home: the caller's
// own files only, while the others still match at any depth.
func TestSensitiveIn(t *testing.T) {
	for _, tt := range []struct {
		path, home string
		want       string
	}{
		{"/home/u/.npmrc", "/home/u", "~/.npmrc"},
		{"/home/u/.NPMRC", "/home/u/", "~/.npmrc"},
		{"/HOME/U/.npmrc", "/home/u", "~/.npmrc"}, // case-folding filesystems
		{"/home/u/src/app/.npmrc", "/home/u", ""},
		{"/home/v/.npmrc", "/home/u", ""},
		{"/home/u/.yarnrc.yml", "/home/u", "~/.yarnrc.yml"},
		{"/home/u/src/app/.yarnrc.yml", "/home/u", ""},
		{"/home/u/.docker", "/home/u", "~/.docker/"},
		{"/home/u/.docker/contexts/meta/x/tls/key.pem", "/home/u", "~/.docker/"},
		{"/home/u/src/app/.docker/Dockerfile", "/home/u", ""},
		{"/home/u/src/app/.docker/config.json", "/home/u", ".docker/config.json"},
		// A project's own .azure/ (the Azure Developer CLI's
		// environments) and gradle.properties are its configuration.
		{"/home/u/.azure/accessTokens.json", "/home/u", "~/.azure/"},
		{"/home/u/src/app/.azure/dev/config.json", "/home/u", ""},
		{"/home/u/.gradle/gradle.properties", "/home/u", "~/.gradle/gradle.properties"},
		{"/home/u/src/app/gradle.properties", "/home/u", ""},
		{"/home/u/.claude.json", "/home/u", "~/.claude.json"},
		{"/home/u/src/app/.claude.json", "/home/u", ""},
		{"/home/u", "/home/u", ""},
		{"/home/u/../u/.npmrc", "/home/u", "~/.npmrc"}, // cleaned first
		// At any depth, whatever the home.
		{"/home/u/backup/id_rsa.bak", "/home/u", "id_rsa*"},
		{"/srv/x/.kube/config", "/home/u", ".kube/"},
		{"/home/u/src/app/.env", "/home/u", ".env"},
		{"/home/u/src/app/.pypirc", "/home/u", ".pypirc"},
		// An unknown home is the stricter, unanchored reading.
		{"/home/u/src/app/.npmrc", "", "~/.npmrc"},
		{"/home/u/src/app/.npmrc", "relative", "~/.npmrc"},
		{"/home/u/src/app/.npmrc", "/", "~/.npmrc"},
	} {
		got, ok := pathguard.SensitiveIn(tt.path, tt.home)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("SensitiveIn(%q, %q) = %q, %v; want %q, %v", tt.path, tt.home, got, ok, tt.want, tt.want != "")
		}
	}
}

func TestSensitiveSet(t *testing.T) {
	set := pathguard.SensitiveSet()
	var patterns []string
	for _, e := range set {
		if e.Why == "" {
			t.Errorf("entry %q has no Why", e.Pattern)
		}
		if err := pathguard.ValidatePattern(e.Pattern); err != nil {
			t.Errorf("ValidatePattern(%q) = %v", e.Pattern, err)
		}
		patterns = append(patterns, e.Pattern)
	}
	want := []string{
		".ssh/", ".aws/credentials", ".aws/config", ".gnupg/", ".kube/", ".docker/config.json",
		"~/.docker/", ".netrc", ".git-credentials", ".config/gh/hosts.yml", ".config/hub",
		".config/gcloud/", "~/.npmrc", "~/.yarnrc.yml", ".pypirc", ".cargo/credentials*", ".vault-token",
		".terraform.d/credentials*", ".m2/settings*.xml", ".gem/credentials",
		".claude/.credentials.json", "~/.claude.json", ".claude.json.backup*", ".codex/auth.json",
		".gemini/oauth_creds.json", ".gemini/mcp-oauth-tokens*.json", ".qwen/oauth_creds.json",
		".config/github-copilot/", ".local/share/opencode/auth.json", ".config/git/credentials",
		".config/glab-cli/config.yml", "~/.azure/", "~/.oci/", "~/.tsh/", ".config/doctl/config.yaml",
		"~/.fly/config.yml", ".wrangler/config/default.toml", ".config/.wrangler/config/default.toml", ".local/share/com.vercel.cli/auth.json",
		".config/netlify/config.json", "~/.netlify/config.json", ".pulumi/credentials.json",
		"~/.terraformrc", ".config/rclone/rclone.conf", ".s3cfg", "~/.boto", ".pgpass", "~/.my.cnf",
		".mylogin.cnf", ".databrickscfg", ".snowflake/connections.toml", ".snowsql/config",
		"~/.gradle/gradle.properties", ".config/sops/age/keys.txt", ".subversion/auth/",
		"~/.config/configstore/", ".cache/huggingface/token", ".cache/huggingface/stored_tokens", ".huggingface/token",
		"kaggle.json", ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml", "~/.mozilla/",
		"~/.config/google-chrome/", "~/.config/chromium/", "~/.config/BraveSoftware/",
		"~/.config/microsoft-edge/", "~/.local/share/keyrings/", "~/.password-store/", ".bash_history",
		".sh_history", ".zsh_history", ".zhistory", ".histfile", ".local/share/fish/fish_history",
		".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history",
		".irb_history", ".pry_history", ".rediscli_history", ".dbshell", ".mongodb/mongosh/",
		"~/.local/share/atuin/", ".lesshst", ".viminfo", "~/.local/state/nvim/shada/",
		"~/.local/share/nvim/shada/", ".ipython/profile_*/history.sqlite", ".julia/logs/repl_history.jl",
		".duckdb_history", ".cqlsh_history", ".Rhistory", ".env", ".env.*", "id_rsa*", "id_dsa*",
		"id_ecdsa*", "id_ed25519*", "/proc/*/environ", "/proc/*/task/*/environ",
	}
	if diff := cmp.Diff(want, patterns); diff != "" {
		t.Errorf("SensitiveSet() patterns mismatch (-want +got):\n%s", diff)
	}

	// The result is a copy: changing it does not shrink the floor.
	for i := range set {
		set[i].Pattern = "nothing"
		for j := range set[i].Except {
			set[i].Except[j] = "*"
		}
	}
	if got, _ := pathguard.Sensitive("/p/.env.local"); got != ".env.*" {
		t.Errorf("after editing the copy, Sensitive(/p/.env.local) = %q, want .env.*", got)
	}
	if got := pathguard.SensitiveSet()[0].Pattern; got != ".ssh/" {
		t.Errorf("after editing the copy, SensitiveSet()[0].Pattern = %q, want .ssh/", got)
	}
}

func TestValidatePattern(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		wantErr string // substring; "" means valid
	}{
		{".vault-token", ""},
		{"~/.vault-token", ""},
		{"/etc/shadow", ""},
		{"secrets/", ""},
		{"*.pem", ""},
		{"key-??.json", ""},
		{"", "empty"},
		{"/", "names no file"},
		{"~/", "names no file"},
		{"a//b", "empty component"},
		{"a/../b", `".."`},
		{"./a", `"."`},
		{"[ab]", "reserved"},
		{`a\*`, "reserved"},
		{"a\x00b", "NUL"},
	} {
		err := pathguard.ValidatePattern(tt.pattern)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ValidatePattern(%q) = %v, want nil", tt.pattern, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ValidatePattern(%q) = %v, want an error containing %q", tt.pattern, err, tt.wantErr)
		}
	}
}
