// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"warden.dev/warden/internal/proxy"
)

func TestLoadCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "warden", "ca")
	ca, err := proxy.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{proxy.CAKeyFile: 0o600, proxy.CACertFile: 0o644, ".": 0o700} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %v, want %v", name, got, want)
		}
	}
	again, err := proxy.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Certificate().Equal(ca.Certificate()) {
		t.Error("loading the CA again gave another certificate")
	}
	cert := ca.Certificate()
	if !cert.IsCA || !cert.MaxPathLenZero || cert.NotAfter.Before(time.Now().Add(5*365*24*time.Hour)) {
		t.Errorf("CA certificate: IsCA %v, MaxPathLenZero %v, NotAfter %v", cert.IsCA, cert.MaxPathLenZero, cert.NotAfter)
	}
	if bytes.Contains(ca.CertPEM(), []byte("PRIVATE")) {
		t.Error("CertPEM holds a key")
	}
	// A key others may read is refused.
	if err := os.Chmod(filepath.Join(dir, proxy.CAKeyFile), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := proxy.LoadCA(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("LoadCA with a group-readable key = %v, want an error", err)
	}
	// A key without its certificate is refused.
	dir2 := t.TempDir()
	os.WriteFile(filepath.Join(dir2, proxy.CAKeyFile), []byte("x"), 0o600)
	if _, err := proxy.LoadCA(dir2); err == nil {
		t.Error("LoadCA with a key and no certificate succeeded")
	}
}

func TestLoadCAConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	cas := make([]*proxy.CA, 8)
	errs := make([]error, 8)
	for i := range cas {
		wg.Go(func() { cas[i], errs[i] = proxy.LoadCA(dir) })
	}
	wg.Wait()
	for i := range cas {
		if errs[i] != nil {
			t.Fatalf("LoadCA %d: %v", i, errs[i])
		}
		if !cas[i].Certificate().Equal(cas[0].Certificate()) {
			t.Errorf("LoadCA %d made another CA", i)
		}
	}
}

func TestLeaf(t *testing.T) {
	ca, err := proxy.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Certificate())
	for _, host := range []string{"api.example", "203.0.113.1", "2001:db8::1"} {
		c, err := ca.Leaf(host)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots}); err != nil {
			t.Errorf("leaf for %s: %v", host, err)
		}
		again, _ := ca.Leaf(host)
		if again != c {
			t.Errorf("leaf for %s was minted again, want the cached one", host)
		}
	}
}

func TestTrustBundle(t *testing.T) {
	ca, err := proxy.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := proxy.NewCA()
	system := other.CertPEM()
	b := ca.TrustBundle(system)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		t.Fatal("bundle holds no certificate")
	}
	var n int
	for rest := b; ; n++ {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			break
		}
	}
	if n != 2 || !bytes.HasPrefix(b, system) || !bytes.HasSuffix(b, ca.CertPEM()) {
		t.Errorf("bundle = %d certificates, want the system's then the CA", n)
	}
	path := filepath.Join(t.TempDir(), "bundle.pem")
	t.Setenv("SSL_CERT_FILE", writeTemp(t, system))
	if err := ca.WriteTrustBundle(path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if fi, _ := os.Stat(path); !bytes.Equal(got, b) || fi.Mode().Perm() != 0o644 {
		t.Errorf("WriteTrustBundle wrote %d bytes with mode %v, want the bundle with 0644", len(got), fi.Mode().Perm())
	}
	t.Setenv("SSL_CERT_FILE", filepath.Join(t.TempDir(), "missing"))
	if err := ca.WriteTrustBundle(path); err == nil {
		t.Error("WriteTrustBundle without system roots succeeded")
	}
}

func writeTemp(t *testing.T, b []byte) string {
	p := filepath.Join(t.TempDir(), "roots.pem")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
