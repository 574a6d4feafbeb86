// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the remote state and publishing family: cloud and
// cluster command-line clients, container engines and publishers. Every
// one of them talks to a remote service: networkEgress, with the host
// where it is known, and its output is fetched text (aws s3 cp s3://b/x -
// | sh is download_exec). Reading a secret store is secretAccess; what a
// client copies between here and there is a local path facet; deleting
// remote objects is fileDelete.
//
// Here are the family's table, what its clients share, the cloud clients
// (aws, gsutil, gcloud, rclone, az) and the publisher twine; the
// container engines are in containers.go, the cluster and infrastructure
// clients in infra.go.

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
