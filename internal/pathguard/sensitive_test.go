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
		{"/home/u/.kube/config", ".kube/config"},
		{"/home/u/.kube/cache/x", ""},
		{"/home/u/.docker/config.json", ".docker/config.json"},
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
		{"/home/u/.\u212Aube/config", ".kube/config"},
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
		".ssh/", ".aws/credentials", ".aws/config", ".gnupg/", ".kube/config",
		".docker/config.json", ".netrc", ".git-credentials", ".config/gh/hosts.yml",
		".env", ".env.*", "id_rsa*", "id_ecdsa*", "id_ed25519*",
		"/proc/*/environ", "/proc/*/task/*/environ",
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
