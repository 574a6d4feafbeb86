// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request_test

import (
	"encoding/json"
	"os"
	"testing"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// TestSecretReads judges, against a real home and project, the reads of
// a secret that shell analysis reports without naming the file: a
// recursive read of a directory that holds one (the walk below it finds
// the key), a glob that matches one (expanded against the filesystem), an
// operand of a program no family knows, and the writes into the
// sensitive set.
func TestSecretReads(t *testing.T) {
	root := t.TempDir()
	home, project := root+"/home", root+"/project"
	for _, d := range []string{home + "/.ssh", home + "/.aws", home + "/.gnupg", project + "/src"} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(home+"/.ssh/id_ed25519", []byte("secret"), 0o600))
	must(t, os.WriteFile(home+"/.aws/credentials", []byte("secret"), 0o600))
	must(t, os.WriteFile(project+"/.env", []byte("TOKEN=x"), 0o600))
	must(t, os.WriteFile(project+"/src/main.go", []byte("package main"), 0o644))
	eng, err := policy.Compile(nil, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := request.Options{Dir: project, Home: home}
	for _, tt := range []struct {
		cmd       string
		contained bool
		want      action.Verdict
	}{
		// Recursive reads of a directory that holds a secret.
		{"grep -r x ~", true, action.Deny},
		{"grep -r x " + home, true, action.Deny},
		{"tar czf x.tgz ~/.ssh", true, action.Deny},
		{"zip -r x.zip ~/.aws", true, action.Deny},
		{"cp -r ~/.ssh backup", true, action.Deny},
		{"rsync -a ~/.ssh/ backup/", true, action.Deny},
		{"grep -r x src", true, action.Allow},
		// Globs that match a key.
		{"cat ~/.ssh/*", true, action.Deny},
		{"cat ~/.ssh/id_*", true, action.Deny},
		{"cp ~/.aws/* .", true, action.Deny},
		{"cat src/*", true, action.Allow},
		// Any program's operand.
		{"openssl enc -aes256 -in .env -out x.enc", true, action.Deny},
		{"gpg -c .env", true, action.Deny},
		{"vim -es '+%p' .env", true, action.Deny},
		{"perl -ne print .env", true, action.Deny},
		{"mytool --config=~/.aws/credentials", true, action.Deny},
		{"mytool --config=" + home + "/.aws/credentials", true, action.Deny},
		{"mytool src/main.go", true, action.Allow},
		// Writes into the sensitive set.
		{"ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519", true, action.Deny},
		{"gpg --import key.asc", true, action.Deny},
		// Secret stores and secret-looking variables ask.
		{"echo $AWS_SECRET_ACCESS_KEY", false, action.Prompt},
		{"op read op://v/i/password", false, action.Prompt},
		{"echo $HOME", false, action.Allow},
	} {
		in, _ := json.Marshal(map[string]any{"tool": "bash", "command": tt.cmd, "contained": tt.contained})
		req, err := request.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := req.Action(o)
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		if d, _ := eng.Evaluate(a, policy.Env{}); d.Verdict != tt.want {
			t.Errorf("%s (contained %v): Evaluate = %v (%s), want %v", tt.cmd, tt.contained, d.Verdict, d.Reason, tt.want)
		}
	}
}
