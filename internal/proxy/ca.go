// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net/netip"
	"os"
	"path/filepath"
	"sync"
	"time"

	"warden.dev/warden/internal/safefile"
)

// File names of a CA directory (see [LoadCA]).
const (
	CACertFile = "ca.crt"
	CAKeyFile  = "ca.key"
)

const (
	caValidity   = 10 * 365 * 24 * time.Hour
	leafValidity = 7 * 24 * time.Hour
	// leafRenew is how long before its end a cached leaf is replaced.
	leafRenew = 24 * time.Hour
	// maxLeaves bounds the leaf cache; past it the oldest is dropped.
	maxLeaves = 4096
)

// CA is Warden's per-installation certificate authority: the proxy mints
// from it the leaf certificates it presents to the sandbox when it
// terminates TLS. Its key never enters a sandbox; its certificate is the
// only part handed out ([CA.CertPEM], [CA.TrustBundle]).
//
// Leaves are ECDSA P-256, valid for 7 days, for one name (or IP address)
// each, and cached (at most 4096). All leaves share one key generated when
// the CA is loaded: the key lives only in this process's memory, and
// sharing it makes minting one signature.
type CA struct {
	cert    *x509.Certificate
	certPEM []byte
	key     *ecdsa.PrivateKey
	leafKey *ecdsa.PrivateKey

	now func() time.Time // testOnlyNow, or time.Now

	mu     sync.Mutex // mu guards the fields below
	leaves map[string]*tls.Certificate
	order  []string // insertion order, for eviction
}

// NewCA makes a CA that lives in memory only, for tests and for runs that
// must not store one.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making CA key: %v", err)
	}
	der, err := newCACert(key, time.Now())
	if err != nil {
		return nil, err
	}
	return newCA(der, key)
}

// LoadCA loads the CA stored in dir (the files [CACertFile] and
// [CAKeyFile]), or makes and stores one when dir holds neither. The
// directory is created with mode 0700 and the key written with mode 0600;
// an existing key readable or writable by group or others is refused,
// as is a directory holding only one of the two files. dir must lie
// outside every sandbox's view, for example under the user's config or
// state directory: whoever reads the key can impersonate any server to
// the sandbox.
func LoadCA(dir string) (*CA, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("making CA directory: %v", err)
	}
	certPath, keyPath := filepath.Join(dir, CACertFile), filepath.Join(dir, CAKeyFile)
	// O_EXCL makes one process the creator when several warden runs
	// start at once; the others wait for its certificate.
	f, err := os.OpenFile(keyPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		return createCA(f, certPath, keyPath)
	case !errors.Is(err, fs.ErrExist):
		return nil, fmt.Errorf("making CA key: %v", err)
	}
	var certDER []byte
	for i := 0; ; i++ {
		b, err := os.ReadFile(certPath)
		if err == nil {
			if certDER, err = pemBlock(b, "CERTIFICATE"); err != nil {
				return nil, fmt.Errorf("reading %s: %v", certPath, err)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || i == 20 {
			return nil, fmt.Errorf("reading CA certificate: %v (remove %s to make a new CA)", err, dir)
		}
		time.Sleep(50 * time.Millisecond)
	}
	fi, err := os.Stat(keyPath)
	if err != nil {
		return nil, fmt.Errorf("reading CA key: %v", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("CA key %s has mode %v: others may read or change it (chmod 600 it, or remove %s to make a new CA)", keyPath, fi.Mode().Perm(), dir)
	}
	b, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, fmt.Errorf("reading CA key: %v", err)
	}
	keyDER, err := pemBlock(b, "EC PRIVATE KEY")
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", keyPath, err)
	}
	key, err := x509.ParseECPrivateKey(keyDER)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", keyPath, err)
	}
	return newCA(certDER, key)
}

func createCA(f *os.File, certPath, keyPath string) (*CA, error) {
	fail := func(err error) (*CA, error) {
		f.Close()
		os.Remove(keyPath)
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fail(fmt.Errorf("making CA key: %v", err))
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return fail(fmt.Errorf("making CA key: %v", err))
	}
	der, err := newCACert(key, time.Now())
	if err != nil {
		return fail(err)
	}
	if err := pem.Encode(f, &pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}); err != nil {
		return fail(fmt.Errorf("writing CA key: %v", err))
	}
	if err := f.Close(); err != nil {
		return fail(fmt.Errorf("writing CA key: %v", err))
	}
	if err := safefile.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		os.Remove(keyPath)
		return nil, fmt.Errorf("writing CA certificate: %v", err)
	}
	return newCA(der, key)
}

func newCACert(key *ecdsa.PrivateKey, now time.Time) ([]byte, error) {
	host, _ := os.Hostname()
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("making CA certificate: %v", err)
	}
	skid := sha1.Sum(pub)
	tmpl := &x509.Certificate{
		SerialNumber: randSerial(),
		Subject: pkix.Name{
			Organization: []string{"Warden"},
			CommonName:   fmt.Sprintf("Warden egress proxy CA (%s, %s)", host, now.UTC().Format("2006-01-02")),
		},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		SubjectKeyId:          skid[:],
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("making CA certificate: %v", err)
	}
	return der, nil
}

func newCA(certDER []byte, key *ecdsa.PrivateKey) (*CA, error) {
	cert, err := x509.ParseCertificate(certDER)
	if err != nil {
		return nil, fmt.Errorf("reading CA certificate: %v", err)
	}
	if !cert.IsCA {
		return nil, errors.New("the CA certificate is not a CA's")
	}
	if pub, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok || !pub.Equal(&key.PublicKey) {
		return nil, errors.New("the CA certificate does not match its key")
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making leaf key: %v", err)
	}
	return &CA{
		cert:    cert,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: certDER}),
		key:     key,
		leafKey: leafKey,
		now:     time.Now,
		leaves:  map[string]*tls.Certificate{},
	}, nil
}

// Certificate returns the CA's certificate.
func (ca *CA) Certificate() *x509.Certificate { return ca.cert }

// CertPEM returns the CA's certificate in PEM form.
func (ca *CA) CertPEM() []byte { return bytes.Clone(ca.certPEM) }

// Leaf returns a certificate for host (a normalised name or IP address)
// signed by the CA, from the cache when it holds one valid for at least
// another day.
func (ca *CA) Leaf(host string) (*tls.Certificate, error) {
	now := ca.now()
	ca.mu.Lock()
	c := ca.leaves[host]
	ca.mu.Unlock()
	if c != nil && now.Add(leafRenew).Before(c.Leaf.NotAfter) {
		return c, nil
	}
	tmpl := &x509.Certificate{
		SerialNumber:          randSerial(),
		Subject:               pkix.Name{Organization: []string{"Warden"}, CommonName: host},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(leafValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		AuthorityKeyId:        ca.cert.SubjectKeyId,
	}
	if tmpl.NotAfter.After(ca.cert.NotAfter) {
		tmpl.NotAfter = ca.cert.NotAfter
	}
	if a, err := netip.ParseAddr(host); err == nil {
		tmpl.IPAddresses = append(tmpl.IPAddresses, a.AsSlice())
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &ca.leafKey.PublicKey, ca.key)
	if err != nil {
		return nil, fmt.Errorf("minting a certificate for %s: %v", host, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("minting a certificate for %s: %v", host, err)
	}
	c = &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: ca.leafKey, Leaf: leaf}
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if _, ok := ca.leaves[host]; !ok {
		if len(ca.order) >= maxLeaves {
			delete(ca.leaves, ca.order[0])
			ca.order = ca.order[1:]
		}
		ca.order = append(ca.order, host)
	}
	ca.leaves[host] = c
	return c, nil
}

// TrustBundle returns system (PEM certificates, usually [SystemRootsPEM])
// followed by the CA's certificate: the file the sandbox's tools are
// pointed at with SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE
// and GIT_SSL_CAINFO. Several of those replace a tool's own roots rather
// than adding to them, hence the system roots.
func (ca *CA) TrustBundle(system []byte) []byte {
	var b bytes.Buffer
	b.Write(system)
	if len(system) > 0 && system[len(system)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "# %s\n", ca.cert.Subject.CommonName)
	b.Write(ca.certPEM)
	return b.Bytes()
}

// WriteTrustBundle writes [CA.TrustBundle] of the system roots to path,
// with mode 0644, replacing the file atomically. It fails when no system
// roots can be found ([SystemRootsPEM]).
func (ca *CA) WriteTrustBundle(path string) error {
	sys, err := SystemRootsPEM()
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(path, ca.TrustBundle(sys), 0o644); err != nil {
		return fmt.Errorf("writing trust bundle: %v", err)
	}
	return nil
}

// rootFiles are where systems keep their CA bundle, in the order
// crypto/x509 looks on Linux; /etc/ssl/cert.pem is macOS's and Alpine's.
var rootFiles = []string{
	"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch
	"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
	"/etc/ssl/ca-bundle.pem",                            // openSUSE
	"/etc/pki/tls/cacert.pem",                           // OpenELEC
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
	"/etc/ssl/cert.pem",                                 // Alpine, macOS, FreeBSD
}

// SystemRootsPEM returns this host's CA bundle: the file named by
// SSL_CERT_FILE in Warden's own environment if set, else the first of the
// usual bundle files that holds a certificate.
func SystemRootsPEM() ([]byte, error) {
	files := rootFiles
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		files = []string{f}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte("-----BEGIN CERTIFICATE-----")) {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no system CA bundle found (looked in %v)", files)
}

func pemBlock(b []byte, typ string) ([]byte, error) {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil, fmt.Errorf("no %s block", typ)
		}
		if blk.Type == typ {
			return blk.Bytes, nil
		}
	}
}

func randSerial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic("internal error: crypto/rand failed: " + err.Error())
	}
	return n.Add(n, big.NewInt(1))
}
