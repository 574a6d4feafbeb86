// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the network clients family: fetchers, raw sockets and
// remote shells, with the hosts they contact.

import (
	"net/url"
	"path"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// netOnly programs contact the network without being fetchers for
// download-and-execute purposes.
var netOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ping": true, "ping6": true, "dig": true, "nslookup": true, "host": true, "traceroute": true,
		"mosh": true, "mtr": true, "whois": true, "nmap": true,
	}
})

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
			"trace-ascii", "stderr", "range", "output-dir", "json", "oauth2-bearer", "proxy-user", "interface", "limit-rate",
			"unix-socket", "abstract-unix-socket"}
	case "wget":
		vals = "OoaPiUetTwQYlADRIXB"
		long = []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "user-agent", "execute",
			"tries", "timeout", "wait", "quota", "level", "accept", "reject", "domains", "include-directories", "exclude-directories",
			"base", "header", "post-data", "post-file", "body-file", "user", "password", "load-cookies", "save-cookies", "ca-certificate"}
	case "aria2c":
		vals, long = "dioxsjU", []string{"dir", "out", "input-file", "max-connection-per-server", "split", "max-concurrent-downloads",
			"user-agent", "header", "all-proxy", "http-proxy", "https-proxy", "on-download-complete", "on-download-error",
			"on-download-start", "on-download-pause", "on-download-stop", "on-bt-download-complete", "save-session", "log", "conf-path"}
	case "http", "https", "xh", "httpie":
		vals, long = "oaAv", []string{"output", "auth", "auth-type", "session", "session-read-only", "verify", "cert", "cert-key", "proxy"}
	}
	opts, ops := scan(args, vals, long, false)
	switch name {
	case "aria2c":
		// aria2c writes -o NAME (or the URL's base name) under -d DIR;
		// --on-download-* hooks run a command.
		dir := field{s: "."}
		if d := optVals(opts, "-d", "--dir"); len(d) > 0 {
			dir = d[len(d)-1]
		}
		a.path(e, dir, action.Write)
		for _, o := range optVals(opts, "-o", "--out") {
			if !dir.dyn && !o.dyn && !strings.HasPrefix(o.s, "/") {
				o = field{s: join(dir.s, o.s)}
			}
			a.path(e, o, action.Write)
			a.markFetched(e, o)
		}
		for _, f := range optVals(opts, "-i", "--input-file", "--conf-path") {
			a.path(e, f, action.Read)
		}
		for _, f := range optVals(opts, "--save-session", "--log", "-l") {
			a.path(e, f, action.Write)
		}
		for _, o := range opts {
			if strings.HasPrefix(o.name, "--on-") {
				a.flag(action.FlagRunsCode)
			}
		}
	case "http", "https", "xh", "httpie":
		for _, f := range optVals(opts, "-o", "--output") {
			a.path(e, f, action.Write)
			a.markFetched(e, f)
		}
		for _, f := range optVals(opts, "--session") {
			a.path(e, f, action.Write)
		}
	}
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
		case "curl -x", "curl --proxy", "curl --url", "curl --doh-url", "curl --preproxy":
			if h := hostOf(v.s, true); h != "" {
				a.host(h)
			}
		case "curl --resolve":
			// [+]HOST:PORT:ADDR[,ADDR…]: the addresses are hosts too.
			if parts := strings.SplitN(strings.TrimPrefix(v.s, "+"), ":", 3); !v.dyn && len(parts) > 0 {
				a.host(parts[0])
				if len(parts) == 3 {
					for _, h := range strings.Split(parts[2], ",") {
						a.host(strings.Trim(h, "[]"))
					}
				}
			}
		case "curl --connect-to":
			// HOST1:PORT1:HOST2:PORT2: HOST2 is connected to.
			if parts := strings.Split(v.s, ":"); !v.dyn {
				a.host(parts[0])
				if len(parts) > 2 {
					a.host(strings.Trim(parts[2], "[]"))
				}
			}
		case "curl --output-dir", "wget -P", "wget --directory-prefix":
			a.path(e, v, action.Write)
		case "curl --unix-socket":
			// A connection to a local socket, whatever the URL says:
			// what it reaches is the socket's (a daemon's API).
			a.path(e, v, action.Write)
		case "wget -e", "wget --execute":
			a.flag(action.FlagRunsCode)
		}
	}
	_ = wroteStdout
	if hasOpt(opts, "-K", "--config") || name == "wget" && hasOpt(opts, "--config") {
		// A configuration file names URLs and outputs of its own.
		a.unresolved(name + " --config: the URLs and outputs it names are not known statically")
	}
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

// markFetched remembers a file written from the network, so that
// running it later in the command is download_exec.
func (a *analyzer) markFetched(e *env, f field) {
	if f.dyn {
		return
	}
	if ps, ok := a.abs(e, f.s); ok {
		for _, p := range ps {
			a.fetched[path.Clean(p)] = true
		}
	}
}

// netcat-likes: nc and its variants, telnet, ftp, tftp: the first
// operand is the host; a program to run on the connection (-e, -c,
// ncat --exec, --sh-exec) runs code; socat has addresses of its own.
func (a *analyzer) netcat(e *env, name string, args []field) {
	if name == "socat" {
		a.socat(e, args)
		return
	}
	opts, ops := scan(args, "pwsiqxXIOTeMcmSo", []string{"exec", "sh-exec", "lua-exec", "proxy", "proxy-type", "proxy-auth",
		"proxy-dns", "source", "source-port", "wait", "idle-timeout", "output", "hex-dump", "allow", "allowfile", "deny",
		"denyfile", "max-conns", "append-output", "ssl-cert", "ssl-key", "ssl-trustfile"}, false)
	if name == "ftp" {
		// Its "!" runs a shell command typed or read from its input
		// (consoles.go).
		a.flag(action.FlagRunsCode)
	}
	if name == "telnet" || name == "ftp" || name == "tftp" {
		// telnet -l USER -n TRACEFILE -e ESCAPE -b ADDR; ftp and
		// tftp take few options with values.
		opts, ops = scan(args, "lnebkXP", nil, false)
		for _, f := range optVals(opts, "-n") {
			a.path(e, f, action.Write)
		}
	}
	for _, o := range opts {
		switch o.name {
		case "-e", "--exec", "--lua-exec":
			a.flag(action.FlagRunsCode)
			if !o.val.dyn {
				a.shellString(e, []field{o.val})
			}
		case "-c", "--sh-exec":
			if name != "nc.openbsd" && name != "netcat.openbsd" || o.name == "--sh-exec" {
				a.flag(action.FlagRunsCode)
				a.shellString(e, []field{o.val})
			}
		case "-x", "--proxy":
			if !o.val.dyn && name != "telnet" {
				h, _, _ := strings.Cut(o.val.s, ":")
				a.host(h)
			}
		case "-o", "--output", "--hex-dump", "--append-output":
			if name != "telnet" && name != "ftp" && name != "tftp" {
				a.path(e, o.val, action.Write)
			}
		case "--ssl-cert", "--ssl-key", "--ssl-trustfile", "--allowfile", "--denyfile":
			a.path(e, o.val, action.Read)
		}
	}
	if hasOpt(opts, "-U", "--unixsock") && name != "telnet" && name != "ftp" && name != "tftp" {
		// nc -U PATH: the operand is a local socket, written to.
		for _, f := range ops {
			a.path(e, f, action.Write)
			break
		}
		return
	}
	if hasOpt(opts, "-l", "--listen") && name != "telnet" && name != "ftp" {
		// A listener: reachable from outside unless bound to loopback,
		// which the class does not tell apart.
		return
	}
	for _, f := range ops {
		if f.dyn {
			a.unresolved(name + " to a host that is not static: " + f.s)
			break
		}
		h := f.s
		if strings.Contains(h, "://") {
			h = hostOf(h, false)
		} else if at := strings.LastIndexByte(h, '@'); at >= 0 {
			h = h[at+1:]
		}
		a.host(strings.Trim(h, "[]"))
		break
	}
}

// socat: every address (TYPE:params,options; two in one with !!) may
// connect (TCP:h:p, OPENSSL:h:p, SOCKS4:proxy:h:p, PROXY:proxy:h:p),
// listen (TCP-LISTEN:p), run a program (EXEC:, SYSTEM:) or open a file
// (OPEN:, CREATE:, GOPEN:, PIPE:, a bare path).
func (a *analyzer) socat(e *env, args []field) {
	_, ops := scan(args, "btTLWr", nil, false)
	for _, f := range ops {
		if f.dyn {
			a.unresolved("socat with an address that is not static: " + f.s)
			continue
		}
		for _, addr := range strings.Split(f.s, "!!") {
			head, _, _ := strings.Cut(addr, ",")
			typ, rest, ok := strings.Cut(head, ":")
			if !ok {
				if strings.Contains(head, "/") {
					a.path(e, field{s: head}, action.Write)
				}
				continue
			}
			switch strings.ToUpper(typ) {
			case "TCP", "TCP4", "TCP6", "TCP-CONNECT", "TCP4-CONNECT", "TCP6-CONNECT", "UDP", "UDP4", "UDP6", "UDP-CONNECT",
				"UDP4-CONNECT", "UDP6-CONNECT", "UDP-SENDTO", "UDP4-SENDTO", "UDP6-SENDTO", "UDP-DATAGRAM", "UDP4-DATAGRAM",
				"UDP6-DATAGRAM", "SCTP", "SCTP-CONNECT", "SCTP4-CONNECT", "SCTP6-CONNECT", "OPENSSL", "OPENSSL-CONNECT", "SSL",
				"DTLS", "DTLS-CONNECT", "DCCP-CONNECT":
				a.host(hostPort(rest))
			case "SOCKS", "SOCKS4", "SOCKS4A", "SOCKS5", "SOCKS5-CONNECT", "PROXY", "PROXY-CONNECT":
				proxy, target, _ := strings.Cut(rest, ":")
				a.host(strings.Trim(proxy, "[]"))
				a.host(hostPort(target))
			case "EXEC", "SYSTEM":
				a.flag(action.FlagRunsCode)
				a.shellString(e, []field{{s: rest}})
			case "OPEN", "CREATE", "CREAT", "GOPEN", "PIPE", "UNIX-CONNECT", "UNIX-CLIENT", "UNIX-SENDTO", "UNIX-LISTEN":
				a.path(e, field{s: rest}, action.Write)
			}
		}
	}
}

// hostPort returns the host of host:port or [v6]:port.
func hostPort(s string) string {
	if rest, ok := strings.CutPrefix(s, "["); ok {
		h, _, _ := strings.Cut(rest, "]")
		return h
	}
	h, _, _ := strings.Cut(s, ":")
	return h
}

// ssh: the destination, then a remote command. The remote command runs
// on the other host, not here: its classes are not merged (the egress is
// what is classified), but options that run a local command are
// runs_code.
func (a *analyzer) ssh(e *env, name string, args []field) {
	opts, ops := scan(args, "bcDEeFIiJLlmOopQRSWw", nil, true)
	for _, o := range opts {
		switch o.name {
		case "-o":
			if o.val.dyn || sshOptRuns(o.val.s) {
				a.flag(action.FlagRunsCode)
			}
		case "-F":
			// A configuration file may hold ProxyCommand, LocalCommand
			// or Match exec: code that runs here.
			a.path(e, o.val, action.Read)
			if o.val.dyn || o.val.s != "/dev/null" && o.val.s != "none" {
				a.flag(action.FlagRunsCode)
			}
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
	}, "nc", "ncat", "netcat", "nc.openbsd", "nc.traditional", "netcat.openbsd", "netcat.traditional", "socat", "telnet", "ftp", "tftp")
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		a.ssh(e, c.name, c.args)
		return false, true
	}, "ssh", "sftp", "mosh")
	m["openssl"] = (*analyzer).openssl
	for n := range netOnly() {
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

// openssl: s_client, s_time and ocsp connect (-connect host:port, -host,
// -proxy, -url); s_server listens; -in, -inkey, -key are read and
// -out, -keyout written; -d, -base64 decode.
func (a *analyzer) openssl(e *env, c call) (bool, bool) {
	if hasAny(c.args, "-d", "-base64", "-a", "base64") {
		a.meta[c.i].decode = true
	}
	sub := ""
	if len(c.args) > 0 {
		sub = c.args[0].s
	}
	switch sub {
	case "s_client", "s_time", "ocsp":
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		if sub != "ocsp" && !hasAny(c.args, "-connect", "-host") {
			a.host("localhost") // the default, localhost:4433
		}
	case "s_server":
		a.class(action.NetworkEgress) // a listener
	}
	for i := 0; i+1 < len(c.args); i++ {
		v := c.args[i+1]
		switch c.args[i].s {
		case "-connect", "-proxy":
			if !v.dyn {
				a.host(hostPort(v.s))
			}
		case "-host":
			if !v.dyn {
				a.host(hostPort(v.s))
			}
		case "-url":
			if !v.dyn {
				a.host(hostOf(v.s, true))
			}
		case "-in", "-inkey", "-key", "-kfile", "-CAfile", "-cert", "-signkey", "-config", "-paramfile", "-peerkey", "-sigfile":
			a.path(e, v, action.Read)
		case "-out", "-keyout", "-sess_out", "-msgfile":
			a.path(e, v, action.Write)
		default:
			continue
		}
		i++
	}
	return false, true
}
