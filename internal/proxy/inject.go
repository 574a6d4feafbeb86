// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy

// Credential placeholders (package credential) are handled here, in every
// request the proxy reads in plain text: forward requests, transparent
// :80 requests and requests inside streams (intercepted TLS, or plain
// HTTP). The rules:
//
//   - A placeholder of a known credential is looked for in every header
//     value, in the user:password of Basic authorization (base64-decoded),
//     in the query string (also with its colons escaped as %3A), in the
//     path, and in the body.
//   - It is replaced by the value only when the request goes to one of
//     the credential's hosts (for an OpenShell provider's credential,
//     openshell:resolve:env:NAME, to an endpoint of its provider: host,
//     port and path) over TLS the proxy terminated and verified
//     upstream: in headers, Basic authorization and the query string, and
//     in the body only for a credential with Body set (the body is then
//     held in memory, at most Limits.MaxBodyBuffer bytes, and its
//     Content-Length set anew). A placeholder in the path is never
//     replaced.
//   - A placeholder found anywhere else — another host, or plain HTTP
//     even to its own host, since a secret is never sent in clear text —
//     is not replaced: the request is denied with 403 and the credential
//     is named in the attempt's Flagged (an OpenShell credential's
//     403 has OpenShell's credential_endpoint_mismatch body). In a body that is not held in
//     memory, the placeholder is caught while the body streams: the bytes
//     before it may have gone upstream, the placeholder itself never
//     does, and the upstream request is cut there.
//   - TRACE and TRACK are refused where a value would be injected (they
//     echo the request back), and in the response's headers each injected
//     value is put back to its placeholder. A response body is passed on
//     as it is: a host that echoes request headers into its body would
//     hand the value to the sandbox, so bind a credential only to hosts
//     that do not.
//   - Every reason, hint and log line goes through redact, which puts
//     back the placeholder of any value found in it.

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"warden.dev/warden/internal/credential"
)

type injector struct {
	creds []credential.Credential
	// byPH finds a credential by its placeholder; prefixes are the
	// placeholder prefixes in use, and maxName the longest name.
	byPH     map[string]*credential.Credential
	prefixes []string
	maxName  int
	redactor *strings.Replacer
}

func newInjector(creds []credential.Credential) (*injector, error) {
	in := &injector{creds: creds, byPH: map[string]*credential.Credential{}}
	var pairs []string
	for i := range creds {
		c := &creds[i]
		switch {
		case !credential.ValidName(c.Name):
			return nil, fmt.Errorf("credential name %q is not valid", c.Name)
		case in.byPH[c.Placeholder()] != nil:
			return nil, fmt.Errorf("credential %s is given twice", c.Name)
		case c.Value.IsZero():
			return nil, fmt.Errorf("credential %s has no value", c.Name)
		case len(c.Hosts) == 0 && c.Binding == nil:
			return nil, fmt.Errorf("credential %s has no hosts", c.Name)
		}
		in.byPH[c.Placeholder()] = c
		if p := strings.TrimSuffix(c.Placeholder(), c.Name); !slices.Contains(in.prefixes, p) {
			in.prefixes = append(in.prefixes, p)
		}
		in.maxName = max(in.maxName, len(c.Name))
		pairs = append(pairs, c.Value.Reveal(), c.Placeholder())
	}
	// Longest values first, so that a value inside another is not
	// replaced before the longer one.
	idx := make([]int, len(pairs)/2)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return len(pairs[2*b]) - len(pairs[2*a]) })
	var sorted []string
	for _, i := range idx {
		sorted = append(sorted, pairs[2*i], pairs[2*i+1])
	}
	in.redactor = strings.NewReplacer(sorted...)
	return in, nil
}

// boundTo reports whether some credential may be sent to host by its
// hosts: streams to such a host are intercepted so that the placeholder
// can be replaced. (A credential with a binding is bound to endpoints
// that are inspected, and intercepted, by their own rules.)
func (in *injector) boundTo(host string) bool {
	for _, c := range in.creds {
		if c.BoundTo(host) {
			return true
		}
	}
	return false
}

// redact replaces every credential value in s by its placeholder.
func (in *injector) redact(s string) string {
	if len(in.creds) == 0 {
		return s
	}
	return in.redactor.Replace(s)
}

func (in *injector) redactHeader(h http.Header) {
	for _, vs := range h {
		for i, v := range vs {
			vs[i] = in.redact(v)
		}
	}
}

// injection is what prepare did to a request.
type injection struct {
	injected []string
	flagged  []string
	// flaggedCred is the first credential flagged.
	flaggedCred *credential.Credential
	scan        *scanReader // watches a streamed body
}

// flag notes that c's placeholder may not go where r goes.
func (res *injection) flag(c *credential.Credential) {
	if res.flaggedCred == nil {
		res.flaggedCred = c
	}
	addName(&res.flagged, c.Name)
}

// prepare replaces the placeholders of r that may go to host:port
// (secure: over TLS the proxy terminated) and returns a denial when r
// carries one that may not.
func (in *injector) prepare(r *http.Request, host string, port int, secure bool, maxBody int64) (injection, *Decision) {
	var res injection
	if len(in.creds) == 0 {
		return res, nil
	}
	path := r.URL.EscapedPath()
	mayGo := func(c *credential.Credential) bool { return secure && c.MayGo(host, port, path) }
	sub := func(c *credential.Credential) (string, bool) {
		if mayGo(c) {
			addName(&res.injected, c.Name)
			return c.Value.Reveal(), true
		}
		res.flag(c)
		return "", false
	}
	for k, vs := range r.Header {
		for i, v := range vs {
			v = in.rewrite(v, sub)
			if k == "Authorization" || k == "Proxy-Authorization" {
				if scheme, enc, ok := strings.Cut(v, " "); ok && strings.EqualFold(scheme, "Basic") {
					if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc)); err == nil {
						if nd := in.rewrite(string(dec), sub); nd != string(dec) {
							v = scheme + " " + base64.StdEncoding.EncodeToString([]byte(nd))
						}
					}
				}
			}
			vs[i] = v
		}
	}
	if q := r.URL.RawQuery; q != "" {
		q = in.unescapePrefixes(q)
		q = in.rewrite(q, func(c *credential.Credential) (string, bool) {
			v, ok := sub(c)
			return escapeQuery(v), ok
		})
		if q != in.unescapePrefixes(r.URL.RawQuery) {
			r.URL.RawQuery = q
		}
	}
	in.rewrite(r.URL.Path, func(c *credential.Credential) (string, bool) {
		if !mayGo(c) {
			res.flag(c)
		}
		return "", false
	})
	if r.Body != nil && r.Body != http.NoBody && len(res.flagged) == 0 {
		if secure && in.bodyBound(host, port, path) {
			b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
			r.Body.Close()
			if err != nil {
				return res, &Decision{Reason: fmt.Sprintf("reading the request body: %v", err)}
			}
			if int64(len(b)) > maxBody {
				return res, &Decision{Reason: fmt.Sprintf("the request body is larger than %d bytes, the most searched for credential placeholders", maxBody)}
			}
			nb := in.rewrite(string(b), func(c *credential.Credential) (string, bool) {
				if c.Body && mayGo(c) {
					return sub(c)
				} else if !mayGo(c) {
					res.flag(c)
				}
				return "", false
			})
			r.Body = io.NopCloser(strings.NewReader(nb))
			r.ContentLength = int64(len(nb))
			r.TransferEncoding = nil
		} else {
			res.scan = &scanReader{r: r.Body, in: in, flag: func(c *credential.Credential) bool { return !mayGo(c) }}
			r.Body = res.scan
		}
	}
	if res.flaggedCred != nil {
		d := in.flagDecision(res.flaggedCred, host, port, r.Method, path, secure)
		return res, &d
	}
	return res, nil
}

// bodyBound reports whether a credential with Body set may go to
// host:port with path.
func (in *injector) bodyBound(host string, port int, path string) bool {
	for _, c := range in.creds {
		if c.Body && c.MayGo(host, port, path) {
			return true
		}
	}
	return false
}

func (in *injector) flagDecision(c *credential.Credential, host string, port int, method, path string, secure bool) Decision {
	var d Decision
	if c.MayGo(host, port, path) && !secure {
		d = Decision{
			Reason: fmt.Sprintf("the request carries the placeholder of credential %s, which is never sent over plain HTTP", c.Name),
			Hint:   "use https://" + host,
		}
	} else {
		d = Decision{
			Reason: fmt.Sprintf("the request carries the placeholder of credential %s, which may be sent only to %s", c.Name, c.Where()),
			Hint:   fmt.Sprintf("send %s only there", c.Placeholder()),
		}
	}
	if c.Binding != nil {
		d.Body = c.Binding.Denial(host, port, method, path)
	}
	return d
}

// rewrite calls sub for each placeholder of a known credential in s and
// puts its answer in the placeholder's place when it says so.
func (in *injector) rewrite(s string, sub func(c *credential.Credential) (string, bool)) string {
	i, p := in.index(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	for ; i >= 0; i, p = in.index(s) {
		j := i + len(p)
		k := j
		for k < len(s) && credential.IsNameByte(s[k]) {
			k++
		}
		b.WriteString(s[:i])
		v, ok := "", false
		if c := in.byPH[s[i:k]]; c != nil {
			v, ok = sub(c)
		}
		if ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i:k])
		}
		s = s[k:]
	}
	b.WriteString(s)
	return b.String()
}

// index returns where the first placeholder prefix in s starts, and
// which, or -1.
func (in *injector) index(s string) (int, string) {
	at, which := -1, ""
	for _, p := range in.prefixes {
		if i := strings.Index(s, p); i >= 0 && (at < 0 || i < at) {
			at, which = i, p
		}
	}
	return at, which
}

func (in *injector) indexBytes(b []byte) (int, string) {
	at, which := -1, ""
	for _, p := range in.prefixes {
		if i := bytes.Index(b, []byte(p)); i >= 0 && (at < 0 || i < at) {
			at, which = i, p
		}
	}
	return at, which
}

// unescapePrefixes turns each placeholder prefix written with its colons
// escaped (warden%3Acred%3A, any case of the hex) into the prefix.
func (in *injector) unescapePrefixes(q string) string {
	for _, p := range in.prefixes {
		q = unescapePrefix(q, p)
	}
	return q
}

func unescapePrefix(q, prefix string) string {
	esc := strings.ToLower(strings.ReplaceAll(prefix, ":", "%3a"))
	if !strings.Contains(strings.ToLower(q), esc) {
		return q
	}
	var b strings.Builder
	for {
		i := strings.Index(strings.ToLower(q), esc)
		if i < 0 {
			b.WriteString(q)
			return b.String()
		}
		b.WriteString(q[:i])
		b.WriteString(prefix)
		q = q[i+len(esc):]
	}
}

// escapeQuery escapes a value for a query string.
func escapeQuery(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if credential.IsNameByte(c) || c == '-' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func addName(names *[]string, name string) {
	if !slices.Contains(*names, name) {
		*names = append(*names, name)
	}
}

// errPlaceholder stops a streamed body carrying a placeholder that may not
// go where the body goes.
var errPlaceholder = errors.New("the body carries a credential placeholder that may not go to this host")

// scanReader passes a body on while looking for placeholders that flag
// says may not go: it holds back any bytes that may be the start of one
// until it knows, so that a flagged placeholder is never passed on.
type scanReader struct {
	r    io.ReadCloser
	in   *injector
	flag func(c *credential.Credential) bool

	pend  []byte // read, not yet judged
	out   []byte // judged, not yet returned
	chunk []byte
	eof   bool
	err   error
	hit   atomic.Pointer[credential.Credential]
}

// found returns the flagged placeholder's credential, or nil.
func (s *scanReader) found() *credential.Credential { return s.hit.Load() }

func (s *scanReader) Read(p []byte) (int, error) {
	for {
		if len(s.out) > 0 {
			n := copy(p, s.out)
			s.out = s.out[n:]
			return n, nil
		}
		if s.err != nil {
			return 0, s.err
		}
		if s.eof {
			return 0, io.EOF
		}
		if s.chunk == nil {
			s.chunk = make([]byte, 32<<10)
		}
		n, err := s.r.Read(s.chunk)
		s.pend = append(s.pend, s.chunk[:n]...)
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			s.err = err
		}
		safe, c := s.in.safePrefix(s.pend, s.eof || s.err != nil, s.flag)
		if c != nil {
			s.hit.Store(c)
			s.err, s.eof, s.pend = errPlaceholder, false, nil
			continue
		}
		s.out = append(s.out[:0], s.pend[:safe]...)
		s.pend = append(s.pend[:0], s.pend[safe:]...)
	}
}

func (s *scanReader) Close() error { return s.r.Close() }

// safePrefix returns how many bytes at the start of b can be passed on:
// all but a trailing part that may still become a placeholder (unless
// final), or, if b holds a placeholder flag says may not go, that
// placeholder's credential.
func (in *injector) safePrefix(b []byte, final bool, flag func(*credential.Credential) bool) (int, *credential.Credential) {
	off := 0
	for {
		i, p := in.indexBytes(b[off:])
		if i < 0 {
			break
		}
		i += off
		j := i + len(p)
		k := j
		for k < len(b) && credential.IsNameByte(b[k]) {
			k++
		}
		if k == len(b) && !final && k-j <= in.maxName {
			return i, nil
		}
		if c := in.byPH[string(b[i:k])]; c != nil && flag(c) {
			return 0, c
		}
		off = k
	}
	if !final {
		for k := max(off, len(b)-in.longestPrefix()+1); k < len(b); k++ {
			for _, p := range in.prefixes {
				if bytes.HasPrefix([]byte(p), b[k:]) {
					return k, nil
				}
			}
		}
	}
	return len(b), nil
}

func (in *injector) longestPrefix() int {
	n := 0
	for _, p := range in.prefixes {
		n = max(n, len(p))
	}
	return n
}
