// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"
)

// hello returns what a crypto/tls client sends first for cfg.
func hello(tb testing.TB, cfg *tls.Config) []byte {
	a, b := net.Pipe()
	go func() {
		c := tls.Client(a, cfg)
		c.SetDeadline(time.Now().Add(time.Second))
		c.Handshake()
		a.Close()
	}()
	b.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 16<<10)
	n, _ := io.ReadAtLeast(b, buf, 5)
	for n < 5+int(buf[3])<<8|int(buf[4]) {
		m, err := b.Read(buf[n:])
		if err != nil {
			break
		}
		n += m
	}
	b.Close()
	return buf[:n]
}

func TestClientHelloSNI(t *testing.T) {
	h := hello(t, &tls.Config{ServerName: "api.example", InsecureSkipVerify: true})
	noSNI := hello(t, &tls.Config{InsecureSkipVerify: true})
	// A hello split over two records is still one hello.
	rec := h[5:]
	split := append([]byte{0x16, h[1], h[2], 0, 40}, rec[:40]...)
	split = append(split, 0x16, h[1], h[2], byte((len(rec)-40)>>8), byte(len(rec)-40))
	split = append(split, rec[40:]...)
	for _, tt := range []struct {
		name    string
		in      []byte
		want    string
		wantErr bool
	}{
		{"with SNI", h, "api.example", false},
		{"without SNI", noSNI, "", false},
		{"split over records", split, "api.example", false},
		{"truncated", h[:len(h)-10], "", true},
		{"not TLS", []byte("GET / HTTP/1.1\r\n\r\n"), "", true},
		{"empty", nil, "", true},
		{"oversized record", append([]byte{0x16, 3, 1, 0xff, 0xff}, make([]byte, 70000)...), "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(bytes.NewReader(tt.in), peekBufSize)
			got, err := clientHelloSNI(br)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("clientHelloSNI = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
			// Nothing was consumed.
			rest, _ := io.ReadAll(br)
			if !bytes.Equal(rest, tt.in) {
				t.Errorf("clientHelloSNI consumed %d bytes", len(tt.in)-len(rest))
			}
		})
	}
}

// FuzzClientHelloSNI parses arbitrary bytes as a ClientHello. Properties:
// no panic, nothing consumed, the same answer twice, and a name only
// when the input is a TLS handshake record.
func FuzzClientHelloSNI(f *testing.F) {
	f.Add(hello(f, &tls.Config{ServerName: "api.example", InsecureSkipVerify: true}))
	f.Add(hello(f, &tls.Config{ServerName: "a.b.c.example", InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12}))
	f.Add(hello(f, &tls.Config{InsecureSkipVerify: true}))
	f.Add([]byte{0x16, 3, 1, 0, 4, 1, 0, 0, 0})
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(data), peekBufSize)
		name, err := clientHelloSNI(br)
		br2 := bufio.NewReaderSize(bytes.NewReader(data), peekBufSize)
		name2, err2 := clientHelloSNI(br2)
		if name != name2 || (err == nil) != (err2 == nil) {
			t.Errorf("two parses differ: %q, %v and %q, %v", name, err, name2, err2)
		}
		if err == nil && (len(data) < 5 || data[0] != 0x16) {
			t.Errorf("a hello parsed from bytes that are not a handshake record")
		}
		if err != nil && name != "" {
			t.Errorf("a name with an error")
		}
		rest, _ := io.ReadAll(br)
		if !bytes.Equal(rest, data) {
			t.Errorf("%d bytes consumed", len(data)-len(rest))
		}
	})
}
