// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the secrets family: the programs that read a secret store
// or a key (op, vault, pass, secret-tool, security, keyctl, gpg, age,
// sops, bw, lpass…) are secretAccess, and the ones that write into the
// sensitive set (ssh-keygen, gpg --import) report the path they write.
// It also holds the rules that apply to every program:
//
//   - An operand that names a sensitive file (secretPath), as an operand,
//     as the value of --opt=VALUE, -oVALUE or key=VALUE, or as @FILE, is
//     a read of that file, whatever the program (openssl enc -in .env,
//     mytool --config=~/.aws/credentials). The families whose handlers
//     report every path operand themselves (text tools, file tools, find
//     and xargs, git and the builtins) are left to them, so that a grep
//     pattern or a find -name is not taken for a file; so is the command
//     a wrapper runs (sudo CMD), which is analysed as its own invocation.
//   - A glob that can match a sensitive file (~/.ssh/*, ~/.aws/*, id_*,
//     .env*) is reported as a read of the pattern, which secretPath
//     matches; the caller expands it against the filesystem.
//   - Expanding a variable whose name looks secret ($GITHUB_TOKEN,
//     ${AWS_SECRET_ACCESS_KEY}, $DB_PASSWORD, *_API_KEY) into a word is
//     secretAccess, as printenv is.

import (
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"warden.dev/warden/internal/action"
)

// secretTails are path endings that name a secret, one component each;
// "" stands for any file in the directory before it. They mirror the
// entries of the sensitive set that a glob can reach.
var secretTails = [][]string{
	{".ssh", ""}, {".gnupg", ""}, {".kube", ""}, {"gcloud", ""}, {"mongosh", ""}, {".ssh"}, {".gnupg"},
	{".aws", "credentials"}, {".aws", "config"}, {".docker", "config.json"}, {".netrc"}, {".git-credentials"},
	{"gh", "hosts.yml"}, {".config", "hub"}, {".pypirc"}, {".vault-token"}, {".gem", "credentials"},
	{".cargo", "credentials"}, {".cargo", "credentials.toml"}, {".terraform.d", "credentials.tfrc.json"},
	{".m2", "settings.xml"}, {".m2", "settings-security.xml"}, {".npmrc"},
	{".bash_history"}, {".zsh_history"}, {".sh_history"}, {".zhistory"}, {".histfile"}, {"fish_history"},
	{".python_history"}, {".node_repl_history"}, {".psql_history"}, {".mysql_history"}, {".sqlite_history"},
	{".irb_history"}, {".pry_history"}, {".rediscli_history"}, {".dbshell"}, {".rhistory"},
	{".env"}, {".env.local"}, {".env.production"}, {".env.development"}, {".env.test"}, {".env.staging"},
	{"id_rsa"}, {"id_dsa"}, {"id_ecdsa"}, {"id_ed25519"}, {"environ"},
	{".claude", ".credentials.json"}, {".claude.json"}, {".codex", "auth.json"}, {".gemini", "oauth_creds.json"},
	{"github-copilot", ""}, {".azure", ""}, {".config", "git", "credentials"}, {".pgpass"},
}

// globSecret reports whether the glob pattern p can match a path that
// secretPath names. As in bash, a wildcard does not match a leading dot:
// ~/* does not reach ~/.ssh, ~/.* does. A match counts only where a
// component of the pattern that meets the secret's name holds literal
// text (~/.aws/*, id_*, .env*), so that cat * is not taken for a read of
// every key it might match: the caller expands every pattern against the
// filesystem, and judges what it matches.
func globSecret(p string) bool {
	comps := strings.Split(strings.ToLower(p), "/")
	for _, tail := range secretTails {
		if len(tail) > len(comps) {
			continue
		}
		last := comps[len(comps)-len(tail):]
		ok, literal := true, false
		for i, want := range tail {
			if want == "" {
				continue
			}
			if !globComp(last[i], want) {
				ok = false
				break
			}
			literal = literal || strings.Trim(last[i], "*?") != ""
		}
		if ok && literal {
			if tail[len(tail)-1] == "environ" && !strings.HasPrefix(p, "/proc/") {
				continue
			}
			return true
		}
	}
	return false
}

// globComp reports whether one pattern component can match name.
func globComp(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	m, err := path.Match(pat, name)
	return m || err != nil // a malformed pattern: the safe reading
}

// secretName reports, for a lower-case path, the entries of the
// sensitive set (package pathguard) that secretPath does not list itself.
func secretName(l string) bool {
	base := l[strings.LastIndexByte(l, '/')+1:]
	switch base {
	case ".sh_history", ".zhistory", ".histfile", "fish_history", ".python_history", ".node_repl_history",
		".psql_history", ".mysql_history", ".sqlite_history", ".irb_history", ".pry_history",
		".rediscli_history", ".dbshell", ".rhistory":
		return true
	}
	w := "/" + l
	for _, s := range []string{"/.cargo/credentials", "/.terraform.d/credentials", "/.mongodb/mongosh/",
		"/.claude/.credentials.json", "/.claude.json", "/.codex/auth.json", "/.gemini/oauth_creds.json",
		"/.qwen/oauth_creds.json", "/.config/github-copilot/", "/.local/share/opencode/auth.json",
		"/.config/git/credentials", "/.azure/", "/.pgpass", "/.s3cfg", "/.databrickscfg",
		"/.mozilla/", "/.config/google-chrome/", "/.config/chromium/", "/.local/share/keyrings/"} {
		if strings.Contains(w, s) {
			return true
		}
	}
	return strings.Contains(w, "/.m2/settings") && strings.HasSuffix(base, ".xml")
}

// preciseFamilies report every path operand themselves: the operand scan
// leaves them alone.
var preciseFamilies = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"text tools": true, "file tools": true, "find and xargs": true, "git": true, "builtins": true,
	}
})

// operands reports a read of every static operand of invocation i (the
// program name, its arguments args) that names a sensitive file and was
// not reported already. A command the program runs (sudo CMD, env CMD,
// timeout 5 CMD), recorded as the next invocation, is its own: its
// operands are left to it.
func (a *analyzer) operands(e *env, i int, name string, args []field) {
	if _, family := lookup(canonical(name)); preciseFamilies()[family] {
		return
	}
	if i+1 < len(a.inv) {
		if inner := a.inv[i+1].Argv; len(inner) > 0 && len(inner) <= len(args) {
			tail := args[len(args)-len(inner)+1:]
			same := true
			for j, f := range tail {
				if f.s != inner[j+1] {
					same = false
					break
				}
			}
			if same {
				args = args[:len(args)-len(inner)]
			}
		}
	}
	for _, f := range args {
		if f.dyn || f.proc || f.s == "" || strings.ContainsAny(f.s, " \t\n") {
			continue // a code string is analysed as code, not as a path
		}
		s := f.s
		k, v, eq := strings.Cut(s, "=")
		switch {
		case strings.HasPrefix(s, "--"):
			if eq {
				a.secretOperand(e, v)
			}
		case strings.HasPrefix(s, "-") && len(s) > 2:
			a.secretOperand(e, s[2:]) // -fFILE
			if eq {
				a.secretOperand(e, v)
			}
		case strings.HasPrefix(s, "@"):
			a.secretOperand(e, s[1:]) // @FILE: the file's content
		case eq && !strings.Contains(k, "/"):
			a.secretOperand(e, v) // key=FILE
		default:
			a.secretOperand(e, s)
		}
	}
}

// secretOperand reports s as a read if it names a sensitive file.
func (a *analyzer) secretOperand(e *env, s string) {
	if s == "" || !secretPath(s) {
		return
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok && a.home() != "" {
		s = a.home() + "/" + rest
	}
	ps, ok := a.abs(e, s)
	if !ok {
		a.class(action.SecretAccess)
		a.unresolved("the working directory is not known for the path " + s)
		return
	}
	for _, p := range ps {
		if a.seen(p) {
			continue
		}
		a.addPath(p, action.Read, false)
	}
}

// seen reports whether p is already a path facet, with any access.
func (a *analyzer) seen(p string) bool {
	for _, acc := range []action.Access{action.Read, action.Write, action.Delete} {
		if _, ok := a.pathSeen[Path{Path: p, Access: acc}]; ok {
			return true
		}
	}
	return false
}

// secretParam classifies the expansion of a parameter whose name looks
// secret as secretAccess: ${X}, $X, ${X:-…}, ${X#…}, and those nested in
// the word of another expansion. ${#X} (a length) and ${X:+…} (a word
// chosen by whether X is set) do not expand the value; ${!X}, whose
// value names the variable expanded, may expand any secret and counts.
func (a *analyzer) secretParam(p *syntax.ParamExp) {
	syntax.Walk(p, func(n syntax.Node) bool {
		q, ok := n.(*syntax.ParamExp)
		if !ok || q.Param == nil {
			return true
		}
		switch {
		case q.Length || q.Width || q.IsSet:
		case q.Excl && q.Names == 0 && q.Index == nil:
			a.class(action.SecretAccess)
		case q.Excl:
			// ${!prefix*}, ${!a[@]}: names and keys, not values.
		case q.Exp != nil && (q.Exp.Op == syntax.AlternateUnset || q.Exp.Op == syntax.AlternateUnsetOrNull):
		case secretVar(q.Param.Value):
			a.class(action.SecretAccess)
		}
		return true
	})
}

// secretWord classifies the secret-looking expansions of a word that is
// not expanded into fields, such as a heredoc body.
func (a *analyzer) secretWord(w *syntax.Word) {
	syntax.Walk(w, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok {
			a.secretParam(p)
			return false
		}
		return true
	})
}

// secretVar reports whether a variable name looks like one that holds a
// secret. Only names in upper case are considered, the convention of the
// environment; a lower-case name ($token in a loop) is a script's own.
// A name is secret when one of its _-separated words (digits removed) is
// TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, PASS, APIKEY, CREDENTIAL(S)
// or PAT, or it ends in KEY, or KEY follows API, ACCESS, SECRET, PRIVATE,
// SIGNING, ENCRYPTION or MASTER (AWS_ACCESS_KEY_ID). KEYBOARD, PWD and
// PASSWORD_STORE_DIR are not.
func secretVar(name string) bool {
	if name == "" || strings.ToUpper(name) != name || strings.HasPrefix(name, "PASSWORD_STORE_") {
		return false
	}
	words := strings.Split(name, "_")
	for i, w := range words {
		w = strings.TrimRight(w, "0123456789")
		switch w {
		case "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASSPHRASE", "PASS",
			"APIKEY", "CREDENTIAL", "CREDENTIALS", "PAT":
			return true
		case "KEY", "KEYS":
			if i == len(words)-1 {
				return true
			}
			if i > 0 {
				switch words[i-1] {
				case "API", "ACCESS", "SECRET", "PRIVATE", "SIGNING", "ENCRYPTION", "MASTER":
					return true
				}
			}
		}
	}
	return false
}

// firstWord returns the first static operand that is not an option, and
// its index; -1 if there is none.
func firstWord(args []field) (string, int) {
	for i, f := range args {
		if f.dyn {
			return "", -1
		}
		if f.s == "--" {
			if i+1 < len(args) && !args[i+1].dyn {
				return args[i+1].s, i + 1
			}
			return "", -1
		}
		if !strings.HasPrefix(f.s, "-") {
			return f.s, i
		}
	}
	return "", -1
}

// store classifies a secret store CLI: every use reads a secret, except
// the verbs listed in safe, which only show names, status or help.
func (a *analyzer) store(e *env, c call, safe ...string) (bool, bool) {
	w, i := firstWord(c.args)
	if i < 0 && len(c.args) > 0 && c.args[0].dyn {
		a.unresolved(c.name + " with a subcommand that is not static")
		a.class(action.SecretAccess)
		return false, false
	}
	for _, f := range c.args {
		if !f.dyn && (f.s == "--version" || f.s == "--help" || f.s == "-h") && len(c.args) == 1 {
			return true, true
		}
	}
	for _, s := range safe {
		if w == s {
			return false, true
		}
	}
	a.class(action.SecretAccess)
	return false, true
}

// runWith peels the command a secret store runs with secrets in its
// environment (op run -- CMD, doppler run -- CMD): the words after "--",
// or, without one, from the first operand after start.
func (a *analyzer) runWith(e *env, args []field) bool {
	for j, f := range args {
		if !f.dyn && f.s == "--" {
			return a.inner(e, args[j+1:], nil, false)
		}
	}
	for j, f := range args {
		if f.dyn {
			a.unresolved("a command run with secrets whose words are not static")
			return false
		}
		if !strings.HasPrefix(f.s, "-") {
			return a.inner(e, args[j:], nil, false)
		}
	}
	return true
}

// gpgSecret are the gpg commands that use a private key or print
// plaintext; gpgWrite those that change the keyring; gpgNet those that
// reach a key server; gpgKeys those whose operands are key names, not
// files; gpgOther the remaining commands, which only read their files.
var gpgSecret, gpgWrite, gpgNet, gpgKeys, gpgOther = words(`-d --decrypt --decrypt-files -s --sign --clearsign
	--clear-sign -b --detach-sign --export-secret-keys --export-secret-subkeys --export-secret-key --list-packets
	--card-edit --change-passphrase --passwd --export-ssh-key --desig-revoke --gen-revoke --generate-revocation
	--quick-sign-key --quick-lsign-key --sign-key --lsign-key`),
	words(`--import --recv-keys --receive-keys --refresh-keys --fetch-keys --gen-key --generate-key --full-gen-key
	--full-generate-key --quick-gen-key --quick-generate-key --quick-add-key --quick-add-uid --quick-revoke-uid
	--quick-revoke-sig --quick-set-expire --quick-set-primary-uid --delete-key --delete-keys --delete-secret-key
	--delete-secret-keys --delete-secret-and-public-key --delete-secret-and-public-keys --edit-key --sign-key
	--lsign-key --quick-sign-key --quick-lsign-key --import-ownertrust --update-trustdb --check-trustdb
	--locate-keys --locate-external-keys --change-passphrase --passwd --card-edit --edit-card --tofu-policy`),
	words(`--recv-keys --receive-keys --refresh-keys --fetch-keys --search-keys --send-keys --locate-keys
	--locate-external-keys`),
	words(`-k -K --list-keys --list-public-keys --list-secret-keys --list-sigs --list-signatures --check-sigs
	--check-signatures --fingerprint --export --export-secret-keys --export-secret-subkeys --export-ssh-key
	--recv-keys --receive-keys --refresh-keys --search-keys --send-keys --locate-keys --locate-external-keys
	--delete-key --delete-keys --delete-secret-key --delete-secret-keys --delete-secret-and-public-key
	--edit-key --sign-key --lsign-key --quick-sign-key --quick-lsign-key --quick-gen-key --quick-generate-key
	--quick-add-key --quick-add-uid --quick-revoke-uid --quick-set-expire --quick-set-primary-uid --gen-revoke
	--generate-revocation --desig-revoke --tofu-policy --list-config --gpgconf-list --version --help -h
	--dump-options --list-trustdb --export-ownertrust --card-status --gen-random --gen-prime`),
	words(`-e --encrypt -c --symmetric --store --verify --verify-files --encrypt-files --print-md --print-mds
	--dearmor --dearmour --enarmor --enarmour --show-keys --import-options --list-config --version --help -h
	--card-status --gen-random --gen-prime --export-ownertrust --list-trustdb --dump-options`)

// words makes a set of the words of s.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// gpg classifies gpg: decrypting, signing and exporting secret keys read
// the private keys; importing, generating and editing keys write the
// keyring (--homedir, else ~/.gnupg); key server commands reach the
// network. gpg given only files guesses what to do, which for an
// encrypted file is to decrypt it.
func (a *analyzer) gpg(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "oruz", []string{"output", "recipient", "local-user", "homedir", "keyserver",
		"default-key", "passphrase", "passphrase-file", "passphrase-fd", "trust-model", "cipher-algo",
		"digest-algo", "compress-algo", "pinentry-mode", "status-fd", "logger-fd", "command-fd", "attribute-fd",
		"status-file", "logger-file", "command-file", "keyring", "secret-keyring", "primary-keyring", "trustdb-name",
		"options", "keyserver-options", "import-options", "export-options", "list-options", "verify-options",
		"photo-viewer", "exec-path", "default-recipient", "encrypt-to", "hidden-recipient", "set-filename",
		"comment", "sig-notation", "cert-notation", "agent-program", "dirmngr-program", "s2k-cipher-algo",
		"s2k-digest-algo", "s2k-mode", "s2k-count", "personal-cipher-preferences", "personal-digest-preferences",
		"recipient-file", "hidden-recipient-file", "trusted-key", "auto-key-locate", "sender"}, false)
	var secret, write, net, cmd, command, keys bool
	for _, o := range opts {
		secret = secret || gpgSecret[o.name]
		write = write || gpgWrite[o.name]
		net = net || gpgNet[o.name]
		keys = keys || gpgKeys[o.name]
		command = command || gpgSecret[o.name] || gpgWrite[o.name] || gpgKeys[o.name] || gpgOther[o.name]
		switch o.name {
		case "--photo-viewer", "--exec-path":
			cmd = true
		case "-o", "--output":
			if o.has {
				a.path(e, o.val, action.Write)
			}
		case "--passphrase-file", "--recipient-file", "--hidden-recipient-file", "--options", "--keyring",
			"--secret-keyring", "--primary-keyring":
			if o.has {
				a.path(e, o.val, action.Read)
			}
		}
	}
	if !command && len(ops) > 0 {
		secret = true
	}
	if secret {
		a.class(action.SecretAccess)
	}
	if write {
		homes := optVals(opts, "--homedir")
		for _, h := range homes {
			a.path(e, h, action.Write)
		}
		if len(homes) == 0 {
			home := "~/.gnupg"
			if a.home() != "" {
				home = a.home() + "/.gnupg"
			}
			a.pathStr(e, home, action.Write, false)
		}
	}
	if net {
		a.class(action.NetworkEgress)
	}
	if cmd {
		a.flag(action.FlagRunsCode)
	}
	if !keys {
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
	}
	// Encrypting or signing a file writes FILE.gpg, .asc or .sig beside
	// it: only the key listings read and nothing else.
	return keys && !secret && !write && !net && !cmd && !hasOpt(opts, "-o", "--output"), true
}

// sshKeygen classifies ssh-keygen: generating a key, changing its
// passphrase or comment, or removing a known host writes the key file
// (-f, else ~/.ssh/id_<type> or ~/.ssh/known_hosts); printing the public
// key of a private one (-y), signing (-Y sign) and certifying (-s) read
// the private key.
func (a *analyzer) sshKeygen(e *env, c call) (bool, bool) {
	opts, _ := scan(c.args, "abCDEfFGIJjMmNnOPrRsSTtVwYZz", nil, false)
	files := optVals(opts, "-f")
	ssh := "~/.ssh"
	if a.home() != "" {
		ssh = a.home() + "/.ssh"
	}
	read := func() {
		for _, f := range files {
			a.path(e, f, action.Read)
		}
	}
	switch {
	case hasOpt(opts, "-R", "-H"):
		if len(files) == 0 {
			a.pathStr(e, ssh+"/known_hosts", action.Write, false)
		}
		for _, f := range files {
			a.path(e, f, action.Write)
		}
		return false, true
	case hasOpt(opts, "-y", "-Y", "-e", "-i", "-l", "-B", "-F", "-L", "-Q", "-D"):
		if hasOpt(opts, "-y", "-Y") {
			a.class(action.SecretAccess)
		}
		if len(files) == 0 && hasOpt(opts, "-y", "-l", "-B") {
			a.pathStr(e, ssh, action.Read, false)
		}
		read()
		for _, f := range optVals(opts, "-s") {
			a.path(e, f, action.Read)
		}
		return !hasOpt(opts, "-y", "-Y"), true
	}
	for _, f := range optVals(opts, "-s") {
		a.path(e, f, action.Read) // the CA key signs a certificate
	}
	if hasOpt(opts, "-s") {
		a.class(action.SecretAccess)
		read()
		return false, true
	}
	if len(files) == 0 {
		t := "ed25519"
		if ts := optVals(opts, "-t"); len(ts) > 0 && !ts[0].dyn {
			t = strings.ToLower(strings.TrimSuffix(ts[0].s, "-sk"))
		}
		if hasOpt(opts, "-A") {
			a.pathStr(e, "/etc/ssh", action.Write, false)
			return false, true
		}
		a.pathStr(e, ssh+"/id_"+t, action.Write, false)
		return false, true
	}
	for _, f := range files {
		a.path(e, f, action.Write)
		if !f.dyn {
			a.pathStr(e, f.s+".pub", action.Write, false)
		}
	}
	return false, true
}

// sshAdd classifies ssh-add: loading keys reads them (the named files,
// else those of ~/.ssh); listing, deleting and locking do not.
func (a *analyzer) sshAdd(e *env, c call) (bool, bool) {
	opts, ops := scan(c.args, "EeSHht", nil, false)
	if hasOpt(opts, "-l", "-L", "-d", "-D", "-x", "-X", "-T") && len(ops) == 0 {
		return false, true
	}
	if hasOpt(opts, "-e", "-s") {
		return false, true // a PKCS#11 provider
	}
	a.class(action.SecretAccess)
	if len(ops) == 0 {
		ssh := "~/.ssh"
		if a.home() != "" {
			ssh = a.home() + "/.ssh"
		}
		a.pathStr(e, ssh, action.Read, false)
	}
	for _, f := range ops {
		a.path(e, f, action.Read)
	}
	return false, true
}

func secretPrograms() map[string]handler {
	m := map[string]handler{}
	m["op"] = func(a *analyzer, e *env, c call) (bool, bool) {
		ro, known := a.store(e, c, "whoami", "help", "update", "completion", "account", "vault", "--version")
		if w, i := firstWord(c.args); w == "run" {
			known = a.runWith(e, c.args[i+1:]) && known
		}
		return ro, known
	}
	m["vault"] = func(a *analyzer, e *env, c call) (bool, bool) {
		ro, known := a.store(e, c, "version", "status", "help", "-version", "path-help")
		switch w, _ := firstWord(c.args); w {
		case "write", "delete", "kv", "policy", "secrets", "auth", "token", "lease", "operator", "audit", "plugin", "pki", "transit":
			if w != "kv" || hasAny(c.args, "put", "patch", "delete", "destroy", "undelete", "rollback", "metadata") {
				a.class(action.NetworkEgress)
			}
		}
		return ro, known
	}
	m["secret-tool"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.store(e, c) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		if w, i := firstWord(c.args); w == "git" {
			a.class(action.SecretAccess)
			return false, a.inner(e, c.args[i:], nil, false)
		}
		if len(c.args) == 0 {
			return false, true // lists the names in the store
		}
		return a.store(e, c, "ls", "list", "find", "search", "version", "help", "init")
	}, "pass", "gopass")
	m["security"] = func(a *analyzer, e *env, c call) (bool, bool) {
		return a.store(e, c, "find-certificate", "find-identity", "list-keychains", "default-keychain",
			"login-keychain", "show-keychain-info", "verify-cert", "help", "list-smartcards", "dump-trust-settings")
	}
	m["keyctl"] = func(a *analyzer, e *env, c call) (bool, bool) {
		return a.store(e, c, "show", "list", "rlist", "describe", "rdescribe", "supports", "timeout", "revoke",
			"unlink", "link", "clear", "invalidate", "newring", "session", "chown", "chperm", "id")
	}
	m["age"] = func(a *analyzer, e *env, c call) (bool, bool) {
		opts, ops := scan(c.args, "oirR", []string{"output", "identity", "recipient", "recipients-file"}, false)
		for _, f := range optVals(opts, "-o", "--output") {
			a.path(e, f, action.Write)
		}
		for _, f := range optVals(opts, "-i", "--identity", "-R", "--recipients-file") {
			a.path(e, f, action.Read)
		}
		if hasOpt(opts, "-d", "--decrypt") || len(optVals(opts, "-i", "--identity")) > 0 {
			a.class(action.SecretAccess)
		}
		for _, f := range ops {
			a.path(e, f, action.Read)
		}
		return false, true
	}
	m["sops"] = func(a *analyzer, e *env, c call) (bool, bool) {
		opts, ops := scan(c.args, "", []string{"output", "input-type", "output-type", "extract", "kms", "pgp",
			"age", "gcp-kms", "azure-kv", "hc-vault-transit", "config", "set", "unset", "filename-override",
			"encrypted-regex", "unencrypted-regex", "encrypted-suffix", "unencrypted-suffix", "indent", "shamir-secret-sharing-threshold"}, false)
		w := ""
		if len(ops) > 0 && !ops[0].dyn {
			w = ops[0].s
		}
		switch {
		case hasOpt(opts, "-e", "--encrypt") || w == "encrypt" || w == "--version" || w == "help":
		case w == "exec-env" || w == "exec-file":
			a.class(action.SecretAccess)
			if len(ops) >= 3 {
				a.shellString(e, ops[2:3])
			}
			return false, true
		case w == "publish":
			a.class(action.SecretAccess)
			a.class(action.NetworkEgress)
		default:
			a.class(action.SecretAccess) // -d, decrypt, edit, a bare file: the plaintext
		}
		for _, f := range optVals(opts, "--output") {
			a.path(e, f, action.Write)
		}
		return false, true
	}
	m["bw"] = func(a *analyzer, e *env, c call) (bool, bool) {
		return a.store(e, c, "status", "config", "lock", "logout", "sync", "generate", "help", "completion", "update")
	}
	m["rbw"] = func(a *analyzer, e *env, c call) (bool, bool) {
		return a.store(e, c, "list", "ls", "search", "config", "lock", "stop-agent", "sync", "generate", "gen", "help", "purge")
	}
	m["lpass"] = func(a *analyzer, e *env, c call) (bool, bool) {
		return a.store(e, c, "ls", "logout", "status", "sync", "help")
	}
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		ro, known := a.store(e, c, "help", "--version", "login", "logout", "configure", "me", "update", "projects", "environments")
		if w, i := firstWord(c.args); w == "run" || w == "exec" {
			known = a.runWith(e, c.args[i+1:]) && known
		}
		return ro, known
	}, "doppler", "infisical", "chamber")
	m["keyring"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.store(e, c, "--list-backends", "diagnose") }
	m["kwallet-query"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.store(e, c) }
	m["gpg"] = (*analyzer).gpg
	m["gpg2"] = (*analyzer).gpg
	m["ssh-keygen"] = (*analyzer).sshKeygen
	m["ssh-add"] = (*analyzer).sshAdd
	return m
}
