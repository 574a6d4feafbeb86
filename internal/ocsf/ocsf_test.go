// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package ocsf_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/goldentest"
	"warden.dev/warden/internal/ocsf"
)

var t0 = time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)

// events is one of each shape Warden records.
func events() []audit.Event {
	return []audit.Event{
		audit.DecisionEvent(t0, &audit.Decision{Surface: "hook claude-code", Agent: "claude-code", Session: "s1", Project: "/p",
			Tool: "Bash", Subject: "git push origin main", Classes: []string{"gitPush"}, Verdict: "prompt", Answered: "deny",
			Rule: "default", Reason: "pushing to a git remote asks", Policy: "default"}),
		audit.DecisionEvent(t0, &audit.Decision{Surface: "hook gemini", Agent: "gemini", Tool: "write_file", Subject: "/p/notes.txt",
			Classes: []string{"workspaceMutation"}, Verdict: "allow", Answered: "allow", Rule: "default"}),
		audit.DecisionEvent(t0, &audit.Decision{Surface: "hook claude-code", Agent: "claude-code", Tool: "Read", Subject: "/root/.ssh/id_rsa",
			Classes: []string{"secretAccess"}, Verdict: "deny", Answered: "deny", Rule: "floor:sensitive"}),
		audit.DecisionEvent(t0, &audit.Decision{Surface: "hook claude-code", Agent: "claude-code", Tool: "Prompt", Subject: "prompt", Verdict: "prompt", Answered: "prompt"}),
		audit.RunEvent(t0, &audit.Run{ID: "r1", Agent: "codex", Command: []string{"go", "test", "./..."}, Project: "/p", Status: 0}),
		audit.RunEvent(t0, &audit.Run{ID: "r2", Command: []string{"curl", "evil.example"}, Project: "/p", Status: 126, Denied: true, Error: "denied by the policy"}),
		audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r1", Time: t0, Via: "connect", Host: "proxy.golang.org", Port: 443, Method: "GET",
			Protocol: "https", Path: "/x/@v/list", Verdict: "allow", Rule: "go-proxy", Addr: "[2001:db8::1]:443", Status: 200, BytesUp: 120, BytesDown: 4000}),
		audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r1", Time: t0, Via: "transparent", Host: "evil.example", Port: 443, Protocol: "https",
			Verdict: "deny", Rule: "default", Reason: "no rule allows it", Addr: "203.0.113.7:443"}),
		audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r1", Time: t0, Via: "forward", Host: "api.example", Port: 80, Method: "PATCH",
			Protocol: "http", Verdict: "deny", Rule: "api-read-only", Status: 403}),
		audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r1", Time: t0, Via: "dns", Host: "evil.example", Protocol: "dns", Method: "AAAA",
			Verdict: "deny", Rule: "default"}),
		audit.MCPEvent(t0, &audit.MCPCall{Server: "filesystem", ID: json.RawMessage(`7`), Tool: "write_file", Decision: "deny", Rule: "floor:governance-path", Status: "refused"}),
		audit.SyscallEvent(t0, &audit.Syscall{RunID: "r1", Syscall: "ptrace", Errno: "EPERM", Count: 2, PID: 12, Command: "strace"}),
	}
}

// TestClassFields checks, for every mapped event, the fields OCSF 1.1.0
// requires of it and their relations.
func TestClassFields(t *testing.T) {
	categories := map[int]int{ocsf.ClassFileSystem: 1, ocsf.ClassProcess: 1, ocsf.ClassDetection: 2, ocsf.ClassNetwork: 4, ocsf.ClassHTTP: 4, ocsf.ClassDNS: 4, ocsf.ClassAPI: 6}
	activities := map[int][]int{
		ocsf.ClassFileSystem: {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 99},
		ocsf.ClassProcess:    {1, 2, 3, 4, 5, 99},
		ocsf.ClassDetection:  {1, 2, 3, 99},
		ocsf.ClassNetwork:    {1, 2, 3, 4, 5, 6, 99},
		ocsf.ClassHTTP:       {1, 2, 3, 4, 5, 6, 7, 8, 99},
		ocsf.ClassDNS:        {1, 2, 6, 99},
		ocsf.ClassAPI:        {1, 2, 3, 4, 99},
	}
	wantClass := []int{ocsf.ClassAPI, ocsf.ClassFileSystem, ocsf.ClassFileSystem, ocsf.ClassAPI, ocsf.ClassProcess, ocsf.ClassProcess,
		ocsf.ClassHTTP, ocsf.ClassNetwork, ocsf.ClassHTTP, ocsf.ClassDNS, ocsf.ClassAPI, ocsf.ClassDetection}
	for i, ev := range events() {
		o := ocsf.FromEvent(ev, fmt.Sprint(i+1), "v1.2.3")
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"class_uid", "category_uid", "activity_id", "type_uid", "time", "severity_id", "metadata"} {
			if _, ok := m[k]; !ok {
				t.Errorf("event %d: no %s in %s", i, k, b)
			}
		}
		if o.ClassUID != wantClass[i] {
			t.Errorf("event %d (%s): class %d, want %d", i, ev.Kind, o.ClassUID, wantClass[i])
		}
		if categories[o.ClassUID] != o.CategoryUID {
			t.Errorf("event %d: class %d in category %d", i, o.ClassUID, o.CategoryUID)
		}
		ok := false
		for _, a := range activities[o.ClassUID] {
			ok = ok || a == o.ActivityID
		}
		if !ok {
			t.Errorf("event %d: activity %d is not one of class %d's", i, o.ActivityID, o.ClassUID)
		}
		if o.TypeUID != o.ClassUID*100+o.ActivityID {
			t.Errorf("event %d: type_uid %d", i, o.TypeUID)
		}
		if o.Time != t0.UnixMilli() {
			t.Errorf("event %d: time %d, want milliseconds %d", i, o.Time, t0.UnixMilli())
		}
		if o.SeverityID < 1 || o.SeverityID > 6 {
			t.Errorf("event %d: severity_id %d", i, o.SeverityID)
		}
		md := m["metadata"].(map[string]any)
		prod := md["product"].(map[string]any)
		if md["version"] != ocsf.SchemaVersion || prod["name"] != "Warden" || prod["version"] != "v1.2.3" {
			t.Errorf("event %d: metadata %v", i, md)
		}
	}
}

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	for i, ev := range events() {
		if err := enc.Encode(ocsf.FromEvent(ev, fmt.Sprint(i+1), "v1.2.3")); err != nil {
			t.Fatal(err)
		}
	}
	goldentest.Check(t, "testdata/events.golden", buf.Bytes())
}
