// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package credential_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/credential"
)

const secret = "s3cr3t-VALUE-0123456789"

func TestRedactedNeverPrints(t *testing.T) {
	r := credential.NewRedacted(secret)
	type holder struct {
		Token credential.Redacted
		Ptr   *credential.Redacted
	}
	h := holder{Token: r, Ptr: &r}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%10.3s", "%d", "%T"} {
		out = append(out, fmt.Sprintf(verb, r), fmt.Sprintf(verb, h), fmt.Sprintf(verb, &h))
	}
	out = append(out, r.String(), r.GoString(), fmt.Sprint(r), fmt.Sprintln(r, h))
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, string(b))
	var log strings.Builder
	slog.New(slog.NewTextHandler(&log, nil)).Info("x", "token", r, "holder", h)
	slog.New(slog.NewJSONHandler(&log, nil)).Info("x", "token", r, "holder", h)
	out = append(out, log.String(), fmt.Errorf("wrapped %v: %w", r, errors.New("x")).Error())
	for _, s := range out {
		for _, part := range []string{secret, "s3cr3t", "0123456789", fmt.Sprintf("%x", secret)[:12]} {
			if strings.Contains(s, part) {
				t.Errorf("output %q contains %q", s, part)
			}
		}
	}
	if got := r.Reveal(); got != secret {
		t.Errorf("Reveal() = %q, want the value", got)
	}
	if credential.NewRedacted("").IsZero() != true || r.IsZero() {
		t.Error("IsZero is wrong")
	}
}

func TestLoad(t *testing.T) {
	env := map[string]string{"TOKEN": secret, "EMPTY": "", "NL": "a\nb", "TAB": "a\tb"}
	files := map[string]string{"/tok": secret + "\n", "/crlf": secret + "\r\n", "/nl2": secret + "\n\n", "/empty": "\n"}
	src := credential.Sources{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		ReadFile: func(p string) ([]byte, error) {
			if v, ok := files[p]; ok {
				return []byte(v), nil
			}
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		},
	}
	hosts := []string{"api.example.com"}
	for _, tt := range []struct {
		name    string
		spec    credential.Spec
		want    string // the value, or
		wantErr string // a part of the error
		invalid bool
	}{
		{name: "env", spec: credential.Spec{Name: "T", From: "env:TOKEN", Hosts: hosts}, want: secret},
		{name: "file", spec: credential.Spec{Name: "T", From: "file:/tok", Hosts: hosts}, want: secret},
		{name: "file crlf", spec: credential.Spec{Name: "T", From: "file:/crlf", Hosts: hosts}, want: secret},
		{name: "tab kept", spec: credential.Spec{Name: "T", From: "env:TAB", Hosts: hosts}, want: "a\tb"},
		{name: "file two newlines", spec: credential.Spec{Name: "T", From: "file:/nl2", Hosts: hosts}, wantErr: "control character", invalid: true},
		{name: "file empty", spec: credential.Spec{Name: "T", From: "file:/empty", Hosts: hosts}, wantErr: "empty", invalid: true},
		{name: "missing file", spec: credential.Spec{Name: "T", From: "file:/nope", Hosts: hosts}, wantErr: "open /nope"},
		{name: "unset", spec: credential.Spec{Name: "T", From: "env:UNSET", Hosts: hosts}, wantErr: "UNSET is not set"},
		{name: "empty", spec: credential.Spec{Name: "T", From: "env:EMPTY", Hosts: hosts}, wantErr: "empty", invalid: true},
		{name: "newline", spec: credential.Spec{Name: "T", From: "env:NL", Hosts: hosts}, wantErr: "control character at byte 1", invalid: true},
		{name: "bad from", spec: credential.Spec{Name: "T", From: "vault:x", Hosts: hosts}, wantErr: "want env:NAME", invalid: true},
		{name: "bad name", spec: credential.Spec{Name: "1T", From: "env:TOKEN", Hosts: hosts}, wantErr: "credential name", invalid: true},
		{name: "no hosts", spec: credential.Spec{Name: "T", From: "env:TOKEN"}, wantErr: "no hosts", invalid: true},
		{name: "bad host", spec: credential.Spec{Name: "T", From: "env:TOKEN", Hosts: []string{"a b"}}, wantErr: "not a host name", invalid: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := src.Load([]credential.Spec{tt.spec})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load(%+v) error = %v, want one containing %q", tt.spec, err, tt.wantErr)
				}
				if errors.Is(err, credential.ErrInvalid) != tt.invalid {
					t.Errorf("errors.Is(%v, ErrInvalid) = %v, want %v", err, !tt.invalid, tt.invalid)
				}
				if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "a\nb") {
					t.Errorf("error %q contains the value", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load(%+v): %v", tt.spec, err)
			}
			if len(got) != 1 || got[0].Value.Reveal() != tt.want || got[0].Name != "T" {
				t.Fatalf("Load(%+v) = %v, want one credential T", tt.spec, got)
			}
			if p := got[0].Placeholder(); p != "warden:cred:T" {
				t.Errorf("Placeholder() = %q", p)
			}
		})
	}
	if _, err := src.Load([]credential.Spec{{Name: "T", From: "env:TOKEN", Hosts: hosts}, {Name: "T", From: "env:TOKEN", Hosts: hosts}}); err == nil {
		t.Error("Load accepted a name given twice")
	}
}

func TestMatchHost(t *testing.T) {
	for _, tt := range []struct {
		pattern, host string
		want          bool
	}{
		{"api.example.com", "api.example.com", true},
		{"api.example.com", "API.Example.COM.", true},
		{"api.example.com.", "api.example.com", true},
		{"api.example.com", "example.com", false},
		{"api.example.com", "x.api.example.com", false},
		{"api.example.com", "api.example.com.evil", false},
		{"*.example.com", "a.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "badexample.com", false},
		{"*.example.com", ".example.com", false},
		{"10.0.0.1", "10.0.0.1", true},
		{"10.0.0.1", "::ffff:10.0.0.1", true},
		{"::1", "[::1]", true},
		{"10.0.0.1", "10.0.0.2", false},
		{"10.0.0.1", "010.0.0.1", false},
		{"", "", false},
		{"*", "a", false},
	} {
		if got := credential.MatchHost(tt.pattern, tt.host); got != tt.want {
			t.Errorf("MatchHost(%q, %q) = %v, want %v", tt.pattern, tt.host, got, tt.want)
		}
	}
}

func TestBoundTo(t *testing.T) {
	c := credential.Credential{Name: "T", Hosts: []string{"api.example.com", "*.uploads.example.com"}}
	var got []string
	for _, h := range []string{"api.example.com", "x.uploads.example.com", "uploads.example.com", "evil.com"} {
		if c.BoundTo(h) {
			got = append(got, h)
		}
	}
	if diff := cmp.Diff([]string{"api.example.com", "x.uploads.example.com"}, got); diff != "" {
		t.Errorf("BoundTo (-want +got):\n%s", diff)
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{"GH_TOKEN": true, "_x": true, "a1": true, "": false, "1a": false, "a-b": false, "a b": false, "é": false} {
		if got := credential.ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}
