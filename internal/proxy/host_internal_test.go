// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import "testing"

func TestParseHostPort(t *testing.T) {
	for _, tt := range []struct {
		in       string
		def      int
		wantHost string
		wantPort int
		wantErr  bool
	}{
		{in: "Example.COM:443", wantHost: "example.com", wantPort: 443},
		{in: "example.com.:80", wantHost: "example.com", wantPort: 80},
		{in: "example.com", def: 80, wantHost: "example.com", wantPort: 80},
		{in: "under_score.example:1", wantHost: "under_score.example", wantPort: 1},
		{in: "203.0.113.1:8080", wantHost: "203.0.113.1", wantPort: 8080},
		{in: "[2001:db8::1]:443", wantHost: "2001:db8::1", wantPort: 443},
		{in: "[::ffff:127.0.0.1]:443", wantHost: "127.0.0.1", wantPort: 443},
		{in: "[::ffff:7f00:1]", def: 443, wantHost: "127.0.0.1", wantPort: 443},
		{in: "example.com", wantErr: true}, // CONNECT needs a port
		{in: "example.com:", wantErr: true},
		{in: "example.com:0", wantErr: true},
		{in: "example.com:65536", wantErr: true},
		{in: "example.com:0443", wantErr: true},
		{in: "example.com:+443", wantErr: true},
		{in: "127.1:80", wantErr: true},
		{in: "127.0.0.01:80", wantErr: true},
		{in: "0x7f.0.0.1:80", wantErr: true},
		{in: "0x7f000001:80", wantErr: true},
		{in: "2130706433:80", wantErr: true},
		{in: "017700000001:80", wantErr: true},
		{in: "1.2.3.4.:80", wantErr: true},
		{in: "example.123:80", wantErr: true},
		{in: "exa%6dple.com:80", wantErr: true},
		{in: "exa\\mple.com:80", wantErr: true},
		{in: "ex ample.com:80", wantErr: true},
		{in: "exämple.com:80", wantErr: true},
		{in: "xn--exmple-cua.com:80", wantHost: "xn--exmple-cua.com", wantPort: 80},
		{in: "user@example.com:80", wantErr: true},
		{in: "-a.example:80", wantErr: true},
		{in: "a..example:80", wantErr: true},
		{in: ".:80", wantErr: true},
		{in: ":80", wantErr: true},
		{in: "[fe80::1%25eth0]:80", wantErr: true},
		{in: "[fe80::1%eth0]:80", wantErr: true},
		{in: "[1.2.3.4]:80", wantErr: true},
		{in: "::1:80", wantErr: true},
		{in: "a\x00b:80", wantErr: true},
	} {
		def := tt.def
		host, port, err := parseHostPort(tt.in, def)
		if (err != nil) != tt.wantErr || host != tt.wantHost || port != tt.wantPort {
			t.Errorf("parseHostPort(%q, %d) = %q, %d, %v; want %q, %d, error %v", tt.in, def, host, port, err, tt.wantHost, tt.wantPort, tt.wantErr)
		}
	}
}

func TestParseHostBare(t *testing.T) {
	for in, want := range map[string]string{"::1": "::1", "API.example": "api.example", "::ffff:10.0.0.1": "10.0.0.1"} {
		if got, err := parseHost(in, true); err != nil || got != want {
			t.Errorf("parseHost(%q, bare) = %q, %v; want %q", in, got, err, want)
		}
	}
}
