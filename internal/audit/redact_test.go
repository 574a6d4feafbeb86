// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package audit_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/audit"
)

func TestRedactText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc" https://api.example/`,
			`curl -H "Authorization: [redacted]" https://api.example/`},
		{`curl -H 'authorization:token ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' x`, `curl -H 'authorization:[redacted]' x`},
		{`git clone https://alice:s3cr3t-pw@git.example/repo.git`, `git clone https://alice:[redacted]@git.example/repo.git`},
		{`export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz01`, `export GITHUB_TOKEN=[redacted]`},
		{`echo ghp_0123456789abcdefghijklmnopqrstuvwxyz01 | gh auth login --with-token`, `echo [redacted] | gh auth login --with-token`},
		{`mysql --password=hunter2 -u root`, `mysql --password=[redacted] -u root`},
		{`AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG" aws s3 ls`, `AWS_SECRET_ACCESS_KEY="[redacted]" aws s3 ls`},
		{`aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, `aws configure set aws_access_key_id [redacted]`},
		{`curl https://api.example/v1?api_key=abc123&page=2`, `curl https://api.example/v1?api_key=[redacted]&page=2`},
		{`ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz claude`, `ANTHROPIC_API_KEY=[redacted] claude`},
		{`{"client_secret": "abc"}`, `{"client_secret": "[redacted]"}`},
		{"cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nEOF",
			"cat > k <<EOF\n[redacted]\nEOF"},
		// What is not a secret stays as it is.
		{`git push origin main`, `git push origin main`},
		{`go test ./... -run TestToken`, `go test ./... -run TestToken`},
		{`cat ~/.ssh/id_rsa`, `cat ~/.ssh/id_rsa`},
		{`https://proxy.golang.org/x/@v/list`, `https://proxy.golang.org/x/@v/list`},
	} {
		if got := audit.RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestRedactCopies: the event's bodies are copied, the caller's left as
// they were.
func TestRedactCopies(t *testing.T) {
	const cmd = "curl -u bob:pw https://x.example/?token=abc"
	d := &audit.Decision{Tool: "Bash", Subject: cmd, Reason: "asks: " + cmd}
	r := &audit.Run{Command: []string{"sh", "-c", cmd}, Stdout: audit.Output{Text: "token=abc\n"},
		NetworkAttempts: []audit.NetworkAttempt{{Host: "x.example", Path: "/?token=abc"}}}
	for _, ev := range []audit.Event{audit.DecisionEvent(t0, d), audit.RunEvent(t0, r)} {
		out := audit.Redact(ev)
		b, err := out.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "abc") {
			t.Errorf("a secret is left in %s", b)
		}
	}
	if diff := cmp.Diff([]string{"sh", "-c", cmd}, r.Command); diff != "" || d.Subject != cmd || r.NetworkAttempts[0].Path != "/?token=abc" {
		t.Errorf("the caller's event was changed: %s %q %q", diff, d.Subject, r.NetworkAttempts[0].Path)
	}
}

// TestRedactLong: a text past MaxText is cut at a space and the cut said;
// no part of a secret across the cut is kept.
func TestRedactLong(t *testing.T) {
	long := strings.Repeat("a ", audit.MaxText/2-10) + "ghp_0123456789abcdefghijklmnopqrstuvwxyz01 tail"
	got := audit.RedactText(long)
	if len(got) > audit.MaxText+64 || !strings.Contains(got, "bytes more not recorded") || strings.Contains(got, "ghp_0123") {
		t.Errorf("RedactText of %d bytes: %d bytes, ending %q", len(long), len(got), got[len(got)-80:])
	}
}
