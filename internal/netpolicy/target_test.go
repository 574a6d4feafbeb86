// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/netpolicy"
)

// parsed is what a test compares of a Target.
type parsed struct {
	Host     string
	IP       bool
	Port     uint16
	Protocol netpolicy.Protocol
	Path     string
	URL      bool
	String   string
}

func parsedOf(t netpolicy.Target) parsed {
	_, ip := t.IP()
	return parsed{t.Host(), ip, t.Port(), t.Protocol(), t.Path(), t.IsURL(), t.String()}
}

func TestParseTarget(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want parsed
		// err is a fragment of the error; set for every refused target.
		err string
	}{
		// URLs and authorities.
		{raw: "https://example.com/p", want: parsed{"example.com", false, 443, netpolicy.HTTPS, "/p", true, "https://example.com:443/p"}},
		{raw: "http://example.com:8080/x", want: parsed{"example.com", false, 8080, netpolicy.HTTP, "/x", true, "http://example.com:8080/x"}},
		{raw: "http://example.com", want: parsed{"example.com", false, 80, netpolicy.HTTP, "", true, "http://example.com:80"}},
		{raw: "http://example.com?q=1#f", want: parsed{"example.com", false, 80, netpolicy.HTTP, "?q=1#f", true, "http://example.com:80?q=1#f"}},
		{raw: "http://example.com/a%20b/c@d", want: parsed{"example.com", false, 80, netpolicy.HTTP, "/a%20b/c@d", true, "http://example.com:80/a%20b/c@d"}},
		{raw: "HTTPS://Example.COM./", want: parsed{"example.com", false, 443, netpolicy.HTTPS, "/", true, "https://example.com:443/"}},
		{raw: "example.com:443", want: parsed{"example.com", false, 443, netpolicy.HTTPS, "", false, "example.com:443"}},
		{raw: "example.com:22", want: parsed{"example.com", false, 22, netpolicy.TCP, "", false, "example.com:22"}},
		{raw: "example.com.:8443", want: parsed{"example.com", false, 8443, netpolicy.TCP, "", false, "example.com:8443"}},
		{raw: "_srv._tcp.example.com:443", want: parsed{"_srv._tcp.example.com", false, 443, netpolicy.HTTPS, "", false, "_srv._tcp.example.com:443"}},
		{raw: "xn--bcher-kva.example:443", want: parsed{"xn--bcher-kva.example", false, 443, netpolicy.HTTPS, "", false, "xn--bcher-kva.example:443"}},
		{raw: "a1.example:443", want: parsed{"a1.example", false, 443, netpolicy.HTTPS, "", false, "a1.example:443"}},
		{raw: "0x7f.com:443", want: parsed{"0x7f.com", false, 443, netpolicy.HTTPS, "", false, "0x7f.com:443"}},
		{raw: "", err: "empty target"},
		{raw: "example.com", err: "needs a port"},
		{raw: "example.com:443/x", err: "has no path"},
		{raw: "ftp://example.com/", err: `scheme "ftp"`},
		{raw: "//example.com/", err: "not a URL"},
		{raw: "http:///x", err: "no host"},
		{raw: "http://:80/", err: "no host"},
		{raw: "http://example.com:/", err: "empty port"},
		{raw: "http://example.com:0/", err: "not in 1-65535"},
		{raw: "http://example.com:65536/", err: "not in 1-65535"},
		{raw: "http://example.com:080/", err: "leading zero"},
		{raw: "http://example.com:8o/", err: "not a decimal number"},
		{raw: "example.com:+443", err: "not a decimal number"},

		// IPv4: only the canonical dotted quad.
		{raw: "127.0.0.1:80", want: parsed{"127.0.0.1", true, 80, netpolicy.TCP, "", false, "127.0.0.1:80"}},
		{raw: "http://192.0.2.1/", want: parsed{"192.0.2.1", true, 80, netpolicy.HTTP, "/", true, "http://192.0.2.1:80/"}},
		{raw: "0177.0.0.1:80", err: "non-canonical"},
		{raw: "http://0x7f.1/", err: "non-canonical"},
		{raw: "http://0x7f000001/", err: "non-canonical"},
		{raw: "2130706433:80", err: "non-canonical"},
		{raw: "127.1:80", err: "non-canonical"},
		{raw: "1.2.3.04:80", err: "non-canonical"},
		{raw: "1.2.3.4.:80", err: "non-canonical"},
		{raw: "1.2.3.4.5:80", err: "non-canonical"},
		{raw: "http://0x/", err: "non-canonical"},
		{raw: "[127.0.0.1]:80", err: "not an IPv6 address"},

		// IPv6: in brackets, zone as %25.
		{raw: "[::1]:443", want: parsed{"::1", true, 443, netpolicy.HTTPS, "", false, "[::1]:443"}},
		{raw: "https://[2001:DB8::1]/", want: parsed{"2001:db8::1", true, 443, netpolicy.HTTPS, "/", true, "https://[2001:db8::1]:443/"}},
		{raw: "[::ffff:127.0.0.1]:443", want: parsed{"::ffff:127.0.0.1", true, 443, netpolicy.HTTPS, "", false, "[::ffff:127.0.0.1]:443"}},
		{raw: "[::ffff:7f00:1]:443", want: parsed{"::ffff:127.0.0.1", true, 443, netpolicy.HTTPS, "", false, "[::ffff:127.0.0.1]:443"}},
		{raw: "[64:ff9b::7f00:1]:443", want: parsed{"64:ff9b::7f00:1", true, 443, netpolicy.HTTPS, "", false, "[64:ff9b::7f00:1]:443"}},
		{raw: "[::127.0.0.1]:443", want: parsed{"::7f00:1", true, 443, netpolicy.HTTPS, "", false, "[::7f00:1]:443"}},
		{raw: "[fe80::1%25eth0]:443", want: parsed{"fe80::1%eth0", true, 443, netpolicy.HTTPS, "", false, "[fe80::1%25eth0]:443"}},
		{raw: "[fe80::1%eth0]:443", err: "percent-encoding"},
		{raw: "[fe80::1%25]:443", err: "zone"},
		{raw: "[fe80::1%25e%2fth]:443", err: "percent-encoding"},
		{raw: "[::ffff:127.1]:443", err: "not an IPv6 address"},
		{raw: "::1:443", err: "must be in brackets"},
		{raw: "[::1:443", err: "unclosed ["},
		{raw: "[::1]x:443", err: "after the IPv6 address"},
		{raw: "a[b]:443", err: "brackets"},

		// Names.
		{raw: "*.example.com:443", err: "not a host name"},
		{raw: "-a.example.com:443", err: "not a host name"},
		{raw: "a-.example.com:443", err: "not a host name"},
		{raw: "a..example.com:443", err: "not a host name"},
		{raw: "example.com..:443", err: "not a host name"},
		{raw: ".:443", err: "no host"},
		{raw: strings.Repeat("a", 64) + ".com:443", err: "not a host name"},
		{raw: strings.Repeat("abcdefghi.", 26) + "com:443", err: "longer than 253"},

		// Forbidden characters and userinfo.
		{raw: "http://allowed.com@evil.com/", err: "userinfo"},
		{raw: "http://user:pw@example.com/", err: "userinfo"},
		{raw: "allowed.com@evil.com:443", err: "userinfo"},
		{raw: "http://ex%61mple.com/", err: "percent-encoding"},
		{raw: "http://example.com%2f.evil.com/", err: "percent-encoding"},
		{raw: `http://example.com\@evil.com/`, err: "backslash"},
		{raw: `http://evil.com\.example.com/`, err: "backslash"},
		{raw: `http://example.com/a\b`, err: "backslash"},
		{raw: "http://exämple.com/", err: "non-ASCII"},
		{raw: "http://example.com/ä", err: "non-ASCII"},
		{raw: "http://ｅxample.com/", err: "non-ASCII"},
		{raw: "http://example.com/\r\nHost: evil.com", err: "control character"},
		{raw: "example.com\x00.evil.com:443", err: "control character"},
		{raw: "http://example.com\t/", err: "control character"},
		{raw: "http://example.com/\x7f", err: "control character"},
		{raw: "http://exa mple.com/", err: "space"},
	} {
		got, err := netpolicy.ParseTarget(tt.raw)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseTarget(%q) = %+v, %v; want an error containing %q", tt.raw, parsedOf(got), err, tt.err)
			}
			if _, ok := err.(*netpolicy.TargetError); err != nil && !ok {
				t.Errorf("ParseTarget(%q): error %T, want *TargetError", tt.raw, err)
			}
			if got.Valid() {
				t.Errorf("ParseTarget(%q) returned a valid target with an error", tt.raw)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTarget(%q): %v", tt.raw, err)
			continue
		}
		if diff := cmp.Diff(tt.want, parsedOf(got)); diff != "" {
			t.Errorf("ParseTarget(%q) (-want +got):\n%s", tt.raw, diff)
		}
		again, err := netpolicy.ParseTarget(got.String())
		if err != nil || again != got {
			t.Errorf("ParseTarget(%q).String() = %q, which parses to %+v, %v", tt.raw, got.String(), parsedOf(again), err)
		}
	}
}
