// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration && linux

package cli_test

// What warden run masks of Warden's own, whatever the policy says: the
// file a credential is read from, the interception CA, the state and
// configuration directories; and the hidden home of
// sandbox.filesystem.home. Run with the built CLI (a copy of this test
// binary), as root and as uid 65534; each secret is a canary planted on
// the host, and an ordinary file beside it is the control.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

const secretCanary = "warden-cli-secret-canary"

// secretsEnv is the environment of one user's runs: its home, and
// Warden's directories named as the user would.
func secretsEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "WARDEN_STATE_DIR", "WARDEN_MANAGED_POLICY":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "TMPDIR=/tmp",
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "WARDEN_STATE_DIR="+filepath.Join(home, "state"))
}

func runAs(t *testing.T, as []string, dir string, env []string, args ...string) result {
	t.Helper()
	argv := append(append([]string(nil), as...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	r := collect(t, cmd)
	t.Logf("%q: status %d\nstdout: %s\nstderr: %s", argv, r.code, r.stdout, r.stderr)
	return r
}

// TestAdversarialSecretsWardenOwn reads, from inside warden run, the file
// a credential's from: file: names, the CA key, the state directory's
// token, the policy in the configuration directory and the hook state;
// then, with home: hidden, a note in the home.
func TestAdversarialSecretsWardenOwn(t *testing.T) {
	sandboxtest.RequireRoot(t)
	setpriv := sandboxtest.RequireCommand(t, "setpriv")
	bin, dir := wardenCopy(t)
	for _, u := range []struct {
		name string
		as   []string
		uid  int
	}{
		{"root", []string{bin}, 0},
		{"uid 65534", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}, 65534},
	} {
		t.Run(u.name, func(t *testing.T) {
			base := filepath.Join(dir, strings.ReplaceAll(u.name, " ", "-"))
			home, project, creds := filepath.Join(base, "home"), filepath.Join(base, "home", "proj"), filepath.Join(base, "creds")
			files := map[string]string{
				filepath.Join(creds, "token"):                                     secretCanary + "-credential",
				filepath.Join(creds, "ordinary"):                                  "control-beside-credential",
				filepath.Join(home, "state", "token"):                             secretCanary + "-state",
				filepath.Join(home, "state-sibling"):                              "control-beside-state",
				filepath.Join(home, ".config", "other.conf"):                      "control-beside-config",
				filepath.Join(home, ".cache", "warden", "hook", "x", "note.json"): secretCanary + "-hook-state",
				filepath.Join(home, "notes.txt"):                                  secretCanary + "-home-note",
				filepath.Join(project, "README"):                                  "control-project",
			}
			for p, body := range files {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			policy := filepath.Join(home, ".config", "warden", "policy.yaml")
			writePolicy := func(extra string) {
				body := "# " + secretCanary + "-policy\nversion: 1\nnetwork:\n  credentials:\n    - name: API_TOKEN\n      from: file:" +
					filepath.Join(creds, "token") + "\n      hosts: [api.example.com]\n" + extra
				if err := os.MkdirAll(filepath.Dir(policy), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			writePolicy("")
			filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
				if err == nil {
					os.Lchown(p, u.uid, u.uid)
				}
				return nil
			})
			os.Chmod(project, 0o777)
			env := secretsEnv(home)

			// The script is in the project, which grep reads too: it
			// spells what it looks for so that it does not find itself.
			attack := `for f in "$@"; do echo "== $f"; cat "$f" 2>&1; echo; done; echo "placeholder=$API_TOKEN"; ` +
				`grep -r -e ` + secretCanary + ` -e "PRIVATE"" KEY" "$HOME" ` + creds + ` 2>/dev/null; true`
			read := []string{
				filepath.Join(creds, "token"), filepath.Join(home, ".config", "warden", "ca", "ca.key"),
				filepath.Join(home, "state", "token"), policy, filepath.Join(home, ".cache", "warden", "hook", "x", "note.json"),
				filepath.Join(creds, "ordinary"), filepath.Join(home, "state-sibling"), filepath.Join(home, ".config", "other.conf"),
			}
			r := runAs(t, u.as, project, env, append(append([]string{"run", "--policy", policy, "--"}, scriptIn(t, project, u.uid, attack)...), read...)...)
			if r.code != 0 {
				t.Fatalf("warden run exited %d", r.code)
			}
			// Outside, the CA was made for the credential, and every
			// secret is there to read.
			key, err := os.ReadFile(filepath.Join(home, ".config", "warden", "ca", "ca.key"))
			if err != nil || !bytes.Contains(key, []byte("PRIVATE KEY")) {
				t.Fatalf("control: no CA key on the host: %v", err)
			}
			out := r.stdout + r.stderr
			for _, leak := range []string{secretCanary + "-credential", secretCanary + "-state", secretCanary + "-policy",
				secretCanary + "-hook-state", "PRIVATE KEY"} {
				if strings.Contains(out, leak) {
					t.Errorf("%s came out of the sandbox", leak)
				}
			}
			for _, c := range []string{"control-beside-credential", "control-beside-state", "control-beside-config", "placeholder=warden:cred:API_TOKEN"} {
				if !strings.Contains(out, c) {
					t.Errorf("control: %q not in the output, so the test proves nothing", c)
				}
			}
			// The home as visible: the note is read (the control of the
			// hidden run below).
			if !strings.Contains(runAs(t, u.as, project, env, append([]string{"run", "--policy", policy, "--"}, scriptIn(t, project, u.uid, "cat "+filepath.Join(home, "notes.txt"))...)...).stdout, secretCanary+"-home-note") {
				t.Error("control: with the home visible, ~/notes.txt was not read")
			}

			writePolicy("sandbox:\n  filesystem:\n    home: hidden\n")
			r = runAs(t, u.as, project, env, append([]string{"run", "--policy", policy, "--"},
				scriptIn(t, project, u.uid, `cat ~/notes.txt; cat README; head -1 "$SSL_CERT_FILE"; echo made > made`)...)...)
			if strings.Contains(r.stdout+r.stderr, secretCanary) {
				t.Error("with home: hidden, a file of the home came out of the sandbox")
			}
			for _, c := range []string{"control-project", "BEGIN CERTIFICATE"} {
				if !strings.Contains(r.stdout, c) {
					t.Errorf("with home: hidden, %q not in the output: the project or the CA bundle is not bound back", c)
				}
			}
			if b, err := os.ReadFile(filepath.Join(project, "made")); err != nil || string(b) != "made\n" {
				t.Errorf("with home: hidden, the write in the project did not reach the host: %q, %v", b, err)
			}
		})
	}
}
