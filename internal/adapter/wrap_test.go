// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package adapter_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
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
		u, ok := w.Unwrap(s)
		if !ok || u.Command != tt.cmd {
			t.Errorf("Unwrap(Wrap(%q)) = %q, %v", tt.cmd, u.Command, ok)
		}
		wantAudit := ""
		if tt.id == "toolu_1" || tt.id == "toolu_2" {
			wantAudit = "/state/runs/" + tt.id + ".json"
		}
		if u.Audit != wantAudit {
			t.Errorf("Unwrap(Wrap(%q)) audit = %q, want %q", tt.cmd, u.Audit, wantAudit)
		}
		wantDir := tt.cwd
		if tt.cwd == w.Project {
			wantDir = ""
		}
		if u.Dir != wantDir {
			t.Errorf("Unwrap(Wrap(%q)) dir = %q, want %q", tt.cmd, u.Dir, wantDir)
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
		if u, ok := w.Unwrap(s); ok {
			t.Errorf("Unwrap(%q) = %q, true; want not recognised", s, u.Command)
		}
	}
}

// TestWrapGrant: the grant id goes on the line between the project and
// the record, Unwrap reads it back, and the argv a grant is bound to is
// the one bash hands warden run.
func TestWrapGrant(t *testing.T) {
	w := &adapter.Wrapper{Exe: "/w/warden", Project: "/p", AuditDir: "/s/runs", Grant: "0123456789abcdef0123456789abcdef"}
	s := w.Wrap("make", "/p/sub", "toolu_1")
	want := "'/w/warden' run --no-approver --project '/p' --grant 0123456789abcdef0123456789abcdef --audit-json '/s/runs/toolu_1.json' -- bash -c 'cd -- '\\''/p/sub'\\'' || exit 125\nmake'"
	if s != want {
		t.Errorf("Wrap = %s\nwant   %s", s, want)
	}
	u, ok := w.Unwrap(s)
	if !ok || u.Grant != w.Grant || u.Dir != "/p/sub" || u.Command != "make" || u.Audit != "/s/runs/toolu_1.json" {
		t.Errorf("Unwrap = %+v, %v", u, ok)
	}
	if diff := cmp.Diff([]string{"bash", "-c", "cd -- '/p/sub' || exit 125\nmake"}, w.Argv("make", "/p/sub")); diff != "" {
		t.Errorf("Argv (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bash", "-c", "make"}, w.Argv("make", "/p")); diff != "" {
		t.Errorf("Argv in the project (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"../x", "a b", ""} {
		forged := strings.Replace(s, w.Grant, bad, 1)
		if _, ok := w.Unwrap(forged); ok && bad != "" {
			t.Errorf("Unwrap with grant %q recognised", bad)
		}
	}
}

// TestUnwrapJudgedWhereItRuns: a line in --wrap's form that the agent
// writes itself is judged in the directory its cd names, not the
// payload's cwd; a relative one is taken where the line runs.
func TestUnwrapJudgedWhereItRuns(t *testing.T) {
	w := &adapter.Wrapper{Exe: "/w/warden", Project: "/p"}
	for _, tt := range []struct{ line, want string }{
		{w.Wrap("rm -rf x", "/elsewhere", ""), "/elsewhere"},
		{w.Wrap("rm -rf x", "/p", ""), "/p/sub"},
		{strings.Replace(w.Wrap("rm -rf x", "/q", ""), "'/q'", "'../..'", 1), "/"},
	} {
		c := &adapter.Call{Cwd: "/p/sub", Dir: "/p/sub"}
		r := request.Request{Tool: "bash", Command: tt.line, Cwd: "/p/sub"}
		c.Unwrap(&r, adapter.Options{Project: "/p", Wrap: w})
		if !c.Wrapped || r.Command != "rm -rf x" || !r.Contained {
			t.Fatalf("Unwrap(%q): wrapped %v, command %q", tt.line, c.Wrapped, r.Command)
		}
		if r.Cwd != tt.want || c.Dir != tt.want {
			t.Errorf("Unwrap(%q): judged in %q (call dir %q), want %q", tt.line, r.Cwd, c.Dir, tt.want)
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
