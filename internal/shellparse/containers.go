// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the container engines of the remote state family
// (remote.go): docker, podman, nerdctl and compose. The engine runs
// images' code outside the caller's containment, as the daemon's user:
// every command is runs_code. A container given the host's root, devices
// or namespaces is privilege_escalation; a bound host path is a facet;
// push, pull, login, build and run reach the image's registry.

import (
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// containerRead are the container engine commands that only list or
// report: they reach no registry, but still the engine's daemon, which
// runs as root, so they are runs_code like every other.
var containerRead = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ps": true, "images": true, "version": true, "info": true, "help": true, "--version": true,
	}
})

// container: docker, podman and nerdctl. The engine runs images' code
// outside the caller's containment, as the daemon's user: every command
// is runs_code (listing reports that it reaches no registry). run and create with the host's root or a
// system directory bound, --privileged, added capabilities, devices or
// the host's namespaces are privilege_escalation; a bound host path is a
// facet (written unless :ro); push, pull, login, build and run reach the
// image's registry.
func (a *analyzer) container(e *env, c call) (listing, known bool) {
	opts, ops := scan(c.args, "Hcl", []string{"host", "context", "config", "log-level", "tlscacert", "tlscert", "tlskey",
		"url", "connection", "root", "runroot", "storage-driver", "namespace", "address", "cgroup-manager"}, true)
	for _, h := range optVals(opts, "-H", "--host", "--url") {
		if !strings.HasPrefix(h.s, "unix://") {
			a.host(hostOf(h.s, true))
		}
	}
	for _, f := range optVals(opts, "--config", "--tlscacert", "--tlscert", "--tlskey") {
		a.path(e, f, action.Read)
	}
	if len(ops) == 0 {
		a.flag(action.FlagRunsCode)
		return true, true
	}
	if ops[0].dyn {
		a.unresolved(c.name + " with a command that is not static")
		return false, false
	}
	sub, rest := ops[0].s, ops[1:]
	switch sub {
	case "container", "image", "builder", "buildx", "volume", "network", "system", "context", "plugin", "manifest", "trust", "pod":
		if len(rest) > 0 && !rest[0].dyn && !strings.HasPrefix(rest[0].s, "-") {
			group := sub
			sub, rest = rest[0].s, rest[1:]
			switch {
			case sub == "ls" || sub == "list" || sub == "df" && group == "system":
				a.flag(action.FlagRunsCode)
				return len(optVals(opts, "-H", "--host", "--url")) == 0, true
			case group == "image" && sub == "rm", group == "image" && sub == "prune":
				sub = "rmi"
			case group == "buildx" && sub == "bake":
				sub = "build"
			}
		}
	}
	if containerRead()[sub] {
		a.flag(action.FlagRunsCode)
		return len(optVals(opts, "-H", "--host", "--url")) == 0, true
	}
	switch sub {
	case "push", "pull", "search", "login", "logout":
		// Runs nothing here; reaches the registry.
	default:
		a.flag(action.FlagRunsCode)
	}
	switch sub {
	case "run", "create":
		a.containerRun(e, rest, false)
	case "exec":
		a.containerRun(e, rest, true)
	case "build":
		bo, bops := scan(rest, "ft", []string{"file", "tag", "build-arg", "target", "platform", "secret", "ssh", "cache-from",
			"cache-to", "output", "label", "network", "iidfile", "metadata-file", "build-context", "add-host", "progress", "builder"}, false)
		for _, f := range optVals(bo, "-f", "--file") {
			a.path(e, f, action.Read)
		}
		for _, f := range bops {
			if !f.dyn && strings.Contains(f.s, "://") {
				a.host(hostOf(f.s, false))
				continue
			}
			a.path(e, f, action.Read)
		}
		for _, s := range optVals(bo, "--secret") {
			for _, kv := range strings.Split(s.s, ",") {
				if p, ok := strings.CutPrefix(kv, "src="); ok {
					a.path(e, field{s: p}, action.Read)
				}
			}
		}
		for _, o := range optVals(bo, "-o", "--output") {
			for _, kv := range strings.Split(o.s, ",") {
				if p, ok := strings.CutPrefix(kv, "dest="); ok {
					a.path(e, field{s: p}, action.Write)
				}
			}
		}
		for _, f := range optVals(bo, "--iidfile", "--metadata-file") {
			a.path(e, f, action.Write)
		}
		if v := optVals(bo, "--network"); len(v) > 0 && v[0].s == "host" {
			a.flag(action.FlagPrivilegeEscalation)
		}
	case "push", "pull":
		_, po := scan(rest, "", []string{"platform"}, false)
		for _, f := range po {
			if !f.dyn {
				a.host(registryHost(f.s))
			}
		}
	case "login", "logout":
		lo, lops := scan(rest, "up", []string{"username", "password", "authfile"}, false)
		if len(lops) > 0 && !lops[0].dyn {
			a.host(strings.ToLower(lops[0].s))
		} else {
			a.host("docker.io")
		}
		if af := optVals(lo, "--authfile"); len(af) > 0 {
			a.path(e, af[0], action.Write)
		} else if c.name == "docker" || c.name == "nerdctl" {
			a.homePath(e, ".docker/config.json", action.Write)
		}
	case "cp":
		_, cops := scan(rest, "", nil, false)
		isCtr := func(s string) bool {
			k := strings.IndexByte(s, ':')
			return k > 0 && !strings.Contains(s[:k], "/")
		}
		a.copyOps(e, cops, isCtr, true, false)
	case "compose":
		a.compose(e, rest)
	case "save", "export":
		so, _ := scan(rest, "o", []string{"output"}, false)
		for _, f := range optVals(so, "-o", "--output") {
			a.path(e, f, action.Write)
		}
	case "load", "import":
		lo, lops := scan(rest, "i", []string{"input"}, false)
		for _, f := range append(optVals(lo, "-i", "--input"), lops...) {
			a.path(e, f, action.Read)
		}
	case "rm", "rmi", "prune", "kill", "stop":
		// The engine's own state.
	}
	return false, true
}

// compose: docker compose and docker-compose run the services a compose
// file describes, which may bind any host path: -f files are read.
func (a *analyzer) compose(e *env, args []field) {
	opts, _ := scan(args, "fp", []string{"file", "project-name", "project-directory", "env-file", "profile", "ansi", "parallel", "progress"}, true)
	for _, f := range optVals(opts, "-f", "--file", "--env-file") {
		a.path(e, f, action.Read)
	}
}

// registryHost returns the registry of an image reference: its first
// component when that names a host (holds a dot or a port, or is
// localhost), else docker.io.
func registryHost(ref string) string {
	first, _, ok := strings.Cut(ref, "/")
	if ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		h, _, _ := strings.Cut(first, ":")
		return strings.ToLower(h)
	}
	return "docker.io"
}

// containerVals are the options of run, create and exec that take a
// value.
var containerVals = []string{"add-host", "annotation", "attach", "blkio-weight", "blkio-weight-device", "cap-add", "cap-drop",
	"cgroup-parent", "cgroupns", "cidfile", "cpu-period", "cpu-quota", "cpu-rt-period", "cpu-rt-runtime", "cpu-shares", "cpus",
	"cpuset-cpus", "cpuset-mems", "detach-keys", "device", "device-cgroup-rule", "device-read-bps", "device-read-iops",
	"device-write-bps", "device-write-iops", "dns", "dns-option", "dns-search", "domainname", "entrypoint", "env", "env-file",
	"expose", "gpus", "group-add", "health-cmd", "health-interval", "health-retries", "health-start-period", "health-timeout",
	"hostname", "ip", "ip6", "ipc", "isolation", "kernel-memory", "label", "label-file", "link", "link-local-ip", "log-driver",
	"log-opt", "mac-address", "memory", "memory-reservation", "memory-swap", "memory-swappiness", "mount", "name", "network",
	"net", "network-alias", "oom-score-adj", "pid", "pids-limit", "platform", "publish", "pull", "restart", "runtime",
	"security-opt", "shm-size", "stop-signal", "stop-timeout", "storage-opt", "sysctl", "tmpfs", "ulimit", "user", "userns",
	"uts", "volume", "volume-driver", "volumes-from", "workdir", "cgroups", "pod", "secret", "uidmap", "gidmap", "subuidname",
	"subgidname", "arch", "os", "variant", "env-host", "hostuser", "init-path", "passwd-entry", "requires", "seccomp-policy",
	"timeout", "umask", "chrootdirs", "group-entry", "personality", "preserve-fds", "rdt-class", "sdnotify", "decryption-key"}

// hostRoots are host directories a container must not be given: binding
// one of them (or the root) is privilege_escalation.
var hostRoots = []string{"/", "/etc", "/root", "/home", "/var", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/dev",
	"/proc", "/sys", "/run", "/var/run", "/var/run/docker.sock", "/run/docker.sock", "/var/lib", "/opt", "/srv", "/mnt",
	"/Users", "/private", "/System", "/Library"}

// containerRun handles run, create and exec: the image (or container)
// and the command are the container's; what concerns the host is in the
// options.
func (a *analyzer) containerRun(e *env, args []field, exec bool) {
	short := "acehlmpuvw"
	if exec {
		short = "euw"
	}
	opts, ops := scan(args, short, containerVals, true)
	priv := false
	for _, o := range opts {
		v := o.val
		switch o.name {
		case "--privileged", "--cap-add", "--device", "--device-cgroup-rule", "--security-opt", "--userns", "--uts",
			"--cgroupns", "--sysctl":
			if o.name == "--privileged" && v.s == "false" || o.name == "--userns" && v.s != "host" ||
				o.name == "--uts" && v.s != "host" || o.name == "--cgroupns" && v.s != "host" ||
				o.name == "--security-opt" && !strings.Contains(v.s, "unconfined") && !strings.Contains(v.s, "disable") && !strings.Contains(v.s, "privileged") {
				continue
			}
			if o.name == "--sysctl" {
				continue
			}
			priv = true
		case "--pid", "--network", "--net", "--ipc":
			if v.s == "host" || v.dyn {
				priv = true
			}
		case "-v", "--volume":
			priv = a.bind(e, v, strings.SplitN(v.s, ":", 3)) || priv
		case "--mount":
			typ, src, ro := "volume", "", false
			for _, kv := range strings.Split(v.s, ",") {
				k, val, _ := strings.Cut(kv, "=")
				switch k {
				case "type":
					typ = val
				case "source", "src":
					src = val
				case "readonly", "ro":
					ro = val == "" || val == "true" || val == "1"
				}
			}
			if typ == "bind" && src != "" {
				parts := []string{src, "/"}
				if ro {
					parts = append(parts, "ro")
				}
				priv = a.bind(e, field{s: src, dyn: v.dyn}, parts) || priv
			}
		case "--env-file", "--label-file", "--cidfile":
			acc := action.Read
			if o.name == "--cidfile" {
				acc = action.Write
			}
			a.path(e, v, acc)
		case "-d", "--detach":
			a.flag(action.FlagBackground)
		case "-p", "--publish", "-P", "--publish-all":
			// A listener reachable from outside: the egress class holds.
		}
		switch o.name {
		case "--privileged", "--cap-add", "--device", "--security-opt", "--userns", "--uts", "--cgroupns", "--pid",
			"--network", "--net", "--ipc", "--env-file", "--label-file", "--cidfile":
			// What the container may do to the host depends on it.
			if v.dyn {
				a.unresolved("a container option that is not static: " + o.name + " " + v.s)
			}
		}
	}
	if priv {
		a.flag(action.FlagPrivilegeEscalation)
	}
	if !exec && len(ops) > 0 && !ops[0].dyn {
		a.host(registryHost(ops[0].s))
	}
	if len(ops) > 0 && ops[0].dyn {
		a.unresolved("a container image or name that is not static: " + ops[0].s)
	}
}

// bind records a bind mount HOST:CTR[:opts] (a named volume has no
// slash and is not a host path) and reports whether it gives the
// container a host root.
func (a *analyzer) bind(e *env, v field, parts []string) bool {
	if v.dyn {
		a.unresolved("a bind mount that is not static: " + v.s)
		return false
	}
	if len(parts) < 2 {
		return false // an anonymous volume
	}
	src := parts[0]
	if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") {
		return false // a named volume
	}
	acc := action.Write
	if len(parts) == 3 && strings.Contains(","+parts[2]+",", ",ro,") {
		acc = action.Read
	}
	a.path(e, field{s: src}, acc)
	clean := strings.TrimRight(src, "/")
	if clean == "" {
		return true
	}
	for _, r := range hostRoots {
		if clean == r {
			return true
		}
	}
	return strings.HasSuffix(clean, "docker.sock") || strings.HasSuffix(clean, "podman.sock") || strings.HasSuffix(clean, "containerd.sock")
}
