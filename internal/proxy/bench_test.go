// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

// Benchmarks of the proxy against direct connections on loopback; see
// bench/proxy.sh, which runs them side by side and prints the ratios.

import (
	"bufio"
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

var transferSize = flag.Int64("proxy.transfer", 64<<20, "bytes per transfer in BenchmarkTransfer")

// benchEnv is a proxy with one HTTPS upstream, api.example, allowed
// both as a plain stream (api.example) and intercepted (intercept.example).
func benchEnv(b *testing.B) (*env, string) {
	e := newEnv(b)
	small := strings.Repeat("x", 128)
	srv := e.tlsServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, small) }))
	e.host("api.example", []string{"203.0.113.1"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}})
	e.host("intercept.example", []string{"203.0.113.2"}, srv.Listener.Addr().String(), &hostRule{ports: []int{443}, methods: []string{"GET"}})
	return e, srv.Listener.Addr().String()
}

// BenchmarkHTTPS times one small HTTPS GET: direct, through a CONNECT
// tunnel, and intercepted; on a new connection each time (fresh, as a
// tool started per command does) and on a kept-alive one (reuse).
func BenchmarkHTTPS(b *testing.B) {
	e, backend := benchEnv(b)
	pu, _ := url.Parse("http://" + e.addr)
	for _, mode := range []string{"fresh", "reuse"} {
		for _, path := range []string{"direct", "connect", "intercept"} {
			b.Run(mode+"/"+path, func(b *testing.B) {
				tr := &http.Transport{DisableKeepAlives: mode == "fresh", TLSClientConfig: &tls.Config{RootCAs: e.upPool}}
				host := "api.example"
				switch path {
				case "direct":
					tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
						var d net.Dialer
						return d.DialContext(ctx, network, backend)
					}
				case "connect":
					tr.Proxy = http.ProxyURL(pu)
				case "intercept":
					tr.Proxy = http.ProxyURL(pu)
					tr.TLSClientConfig.RootCAs = e.caPool()
					host = "intercept.example"
				}
				defer tr.CloseIdleConnections()
				c := &http.Client{Transport: tr}
				get := func() {
					resp, err := c.Get("https://" + host + "/")
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
				get()
				b.ResetTimer()
				for b.Loop() {
					get()
				}
			})
		}
	}
}

// BenchmarkTransfer times reading -proxy.transfer bytes (64 MiB by
// default) from a TCP server, directly and through a CONNECT tunnel.
func BenchmarkTransfer(b *testing.B) {
	e := newEnv(b)
	src, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	size := *transferSize
	go func() {
		buf := make([]byte, 256<<10)
		for {
			c, err := src.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				for n := int64(0); n < size; {
					m, err := c.Write(buf[:min(int64(len(buf)), size-n)])
					if err != nil {
						return
					}
					n += int64(m)
				}
			}()
		}
	}()
	e.host("bulk.example", []string{"203.0.113.8"}, src.Addr().String(), &hostRule{ports: []int{9000}})
	for _, path := range []string{"direct", "connect"} {
		b.Run(path, func(b *testing.B) {
			b.SetBytes(size)
			buf := make([]byte, 256<<10)
			// The processor time the transfer costs this process (client,
			// proxy and server alike, kernel time included) per GB, and
			// how many CPUs it kept busy: a transfer that keeps every CPU
			// busy directly can go through the proxy only as fast as the
			// CPUs carry both hops.
			cpu0, wall0 := processCPU(), time.Now()
			defer func() {
				cpu, wall := processCPU()-cpu0, time.Since(wall0)
				b.ReportMetric(cpu.Seconds()*1e3/(float64(size)*float64(b.N)/1e9), "cpu-ms/GB")
				b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cpus")
			}()
			for b.Loop() {
				var c net.Conn
				var r io.Reader
				if path == "direct" {
					c, err = net.Dial("tcp", src.Addr().String())
					if err != nil {
						b.Fatal(err)
					}
					r = c
				} else {
					c, err = net.Dial("tcp", e.addr)
					if err != nil {
						b.Fatal(err)
					}
					fmt.Fprintf(c, "CONNECT bulk.example:9000 HTTP/1.1\r\n\r\n")
					br := bufio.NewReader(c)
					resp, err := http.ReadResponse(br, nil)
					if err != nil || resp.StatusCode != 200 {
						b.Fatalf("CONNECT: %v %v", resp, err)
					}
					r = io.MultiReader(br, c)
				}
				// Read with buf itself: io.Copy to io.Discard would read
				// in 8 KiB pieces.
				var n int64
				for {
					m, err := r.Read(buf)
					n += int64(m)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				c.Close()
				if n != size {
					b.Fatalf("read %d bytes, want %d", n, size)
				}
			}
		})
	}
}

// processCPU is the processor time this process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
