// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file holds the cluster and infrastructure clients of the remote
// state family (remote.go): kubectl, helm, terraform (tofu, terragrunt)
// and pulumi. Each runs code here (credential plugins, providers, the
// project's program): runs_code; reading a secret (kubectl get secrets,
// terraform output, pulumi --show-secrets) is secretAccess; destroying is
// fileDelete.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

// kubectl talks to the cluster's API server (--server, or the
// kubeconfig's); credential plugins in the kubeconfig run here, so every
// command but a client version is runs_code. get or describe of secrets,
// config view --raw and create token read a secret; cp copies between
// here and a pod.
func (a *analyzer) kubectl(e *env, c call) bool {
	opts, ops := scan(c.args, "nsflcoLk", []string{"namespace", "context", "cluster", "user", "server", "kubeconfig", "token",
		"as", "as-group", "selector", "output", "filename", "container", "field-selector", "sort-by", "template", "image",
		"kustomize", "certificate-authority", "client-certificate", "client-key", "request-timeout", "address", "type",
		"from-file", "from-literal", "from-env-file", "docker-server", "docker-username", "docker-password", "overrides",
		"port", "replicas", "patch", "patch-file", "label-columns", "raw", "cache-dir", "tls-server-name", "chunk-size", "profile",
		"target"}, false)
	for _, s := range optVals(opts, "-s", "--server") {
		a.host(hostOf(s.s, true))
	}
	for _, f := range optVals(opts, "--kubeconfig", "--certificate-authority", "--client-certificate", "--client-key",
		"--from-file", "--from-env-file", "--patch-file", "-k", "--kustomize") {
		if k, v, ok := strings.Cut(f.s, "="); ok && !strings.Contains(k, "/") {
			f = field{s: v, dyn: f.dyn} // --from-file=key=path
		}
		a.pathRec(e, f, action.Read, true)
	}
	for _, f := range optVals(opts, "-f", "--filename") {
		if !f.dyn && strings.Contains(f.s, "://") {
			a.host(hostOf(f.s, false))
			continue
		}
		a.pathRec(e, f, action.Read, hasOpt(opts, "-R", "--recursive"))
	}
	w := staticOps(ops)
	if len(w) < len(ops) && len(w) < 2 {
		a.unresolved("kubectl with a command that is not static")
		return false
	}
	if len(w) == 0 {
		return true
	}
	if w[0] == "version" && hasOpt(opts, "--client") {
		return true
	}
	a.flag(action.FlagRunsCode)
	secret := func(s string) bool {
		s = strings.ToLower(s)
		for _, r := range strings.Split(s, ",") {
			r, _, _ = strings.Cut(r, "/")
			if r == "secret" || r == "secrets" || strings.HasPrefix(r, "secrets.") || strings.HasPrefix(r, "secret.") {
				return true
			}
		}
		return false
	}
	switch w[0] {
	case "get", "describe", "edit", "view-secret", "neat":
		if w[0] == "view-secret" || len(w) > 1 && secret(w[1]) || len(w) > 1 && w[1] == "all" && hasOpt(opts, "-o", "--output") {
			a.class(action.SecretAccess)
		}
	case "config":
		if len(w) > 1 && w[1] == "view" && hasOpt(opts, "--raw", "--flatten") {
			a.class(action.SecretAccess)
		}
		if len(w) > 1 && (w[1] == "set-credentials" || w[1] == "set-cluster" || w[1] == "set-context" || w[1] == "use-context" ||
			w[1] == "set" || w[1] == "unset" || w[1] == "delete-context" || w[1] == "rename-context") {
			if k := optVals(opts, "--kubeconfig"); len(k) > 0 {
				a.path(e, k[0], action.Write)
			} else {
				a.homePath(e, ".kube/config", action.Write)
			}
		}
	case "create":
		if len(w) > 1 && w[1] == "token" {
			a.class(action.SecretAccess)
		}
	case "cp":
		isPod := func(s string) bool {
			k := strings.IndexByte(s, ':')
			return k > 0 && !strings.Contains(s[:k], "/") || k > 0 && strings.Count(s[:k], "/") == 1
		}
		a.copyOps(e, ops[1:], isPod, true, false)
	case "port-forward", "proxy":
		a.flag(action.FlagBackground)
	case "debug":
		// A debugging pod on a node shares the node's namespaces and
		// mounts its root.
		for _, f := range w[1:] {
			if strings.HasPrefix(f, "node/") || strings.HasPrefix(f, "nodes/") {
				a.flag(action.FlagPrivilegeEscalation)
			}
		}
		if v := optVals(opts, "--profile"); len(v) > 0 && (v[0].s == "sysadmin" || v[0].s == "netadmin") {
			a.flag(action.FlagPrivilegeEscalation)
		}
	}
	return true
}

// helm installs charts into a cluster; plugins, post-renderers and the
// kubeconfig's credential plugins run here: runs_code. Values files are
// read; a chart URL or OCI reference names a host.
func (a *analyzer) helm(e *env, c call) bool {
	opts, ops := scan(c.args, "nfo", []string{"namespace", "kube-context", "kubeconfig", "values", "set", "set-file",
		"set-string", "version", "repo", "username", "password", "post-renderer", "post-renderer-args", "output",
		"timeout", "ca-file", "cert-file", "key-file", "registry-config", "repository-config", "repository-cache", "destination",
		"kube-apiserver", "kube-token", "description"}, false)
	a.flag(action.FlagRunsCode)
	for _, f := range optVals(opts, "-f", "--values", "--kubeconfig", "--ca-file", "--cert-file", "--key-file") {
		if !f.dyn && strings.Contains(f.s, "://") {
			a.host(hostOf(f.s, false))
			continue
		}
		a.path(e, f, action.Read)
	}
	for _, f := range optVals(opts, "--set-file") {
		if _, p, ok := strings.Cut(f.s, "="); ok {
			a.path(e, field{s: p, dyn: f.dyn}, action.Read)
		}
	}
	for _, f := range optVals(opts, "--repo", "--kube-apiserver") {
		a.host(hostOf(f.s, true))
	}
	for _, f := range optVals(opts, "--destination", "-d") {
		a.path(e, f, action.Write)
	}
	for _, f := range ops {
		if !f.dyn && strings.Contains(f.s, "://") {
			a.host(hostOf(f.s, false))
		}
	}
	return true
}

// terraform and tofu run provider plugins (fetched by init) and
// provisioners: runs_code; state and outputs hold secrets in the clear.
func (a *analyzer) terraform(e *env, c call) bool {
	opts, ops := scan(c.args, "", []string{"chdir", "var", "var-file", "state", "state-out", "backup", "out", "target",
		"replace", "plugin-dir", "backend-config", "lock-timeout", "parallelism", "from-module"}, false)
	for _, d := range optVals(opts, "-chdir", "--chdir") {
		a.path(e, d, action.Read)
	}
	w := staticOps(ops)
	if len(w) == 0 && len(ops) > 0 {
		a.unresolved(c.name + " with a command that is not static")
		return false
	}
	// terraform's options are single-dash long ones: -var-file=x.
	for _, f := range c.args {
		if f.dyn {
			continue
		}
		for _, k := range []string{"-chdir=", "-var-file=", "-backend-config=", "-state=", "-plugin-dir="} {
			if v, ok := strings.CutPrefix(f.s, k); ok && strings.ContainsAny(v, "/.") {
				a.path(e, field{s: v}, action.Read)
			}
		}
		for _, k := range []string{"-out=", "-state-out=", "-backup="} {
			if v, ok := strings.CutPrefix(f.s, k); ok && v != "-" {
				a.path(e, field{s: v}, action.Write)
			}
		}
	}
	sub := ""
	if len(w) > 0 {
		sub = w[0]
	}
	switch sub {
	case "fmt":
		return true
	case "output":
		a.class(action.SecretAccess)
	case "state":
		if len(w) > 1 && (w[1] == "pull" || w[1] == "show") {
			a.class(action.SecretAccess)
		}
	case "destroy":
		a.class(action.FileDelete)
	}
	a.flag(action.FlagRunsCode)
	return true
}

// pulumi runs the project's program: runs_code; --show-secrets and
// config get of a secret read one.
func (a *analyzer) pulumi(e *env, c call) bool {
	opts, ops := scan(c.args, "sCc", []string{"stack", "cwd", "config", "config-file", "target", "replace", "parallel", "secrets-provider"}, false)
	a.flag(action.FlagRunsCode)
	for _, f := range optVals(opts, "-C", "--cwd", "--config-file") {
		a.path(e, f, action.Read)
	}
	if hasOpt(opts, "--show-secrets") {
		a.class(action.SecretAccess)
	}
	w := staticOps(ops)
	if len(w) >= 2 && w[0] == "config" && w[1] == "get" || len(w) >= 1 && w[0] == "destroy" {
		if w[0] == "destroy" {
			a.class(action.FileDelete)
		} else {
			a.class(action.SecretAccess)
		}
	}
	return true
}
