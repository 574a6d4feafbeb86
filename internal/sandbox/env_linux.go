// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

// The command's environment: none of the caller's variables reach it but
// those named here. The rules:
//
//   - PATH is the caller's without its relative and empty entries (inside
//     the sandbox they would name the project), or defaultPath when
//     nothing is left.
//   - HOME is Spec.Home, else /; LANG is the caller's, else C.UTF-8; TERM
//     is the caller's when set; USER is nobody.
//   - GOTMPDIR points at the exec scratch, where what is written may run.
//   - With Spec.Network, the proxy variables, in both cases, name the
//     proxy inside, and NO_PROXY the loopback addresses.
//   - With a run cache, XDG_CACHE_HOME and npm's cache are in it.
//   - Spec.Env comes last; a later value of a name replaces an earlier
//     one.

import (
	"os"
	"path/filepath"
	"strings"
)

// cleanEnv is the command's whole environment: the base variables, then
// spec.Env, a later value of a name replacing an earlier one.
func cleanEnv(spec Spec, scratch bool) []string {
	var env envList
	env.set("PATH", callerPath(os.Getenv("PATH")))
	if spec.Home != "" {
		env.set("HOME", spec.Home)
	} else {
		env.set("HOME", "/")
	}
	lang := os.Getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env.set("LANG", lang)
	if t := os.Getenv("TERM"); t != "" {
		env.set("TERM", t)
	}
	env.set("USER", "nobody")
	// Go runs the test binaries it links from GOTMPDIR (else /tmp, which
	// is noexec): point it at the private scratch where execution is
	// allowed.
	if scratch {
		env.set("GOTMPDIR", execScratch)
	}
	if spec.Network != nil {
		// Both cases: curl reads only the lower-case http_proxy.
		proxy := "http://" + ProxyAddr
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
			env.set(k, proxy)
			env.set(strings.ToLower(k), proxy)
		}
		env.set("NO_PROXY", "localhost,127.0.0.1,::1")
		env.set("no_proxy", "localhost,127.0.0.1,::1")
	}
	if spec.Cache != "" {
		// The caller's caches are read-only inside (and trusted by the
		// host's tools later): build caches go to the run's own.
		env.set("XDG_CACHE_HOME", spec.Cache)
		env.set("npm_config_cache", filepath.Join(spec.Cache, "npm"))
	}
	for _, kv := range spec.Env {
		k, v, _ := strings.Cut(kv, "=")
		env.set(k, v)
	}
	return env.list
}

// envList is an environment in which each name appears once.
type envList struct{ list []string }

func (e *envList) set(k, v string) {
	for i, kv := range e.list {
		if strings.HasPrefix(kv, k+"=") {
			e.list[i] = k + "=" + v
			return
		}
	}
	e.list = append(e.list, k+"="+v)
}

// defaultPath is the sandbox's PATH when the caller has none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// callerPath is the caller's PATH with relative and empty entries
// removed (inside the sandbox they would name the project), or the
// default when nothing is left.
func callerPath(p string) string {
	var keep []string
	for _, d := range filepath.SplitList(p) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		}
	}
	if len(keep) == 0 {
		return defaultPath
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}
