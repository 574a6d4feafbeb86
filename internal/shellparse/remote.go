// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the remote state and publishing family: cloud and
// cluster command-line clients, container engines and publishers. Every
// one of them talks to a remote service: networkEgress, with the host
// where it is known, and its output is fetched text (aws s3 cp s3://b/x -
// | sh is download_exec). Reading a secret store is secretAccess; what a
// client copies between here and there is a local path facet; deleting
// remote objects is fileDelete; a container given the host's root,
// devices or namespaces is privilege_escalation.

import (
	"strings"

	"warden.dev/warden/internal/action"
)

func remotePrograms() map[string]handler {
	m := map[string]handler{}
	remote := func(h func(a *analyzer, e *env, c call) bool) handler {
		return func(a *analyzer, e *env, c call) (bool, bool) {
			a.meta[c.i].fetch = true
			a.class(action.NetworkEgress)
			a.remoteEnv(e, c)
			return false, h(a, e, c)
		}
	}
	m["aws"] = func(a *analyzer, e *env, c call) (bool, bool) {
		a.remoteEnv(e, c)
		return false, a.aws(e, c)
	}
	m["gsutil"] = remote((*analyzer).gsutil)
	m["gcloud"] = remote((*analyzer).gcloud)
	m["rclone"] = remote((*analyzer).rclone)
	m["az"] = remote((*analyzer).az)
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		listing, known := a.container(e, c)
		if a.remoteEnv(e, c) {
			listing = false
		}
		if !listing {
			a.meta[c.i].fetch = true
			a.class(action.NetworkEgress)
		}
		return false, known
	}, "docker", "podman", "nerdctl")
	claim(m, remote(func(a *analyzer, e *env, c call) bool {
		a.flag(action.FlagRunsCode)
		a.compose(e, c.args)
		return true
	}), "docker-compose", "podman-compose")
	m["kubectl"] = remote((*analyzer).kubectl)
	m["helm"] = remote((*analyzer).helm)
	claim(m, remote((*analyzer).terraform), "terraform", "tofu", "terragrunt")
	m["pulumi"] = remote((*analyzer).pulumi)
	m["twine"] = (*analyzer).twine
	return m
}

// remoteEnv reads the environment the client is given: an endpoint
// (DOCKER_HOST, CONTAINER_HOST, AWS_ENDPOINT_URL, KUBE_API_SERVER) names
// a host, a configuration file (KUBECONFIG, AWS_SHARED_CREDENTIALS_FILE,
// AWS_CONFIG_FILE, DOCKER_CONFIG, GOOGLE_APPLICATION_CREDENTIALS) is
// read. It reports whether a remote endpoint was named.
func (a *analyzer) remoteEnv(e *env, c call) bool {
	envm := a.inv[c.i].Env
	if len(envm) == 0 {
		return false
	}
	remote := false
	for _, k := range []string{"DOCKER_HOST", "CONTAINER_HOST", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "KUBE_API_SERVER"} {
		if v, ok := envm[k]; ok && !strings.HasPrefix(v, "unix://") {
			remote = true
			if h := hostOf(v, true); h != "" && !strings.Contains(v, "$") {
				a.host(h)
			}
		}
	}
	for _, k := range []string{"KUBECONFIG", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "DOCKER_CONFIG",
		"GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR"} {
		if v, ok := envm[k]; ok {
			for _, p := range strings.Split(v, ":") {
				a.path(e, field{s: p, dyn: strings.ContainsAny(p, "$`")}, action.Read)
			}
		}
	}
	return remote
}

// helpOnly reports a request for help or the version only: a single
// word that is --version, version, --help, help, -h or -v.
func helpOnly(args []field) bool {
	if len(args) != 1 || args[0].dyn {
		return false
	}
	switch args[0].s {
	case "--version", "version", "--help", "help", "-h", "-v":
		return true
	}
	return false
}

// staticOps returns the static operands of args up to the first that is not
// static, after options scanned with scan.
func staticOps(ops []field) []string {
	var out []string
	for _, f := range ops {
		if f.dyn {
			break
		}
		out = append(out, f.s)
	}
	return out
}

// fileArgs records the paths of file://, fileb:// (aws, gcloud) and
// @file (az) parameter values as reads.
func (a *analyzer) fileArgs(e *env, args []field, at bool) {
	for _, f := range args {
		if f.dyn {
			continue
		}
		v := f.s
		if _, val, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "--") {
			v = val
		}
		for _, pre := range []string{"file://", "fileb://"} {
			if p, ok := strings.CutPrefix(v, pre); ok {
				a.path(e, field{s: p}, action.Read)
			}
		}
		if p, ok := strings.CutPrefix(v, "@"); ok && at && p != "" && p != "-" {
			a.path(e, field{s: p}, action.Read)
		}
	}
}

// copyOps records the local operands of a copy between here and a
// remote store (remote says which operands are remote): sources read
// (recursively when rec), the destination written; move also deletes
// the sources.
func (a *analyzer) copyOps(e *env, ops []field, remote func(string) bool, rec, move bool) {
	if len(ops) == 0 {
		return
	}
	srcs, dst := ops[:len(ops)-1], ops[len(ops)-1]
	if len(ops) == 1 {
		srcs = ops
		dst = field{s: "-"}
	}
	for _, f := range srcs {
		if f.dyn || !remote(f.s) {
			a.pathRec(e, f, action.Read, rec)
			if move {
				a.path(e, f, action.Delete)
			}
		}
	}
	if dst.dyn || !remote(dst.s) {
		a.path(e, dst, action.Write)
	}
}

// aws: aws [global options] SERVICE OPERATION [options]. Every service
// but configure is a request to AWS: networkEgress. The host is
// --endpoint-url's, or SERVICE.amazonaws.com (for s3 also the bucket's
// virtual host).
func (a *analyzer) aws(e *env, c call) bool {
	opts, ops := scan(c.args, "", []string{"profile", "region", "endpoint-url", "output", "query", "cli-input-json",
		"cli-input-yaml", "ca-bundle", "color", "cli-read-timeout", "cli-connect-timeout", "cli-binary-format", "page-size",
		"max-items", "starting-token", "include", "exclude", "acl", "storage-class", "sse", "sse-kms-key-id", "content-type",
		"cache-control", "metadata", "expires-in", "secret-id", "name", "names", "path", "version-id", "version-stage",
		"recursive-depth", "grants", "sse-c", "sse-c-key", "source-region", "expected-size", "parameters", "payload",
		"function-name", "key-id", "ciphertext-blob", "plaintext", "role-arn", "role-session-name", "duration-seconds",
		"serial-number", "token-code", "bucket", "key", "body", "instance-ids", "document-name", "target"}, false)
	a.fileArgs(e, c.args, false)
	for _, u := range optVals(opts, "--endpoint-url") {
		a.host(hostOf(u.s, true))
	}
	for _, f := range optVals(opts, "--ca-bundle") {
		a.path(e, f, action.Read)
	}
	w := staticOps(ops)
	if len(w) < len(ops) && len(w) < 2 {
		a.unresolved("aws with a service or operation that is not static")
		return false
	}
	svc, op := "", ""
	if len(w) > 0 {
		svc = w[0]
	}
	if len(w) > 1 {
		op = w[1]
	}
	// configure and history work on local files; everything else is a
	// request to AWS.
	if svc != "configure" && svc != "history" && svc != "help" || op == "sso" {
		a.meta[c.i].fetch = true
		a.class(action.NetworkEgress)
		if len(optVals(opts, "--endpoint-url")) == 0 && svc != "" {
			a.host(svc + ".amazonaws.com")
		}
	}
	switch svc + " " + op {
	case "s3 cp", "s3 mv", "s3 sync", "s3 rm", "s3 rb", "s3 ls", "s3 mb", "s3 presign", "s3 website":
		isS3 := func(s string) bool { return strings.HasPrefix(s, "s3://") }
		args := ops[2:]
		for _, f := range args {
			if !f.dyn && isS3(f.s) {
				if b, _, _ := strings.Cut(strings.TrimPrefix(f.s, "s3://"), "/"); b != "" {
					a.host(b + ".s3.amazonaws.com")
				}
			}
		}
		switch op {
		case "cp", "mv", "sync":
			a.copyOps(e, args, isS3, op == "sync" || hasOpt(opts, "--recursive"), op == "mv")
			if op == "mv" || hasOpt(opts, "--delete") {
				a.class(action.FileDelete)
				if hasOpt(opts, "--delete") && len(args) > 0 {
					if d := args[len(args)-1]; d.dyn || !isS3(d.s) {
						a.path(e, d, action.Delete)
					}
				}
			}
		case "rm", "rb":
			a.class(action.FileDelete)
		}
	case "secretsmanager get-secret-value", "secretsmanager batch-get-secret-value", "kms decrypt",
		"sts get-session-token", "sts assume-role", "sts assume-role-with-web-identity", "sts assume-role-with-saml",
		"sts get-federation-token", "ecr get-login-password", "ecr get-authorization-token", "ecr-public get-login-password",
		"codeartifact get-authorization-token", "configure export-credentials", "iam create-access-key",
		"rds generate-db-auth-token", "eks get-token", "sso get-role-credentials", "lightsail get-instance-access-details":
		a.class(action.SecretAccess)
	case "ssm get-parameter", "ssm get-parameters", "ssm get-parameters-by-path", "ssm get-parameter-history":
		if hasOpt(opts, "--with-decryption") {
			a.class(action.SecretAccess)
		}
	case "ssm start-session", "ssm send-command", "ecs execute-command", "lambda invoke", "ec2-instance-connect ssh":
		a.flag(action.FlagRunsCode) // code run remotely on a request from here
		if op == "invoke" && len(ops) > 2 {
			a.path(e, ops[len(ops)-1], action.Write) // the response file
		}
	case "s3api put-object", "s3api upload-part":
		for _, f := range optVals(opts, "--body") {
			a.path(e, f, action.Read)
		}
	case "s3api get-object", "s3api get-object-torrent":
		if len(ops) > 2 {
			a.path(e, ops[len(ops)-1], action.Write) // the outfile
		}
	case "s3api delete-object", "s3api delete-objects", "s3api delete-bucket":
		a.class(action.FileDelete)
	case "configure get":
		if len(w) > 2 && (strings.Contains(strings.ToLower(w[2]), "secret") || strings.Contains(strings.ToLower(w[2]), "token") ||
			strings.Contains(strings.ToLower(w[2]), "key_id")) {
			a.class(action.SecretAccess)
		}
	case "configure set", "configure import", "configure ", "configure sso", "configure add-model", "sso login":
		// Writes the profile: credentials for keys, config for the rest.
		key := ""
		if len(w) > 2 {
			key = strings.ToLower(w[2])
		}
		if op != "set" || strings.Contains(key, "aws_access_key_id") || strings.Contains(key, "aws_secret_access_key") || strings.Contains(key, "aws_session_token") {
			a.homePath(e, ".aws/credentials", action.Write)
		}
		a.homePath(e, ".aws/config", action.Write)
	}
	return true
}

// gsutil: cp, mv, rsync between local paths and gs:// URLs; rm and rb
// delete; rsync -d deletes at the destination.
func (a *analyzer) gsutil(e *env, c call) bool {
	_, rest := scan(c.args, "uohi", nil, true)
	a.host("storage.googleapis.com")
	w := staticOps(rest)
	if len(w) == 0 {
		if len(rest) > 0 {
			a.unresolved("gsutil with a command that is not static")
			return false
		}
		return true
	}
	isGS := func(s string) bool { return strings.Contains(s, "://") }
	opts, ops := scan(rest[1:], "pzaAIxhjJsS", nil, false)
	switch w[0] {
	case "cp", "mv", "rsync":
		a.copyOps(e, ops, isGS, w[0] == "rsync" || hasOpt(opts, "-r", "-R"), w[0] == "mv")
		if w[0] == "mv" || w[0] == "rsync" && hasOpt(opts, "-d") {
			a.class(action.FileDelete)
		}
	case "rm", "rb":
		a.class(action.FileDelete)
	}
	return true
}

// gcloud: secrets versions access and auth print-access-token read a
// secret; storage cp like gsutil; compute ssh and scp reach the
// instance.
func (a *analyzer) gcloud(e *env, c call) bool {
	opts, ops := scan(c.args, "", []string{"project", "account", "configuration", "flags-file", "format", "impersonate-service-account",
		"verbosity", "zone", "region", "key-file", "command", "billing-project", "access-token-file", "filter", "limit", "data-file"}, false)
	a.fileArgs(e, c.args, false)
	for _, f := range optVals(opts, "--flags-file", "--key-file", "--access-token-file", "--data-file") {
		a.path(e, f, action.Read)
	}
	w := staticOps(ops)
	if len(w) < len(ops) && len(w) < 3 {
		a.unresolved("gcloud with a command that is not static")
		return false
	}
	j := strings.Join(w, " ")
	switch {
	case strings.HasPrefix(j, "secrets versions access"), strings.HasPrefix(j, "auth print-access-token"),
		strings.HasPrefix(j, "auth print-identity-token"), strings.HasPrefix(j, "auth application-default print-access-token"),
		strings.HasPrefix(j, "iam service-accounts keys create"), strings.HasPrefix(j, "sql generate-login-token"),
		strings.HasPrefix(j, "container clusters get-credentials"):
		a.class(action.SecretAccess)
	case strings.HasPrefix(j, "storage cp"), strings.HasPrefix(j, "storage mv"), strings.HasPrefix(j, "storage rsync"):
		a.host("storage.googleapis.com")
		isGS := func(s string) bool { return strings.Contains(s, "://") }
		a.copyOps(e, ops[2:], isGS, hasOpt(opts, "-r", "--recursive") || w[1] == "rsync", w[1] == "mv")
		if w[1] == "mv" || hasOpt(opts, "--delete-unmatched-destination-objects") {
			a.class(action.FileDelete)
		}
	case strings.HasPrefix(j, "storage rm"):
		a.host("storage.googleapis.com")
		a.class(action.FileDelete)
	case strings.HasPrefix(j, "compute ssh"), strings.HasPrefix(j, "compute scp"), strings.HasPrefix(j, "cloud-shell ssh"),
		strings.HasPrefix(j, "compute instances add-metadata"):
		a.flag(action.FlagRunsCode) // an ssh client with its own options
	case strings.HasPrefix(j, "config set"), strings.HasPrefix(j, "auth login"), strings.HasPrefix(j, "auth activate-service-account"),
		strings.HasPrefix(j, "init"):
		a.homePath(e, ".config/gcloud", action.Write)
	}
	return true
}

// rclone: an operand REMOTE:path is remote; copy, sync, move read here
// and write there or back; delete, purge, sync and move remove files;
// serve and rcd listen; config show prints credentials.
func (a *analyzer) rclone(e *env, c call) bool {
	opts, ops := scan(c.args, "", []string{"config", "exclude", "include", "filter", "filter-from", "exclude-from",
		"include-from", "files-from", "log-file", "transfers", "checkers", "bwlimit", "addr", "rc-addr", "backup-dir",
		"max-age", "min-age", "max-size", "min-size", "user", "pass", "password-command", "suffix", "drive-root-folder-id"}, false)
	for _, f := range optVals(opts, "--config", "--filter-from", "--exclude-from", "--include-from", "--files-from") {
		a.path(e, f, action.Read)
	}
	for _, f := range optVals(opts, "--log-file") {
		a.path(e, f, action.Write)
	}
	if hasOpt(opts, "--password-command") {
		a.flag(action.FlagRunsCode)
	}
	w := staticOps(ops)
	if len(w) == 0 {
		if len(ops) > 0 {
			a.unresolved("rclone with a command that is not static")
			return false
		}
		return true
	}
	isRemote := func(s string) bool { return remoteHost(s) != "" || strings.Contains(s, "://") }
	args := ops[1:]
	switch w[0] {
	case "copy", "copyto", "sync", "move", "moveto", "bisync", "copyurl":
		a.copyOps(e, args, isRemote, true, w[0] == "move" || w[0] == "moveto")
		if w[0] == "sync" || w[0] == "move" || w[0] == "moveto" || w[0] == "bisync" {
			a.class(action.FileDelete)
			if len(args) > 0 && w[0] == "sync" {
				if d := args[len(args)-1]; d.dyn || !isRemote(d.s) {
					a.path(e, d, action.Delete)
				}
			}
		}
	case "delete", "deletefile", "purge", "rmdir", "rmdirs", "cleanup", "dedupe":
		a.class(action.FileDelete)
		for _, f := range args {
			if f.dyn || !isRemote(f.s) {
				a.path(e, f, action.Delete)
			}
		}
	case "mount", "nfsmount":
		a.flag(action.FlagBackground)
		if len(args) > 1 {
			a.path(e, args[1], action.Write)
		}
	case "serve", "rcd":
		// A listener, on all addresses unless --addr says otherwise.
	case "config":
		verb := ""
		if len(w) > 1 {
			verb = w[1]
		}
		switch verb {
		case "show", "dump":
			a.class(action.SecretAccess) // the remotes' credentials
		case "file", "paths", "providers", "redacted":
		default:
			a.homePath(e, ".config/rclone/rclone.conf", action.Write)
		}
	case "cat", "ls", "lsd", "lsl", "lsf", "lsjson", "size", "check", "md5sum", "sha1sum", "tree", "about", "listremotes", "ncdu":
	default:
		// Unknown commands may write where their operands point.
		for _, f := range args {
			if f.dyn || !isRemote(f.s) {
				a.path(e, f, action.Write)
			}
		}
	}
	return true
}

// az: keyvault secret show and friends, account get-access-token read a
// secret; storage blob upload reads --file, download writes it; vm
// run-command runs code remotely.
func (a *analyzer) az(e *env, c call) bool {
	opts, ops := scan(c.args, "nfgo", []string{"name", "file", "vault-name", "resource-group", "output", "query",
		"subscription", "container-name", "account-name", "source", "destination", "scripts", "command-id", "parameters",
		"template-file", "value", "id", "resource", "scope"}, false)
	a.fileArgs(e, c.args, true)
	a.host("management.azure.com")
	w := staticOps(ops)
	if len(w) < len(ops) && len(w) < 3 {
		a.unresolved("az with a command that is not static")
		return false
	}
	j := strings.Join(w, " ")
	switch {
	case strings.HasPrefix(j, "keyvault secret show"), strings.HasPrefix(j, "keyvault secret download"),
		strings.HasPrefix(j, "keyvault key download"), strings.HasPrefix(j, "keyvault certificate download"),
		strings.HasPrefix(j, "account get-access-token"), strings.HasPrefix(j, "storage account keys list"),
		strings.HasPrefix(j, "storage container generate-sas"), strings.HasPrefix(j, "acr login"),
		strings.HasPrefix(j, "aks get-credentials"), strings.HasPrefix(j, "cosmosdb keys list"):
		a.class(action.SecretAccess)
		for _, f := range optVals(opts, "-f", "--file") {
			a.path(e, f, action.Write)
		}
	case strings.HasPrefix(j, "storage blob upload"), strings.HasPrefix(j, "storage file upload"):
		for _, f := range optVals(opts, "-f", "--file", "--source", "-s") {
			a.recRead(e, f)
		}
	case strings.HasPrefix(j, "storage blob download"), strings.HasPrefix(j, "storage file download"):
		for _, f := range optVals(opts, "-f", "--file", "--destination", "-d") {
			a.path(e, f, action.Write)
		}
	case strings.HasPrefix(j, "storage blob delete"), strings.HasPrefix(j, "storage container delete"),
		strings.HasPrefix(j, "storage file delete"), strings.HasPrefix(j, "storage share delete"):
		a.class(action.FileDelete)
	case strings.HasPrefix(j, "vm run-command"), strings.HasPrefix(j, "ssh"), strings.HasPrefix(j, "vm ssh"),
		strings.HasPrefix(j, "containerapp exec"), strings.HasPrefix(j, "webapp ssh"):
		a.flag(action.FlagRunsCode)
	case strings.HasPrefix(j, "login"), strings.HasPrefix(j, "config set"), strings.HasPrefix(j, "account set"):
		a.homePath(e, ".azure", action.Write)
	}
	return true
}

// containerRead are the container engine commands that only list or
// report: they reach no registry, but still the engine's daemon, which
// runs as root, so they are runs_code like every other.
var containerRead = map[string]bool{
	"ps": true, "images": true, "version": true, "info": true, "help": true, "--version": true,
}

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
	if containerRead[sub] {
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

// twine upload and register publish distributions to a package index
// (upload.pypi.org, or --repository-url); the files are read, and the
// credentials in ~/.pypirc. twine check only reads.
func (a *analyzer) twine(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "rupcis", []string{"repository", "repository-url", "username", "password", "comment",
		"config-file", "identity", "sign-with", "cert", "client-cert"}, false)
	if len(ops) == 0 || helpOnly(c.args) {
		return true, true
	}
	if ops[0].dyn {
		a.unresolved("twine with a command that is not static")
		return false, false
	}
	if ops[0].s == "check" {
		for _, f := range ops[1:] {
			a.path(e, f, action.Read)
		}
		return true, true
	}
	a.meta[c.i].fetch = true
	a.class(action.NetworkEgress)
	urls := optVals(opts, "--repository-url")
	for _, u := range urls {
		a.host(hostOf(u.s, true))
	}
	if len(urls) == 0 {
		switch r := optVals(opts, "-r", "--repository"); {
		case len(r) == 0 || r[0].s == "pypi":
			a.host("upload.pypi.org")
		case r[0].s == "testpypi":
			a.host("test.pypi.org")
		}
	}
	for _, f := range optVals(opts, "--config-file", "--cert", "--client-cert") {
		a.path(e, f, action.Read)
	}
	for _, f := range ops[1:] {
		a.path(e, f, action.Read)
	}
	return false, true
}
