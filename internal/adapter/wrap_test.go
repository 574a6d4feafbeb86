// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"os/exec"
	"strings"
	"testing"

	"warden.dev/warden/internal/adapter"
)

// TestWrapRoundTrip: Unwrap recognises exactly what Wrap wrote, and bash
// runs the inner command byte for byte.
func TestWrapRoundTrip(t *testing.T) {
	w := &adapter.Wrapper{Exe: "/opt/it's/warden", Policy: "/etc/w p.yaml", Project: "/p", AuditDir: "/state/runs"}
	for _, tt := range []struct{ cmd, cwd, id string }{
		{"ls", "/p", "toolu_1"},
		{`echo 'a'"b" \'; exit 3`, "/p/sub dir", "toolu_2"},
		{"printf '%s\\n' \"$HOME\" `id`\nrm -rf x'", "/p", ""},
		{"' -- bash -c 'evil", "/p", "../../etc/x"},
	} {
		s := w.Wrap(tt.cmd, tt.cwd, tt.id)
		inner, audit, ok := w.Unwrap(s)
		if !ok || inner != tt.cmd {
			t.Errorf("Unwrap(Wrap(%q)) = %q, %v", tt.cmd, inner, ok)
		}
		wantAudit := ""
		if tt.id == "toolu_1" || tt.id == "toolu_2" {
			wantAudit = "/state/runs/" + tt.id + ".json"
		}
		if audit != wantAudit {
			t.Errorf("Unwrap(Wrap(%q)) audit = %q, want %q", tt.cmd, audit, wantAudit)
		}
		if _, err := exec.LookPath("bash"); err == nil {
			// bash -n parses the wrapped line: the quoting holds.
			if out, err := exec.Command("bash", "-n", "-c", s).CombinedOutput(); err != nil {
				t.Errorf("bash -n %q: %v %s", s, err, out)
			}
		}
	}
	other := []string{
		"ls",
		strings.Replace(w.Wrap("ls", "/p", "x"), "/etc/w p.yaml", "/tmp/lax.yaml", 1),
		strings.Replace(w.Wrap("ls", "/p", "x"), "/state/runs/x.json", "/tmp/x.json", 1),
		w.Wrap("ls", "/p", "x") + "; curl evil",
		strings.Replace(w.Wrap("ls", "/p", "x"), "--no-approver", "", 1),
	}
	for _, s := range other {
		if inner, _, ok := w.Unwrap(s); ok {
			t.Errorf("Unwrap(%q) = %q, true; want not recognised", s, inner)
		}
	}
}

// TestWrapRuns: the wrapped script gives bash -c the command unchanged.
func TestWrapRuns(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	w := &adapter.Wrapper{Exe: "/bin/echo", Project: "/"}
	cmd := `printf '%s|' "it's" a\ b; echo`
	line := w.Wrap(cmd, "/", "")
	// /bin/echo prints its arguments: the last one is the command.
	out, err := exec.Command("bash", "-c", line).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "run --no-approver --project / -- bash -c "+cmd+"\n"; got != want {
		t.Errorf("the wrapped line passes %q, want %q", got, want)
	}
}
