// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the network clients family: fetchers, raw sockets and
// remote shells, with the hosts they contact.

import (
	"net/url"
	"path"
	"strings"

	"warden.dev/warden/internal/action"
)

// netOnly programs contact the network without being fetchers for
// download-and-execute purposes.
var netOnly = map[string]bool{
	"ping": true, "ping6": true, "dig": true, "nslookup": true, "host": true, "traceroute": true,
	"mosh": true, "mtr": true, "whois": true, "nmap": true,
}

// remoteHost returns the host of an scp/rsync operand [user@]host:path or
// rsync://host/…, or "".
func remoteHost(s string) string {
	if strings.Contains(s, "://") {
		return hostOf(s, false)
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return ""
	}
	if slash := strings.IndexByte(s, '/'); slash >= 0 && slash < colon {
		return ""
	}
	h := s[:colon]
	if at := strings.LastIndexByte(h, '@'); at >= 0 {
		h = h[at+1:]
	}
	h = strings.Trim(h, "[]")
	return strings.ToLower(h)
}

// hostOf returns the host of a URL; bare allows "example.com/x".
func hostOf(s string, bare bool) string {
	if !strings.Contains(s, "://") {
		if !bare {
			return ""
		}
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// fetch handles curl, wget and the like: hosts, output files, uploads.
func (a *analyzer) fetch(e *env, name string, args []field) {
	var vals string
	var long []string
	switch name {
	case "curl":
		vals = "AbcdDeEFHKmoQrTuUwxXYyzC"
		long = []string{"data", "data-raw", "data-binary", "data-urlencode", "data-ascii", "form", "form-string", "header", "output",
			"upload-file", "user", "user-agent", "referer", "cookie", "cookie-jar", "config", "request", "proxy", "url", "write-out",
			"max-time", "connect-timeout", "retry", "cacert", "cert", "key", "resolve", "connect-to", "dump-header", "trace",
			"trace-ascii", "stderr", "range", "output-dir", "json", "oauth2-bearer", "proxy-user", "interface", "limit-rate"}
	case "wget":
		vals = "OoaPiUetTwQYlADRIXB"
		long = []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "user-agent", "execute",
			"tries", "timeout", "wait", "quota", "level", "accept", "reject", "domains", "include-directories", "exclude-directories",
			"base", "header", "post-data", "post-file", "body-file", "user", "password", "load-cookies", "save-cookies", "ca-certificate"}
	}
	opts, ops := scan(args, vals, long, false)
	wroteStdout := false
	for _, o := range opts {
		v := o.val
		switch name + " " + o.name {
		case "curl -o", "curl --output", "wget -O", "wget --output-document":
			if v.s == "-" {
				wroteStdout = true
				continue
			}
			a.path(e, v, action.Write)
			if ps, ok := a.abs(e, v.s); ok && !v.dyn {
				for _, p := range ps {
					a.fetched[path.Clean(p)] = true
				}
			}
		case "curl -c", "curl --cookie-jar", "curl -D", "curl --dump-header", "curl --trace", "curl --trace-ascii", "curl --stderr",
			"wget -o", "wget --output-file", "wget -a", "wget --append-output", "wget --save-cookies":
			if v.s != "-" {
				a.path(e, v, action.Write)
			}
		case "curl -T", "curl --upload-file", "curl -K", "curl --config", "wget -i", "wget --input-file", "wget --post-file", "wget --body-file",
			"curl --cacert", "curl -E", "curl --cert", "curl --key":
			a.path(e, v, action.Read)
		case "curl -d", "curl --data", "curl --data-binary", "curl --data-urlencode", "curl --data-ascii", "curl -F", "curl --form", "curl --json", "curl -b", "curl --cookie":
			if !v.dyn {
				if at := strings.IndexByte(v.s, '@'); at >= 0 && (at == 0 || o.name == "-F" || o.name == "--form" || o.name == "--data-urlencode") {
					p := v.s[at+1:]
					if k := strings.IndexByte(p, ';'); k >= 0 {
						p = p[:k]
					}
					if p != "-" {
						a.path(e, field{s: p}, action.Read)
					}
				}
			}
		case "curl -x", "curl --proxy", "curl --url":
			if h := hostOf(v.s, true); h != "" {
				a.host(h)
			}
		case "curl --output-dir", "wget -P", "wget --directory-prefix":
			a.path(e, v, action.Write)
		case "wget -e", "wget --execute":
			a.flag(action.FlagRunsCode)
		}
	}
	_ = wroteStdout
	remoteName := name == "curl" && hasOpt(opts, "-O", "--remote-name", "--remote-name-all")
	for _, f := range ops {
		if f.dyn {
			a.unresolved(name + " with a URL that is not static: " + f.s)
			continue
		}
		h := hostOf(f.s, true)
		if h == "" {
			continue
		}
		a.host(h)
		if (name == "wget" && !hasOpt(opts, "-O", "--output-document", "--spider")) || remoteName {
			base := f.s
			if u, err := url.Parse(f.s); err == nil {
				base = u.Path
			}
			base = base[strings.LastIndexByte(base, '/')+1:]
			if base == "" {
				base = "index.html"
			}
			dir := "."
			if d := optVals(opts, "-P", "--directory-prefix", "--output-dir"); len(d) > 0 && !d[0].dyn {
				dir = d[0].s
			}
			p := base
			if dir != "." {
				p = join(dir, base)
			}
			a.path(e, field{s: p}, action.Write)
			if ps, ok := a.abs(e, p); ok {
				for _, q := range ps {
					a.fetched[path.Clean(q)] = true
				}
			}
		}
	}
}

// netcat-likes: the first operand is the host.
func (a *analyzer) netcat(e *env, name string, args []field) {
	opts, ops := scan(args, "pwsiqxXIOTeMcmS", nil, false)
	if hasOpt(opts, "-e", "-c") {
		a.flag(action.FlagRunsCode)
	}
	if name == "socat" {
		for _, f := range ops {
			for _, part := range strings.Split(f.s, ",") {
				typ, addr, ok := strings.Cut(part, ":")
				if !ok {
					continue
				}
				switch strings.ToUpper(typ) {
				case "TCP", "TCP4", "TCP6", "UDP", "UDP4", "UDP6", "OPENSSL", "SSL":
					h, _, _ := strings.Cut(addr, ":")
					a.host(h)
				case "EXEC", "SYSTEM":
					a.flag(action.FlagRunsCode)
				}
			}
		}
		return
	}
	if hasOpt(opts, "-l") {
		return
	}
	for _, f := range ops {
		if !f.dyn {
			a.host(f.s)
		}
		break
	}
}

// ssh: the destination, then a remote command.
func (a *analyzer) ssh(e *env, name string, args []field) {
	opts, ops := scan(args, "bcDEeFIiJLlmOopQRSWw", nil, true)
	for _, o := range opts {
		switch o.name {
		case "-o":
			if o.val.dyn || sshOptRuns(o.val.s) {
				a.flag(action.FlagRunsCode)
			}
		case "-F":
			a.path(e, o.val, action.Read)
		case "-J":
			for _, j := range strings.Split(o.val.s, ",") {
				a.host(remoteHost(j + ":"))
			}
		}
	}
	if len(ops) == 0 {
		return
	}
	d := ops[0]
	if d.dyn {
		a.unresolved(name + " to a destination that is not static")
		return
	}
	h := d.s
	if strings.HasPrefix(h, "ssh://") || strings.HasPrefix(h, "sftp://") {
		h = hostOf(h, false)
	} else {
		if at := strings.LastIndexByte(h, '@'); at >= 0 {
			h = h[at+1:]
		}
		if c := strings.IndexByte(h, ':'); c >= 0 {
			h = h[:c]
		}
	}
	a.host(h)
}

// sshOptRuns reports whether an ssh -o option runs a local command.
func sshOptRuns(o string) bool {
	k := strings.ToLower(strings.TrimSpace(o))
	for _, p := range []string{"proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

func networkPrograms() map[string]handler {
	m := map[string]handler{}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		a.fetch(e, c.name, c.args)
		return false, true
	}, "curl", "wget", "aria2c", "http", "https", "xh", "httpie", "fetch", "lynx", "links", "w3m", "lwp-request", "get")
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		a.netcat(e, c.name, c.args)
		return false, true
	}, "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp")
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		a.ssh(e, c.name, c.args)
		return false, true
	}, "ssh", "sftp", "mosh")
	m["openssl"] = func(a *analyzer, e *env, c call) (bool, bool) {
		if hasAny(c.args, "-d", "-base64", "-a", "base64") {
			a.meta[c.i].decode = true
		}
		return false, true
	}
	for n := range netOnly {
		m[n] = (*analyzer).netOnlyCmd
	}
	return m
}

// netOnlyCmd: a network tool whose first operand is the host.
func (a *analyzer) netOnlyCmd(e *env, c call) (bool, bool) {
	a.class(action.NetworkEgress)
	for _, f := range c.args {
		if !strings.HasPrefix(f.s, "-") && !f.dyn {
			a.host(hostOf(f.s, true))
			break
		}
	}
	return false, true
}
