// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

// This file holds the sensitive set, as data, and the pattern language it
// is written in (see [Entry]). The set only grows: [Resolver.Extra] adds
// entries, nothing removes one.

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Entry is one entry of the sensitive set.
//
// A pattern is one or more slash-separated components. A component is
// literal text in which * matches any run of characters and ? one
// character, both within that component; [ and \ are reserved. Matching
// ignores case (Unicode simple folding).
//
//   - A trailing / names a directory: the directory itself and everything
//     under it. Without it the pattern names a file and matches the last
//     components of a path, so ".env" is not a virtualenv directory named
//     .env/.
//   - A leading / anchors the pattern at the root; a leading ~/ anchors it
//     at the home directory, or, when the home is unknown ([Sensitive]),
//     leaves it unanchored, the stricter reading. Otherwise it matches at
//     any depth.
//   - Except lists globs for the last component that the entry exempts.
type Entry struct {
	// Pattern is what the entry matches; it is also the name reported
	// in [action.Path.Sensitive].
	Pattern string
	// Except lists globs for the final component that Pattern does not
	// cover.
	Except []string
	// Why says what the entry protects.
	Why string
}

// sensitiveTable is the built-in floor of docs/spec.md §5, which is also what
// the sandbox masks. Each entry is either anchored at the home (~/: only the
// caller's own file, because the same name in a project is that project's
// configuration, which its tools need) or matches at any depth (the name is
// a secret wherever it is: a copy of a home, a backup, a file in a project).
// Deliberately absent: .envrc (a direnv script, read by the shell on every
// cd), prod.env and other *.env (conventional names for non-secret
// configuration), and *.pub outside .ssh (public keys are published on
// purpose).
var sensitiveTable = []Entry{
	// The whole directory: private keys of any name, and also
	// authorized_keys and config, whose modification is persistence.
	{Pattern: ".ssh/", Why: "SSH keys, authorized_keys and client configuration"},
	{Pattern: ".aws/credentials", Why: "AWS access keys"},
	// config holds role ARNs, SSO sessions and credential_process
	// commands, which run with the user's rights.
	{Pattern: ".aws/config", Why: "AWS profiles and credential helpers"},
	// Private keys live in private-keys-v1.d; the rest is the trust
	// database, whose modification forges trust.
	{Pattern: ".gnupg/", Why: "GnuPG private keys and trust database"},
	// Whole, at any depth: kubeconfigs are often split over several
	// files (KUBECONFIG=~/.kube/a.yaml:~/.kube/b.yaml), and cache/ holds
	// OIDC and exec-plugin tokens. A project has no .kube of its own
	// but a kubeconfig for a local cluster, which is a credential too.
	{Pattern: ".kube/", Why: "Kubernetes cluster credentials and token caches"},
	// auths is base64("user:password") for each registry; at any depth,
	// as a copied or mounted config.json is the same secret.
	{Pattern: ".docker/config.json", Why: "container registry credentials"},
	// Whole in the home: contexts/ and machine/ hold the TLS client keys
	// of remote daemons, and credential helpers are configured there.
	// Anchored, because many projects keep their Dockerfiles and compose
	// files in a .docker/ directory of their own.
	{Pattern: "~/.docker/", Why: "container registry credentials and daemon TLS keys"},
	{Pattern: ".netrc", Why: "plain-text logins used by curl, git and ftp"},
	{Pattern: ".git-credentials", Why: "git credential-store tokens in plain text"},
	{Pattern: ".config/gh/hosts.yml", Why: "GitHub CLI OAuth token"},
	// hub's token file (the predecessor of gh).
	{Pattern: ".config/hub", Why: "hub GitHub OAuth token"},
	// Access tokens, refresh tokens and service-account keys of every
	// configuration (credentials.db, legacy_credentials/, access_tokens.db).
	{Pattern: ".config/gcloud/", Why: "Google Cloud SDK credentials"},
	// npm login writes _authToken lines here. Anchored at the home: a
	// project's .npmrc is the registry, scope and install configuration
	// npm needs inside the sandbox, and where it authenticates it
	// normally does so by reference (_authToken=${NPM_TOKEN}); a literal
	// token in a project's .npmrc is already in that project's history,
	// and a policy that wants it masked lists it (sensitive: for the
	// floor, sandbox.filesystem.hide for the sandbox).
	{Pattern: "~/.npmrc", Why: "npm registry tokens"},
	// Yarn 2+ keeps npmAuthToken in the home's .yarnrc.yml; a project's
	// .yarnrc.yml is its Yarn configuration, as for .npmrc.
	{Pattern: "~/.yarnrc.yml", Why: "Yarn registry tokens"},
	// Only twine and setuptools read it, and only for credentials: at any
	// depth.
	{Pattern: ".pypirc", Why: "PyPI upload passwords and tokens"},
	// credentials and credentials.toml. A project's .cargo/ holds
	// config.toml, never these.
	{Pattern: ".cargo/credentials*", Why: "crates.io API tokens"},
	{Pattern: ".vault-token", Why: "HashiCorp Vault token"},
	// credentials.tfrc.json, written by terraform login.
	{Pattern: ".terraform.d/credentials*", Why: "Terraform Cloud API tokens"},
	// settings.xml holds <server> passwords, settings-security.xml the
	// master key that decrypts them. A project's Maven files are in .mvn/.
	{Pattern: ".m2/settings*.xml", Why: "Maven repository passwords"},
	{Pattern: ".gem/credentials", Why: "RubyGems API keys"},
	// The coding agents' own logins: an agent's token is what its
	// commands would most like to send away. Claude Code keeps its
	// OAuth tokens in ~/.claude/.credentials.json, and in ~/.claude.json
	// (and its backups) the MCP servers it starts with their
	// environment, API keys included, and each project's history.
	{Pattern: ".claude/.credentials.json", Why: "Claude Code OAuth tokens"},
	{Pattern: "~/.claude.json", Why: "Claude Code state: MCP servers with their environment (API keys), projects' history"},
	{Pattern: ".claude.json.backup*", Why: "Claude Code state backups: MCP servers with their environment (API keys)"},
	{Pattern: ".codex/auth.json", Why: "Codex CLI OpenAI API key or ChatGPT tokens"},
	{Pattern: ".gemini/oauth_creds.json", Why: "Gemini CLI Google OAuth tokens"},
	{Pattern: ".gemini/mcp-oauth-tokens*.json", Why: "Gemini CLI MCP servers' OAuth tokens"},
	{Pattern: ".qwen/oauth_creds.json", Why: "Qwen Code OAuth tokens"},
	{Pattern: ".config/github-copilot/", Why: "GitHub Copilot OAuth tokens (hosts.json, apps.json)"},
	{Pattern: ".local/share/opencode/auth.json", Why: "OpenCode provider API keys"},
	// Other logins of a developer's tools, each in a file of its own.
	// git credential-store reads ~/.config/git/credentials as well as
	// ~/.git-credentials.
	{Pattern: ".config/git/credentials", Why: "git credential-store tokens in plain text (XDG location)"},
	{Pattern: ".config/glab-cli/config.yml", Why: "GitLab CLI token"},
	// Anchored: the Azure Developer CLI keeps a project's environments
	// in a .azure/ directory of the project.
	{Pattern: "~/.azure/", Why: "Azure CLI tokens and service principal secrets"},
	{Pattern: "~/.oci/", Why: "Oracle Cloud CLI API signing keys"},
	{Pattern: "~/.tsh/", Why: "Teleport keys and certificates"},
	{Pattern: ".config/doctl/config.yaml", Why: "DigitalOcean API token"},
	{Pattern: "~/.fly/config.yml", Why: "Fly.io access token"},
	{Pattern: ".wrangler/config/default.toml", Why: "Cloudflare Wrangler OAuth tokens"},
	{Pattern: ".config/.wrangler/config/default.toml", Why: "Cloudflare Wrangler OAuth tokens (XDG location)"},
	{Pattern: ".local/share/com.vercel.cli/auth.json", Why: "Vercel token"},
	{Pattern: ".config/netlify/config.json", Why: "Netlify access tokens"},
	{Pattern: "~/.netlify/config.json", Why: "Netlify access tokens (older location)"},
	{Pattern: ".pulumi/credentials.json", Why: "Pulumi access tokens"},
	{Pattern: "~/.terraformrc", Why: "Terraform CLI configuration with registry credentials"},
	{Pattern: ".config/rclone/rclone.conf", Why: "rclone remotes' credentials"},
	{Pattern: ".s3cfg", Why: "s3cmd access keys"},
	{Pattern: "~/.boto", Why: "boto and gsutil credentials"},
	{Pattern: ".pgpass", Why: "PostgreSQL passwords"},
	{Pattern: "~/.my.cnf", Why: "MySQL client passwords"},
	{Pattern: ".mylogin.cnf", Why: "MySQL login paths (obfuscated passwords)"},
	{Pattern: ".databrickscfg", Why: "Databricks tokens"},
	{Pattern: ".snowflake/connections.toml", Why: "Snowflake connection passwords"},
	{Pattern: ".snowsql/config", Why: "SnowSQL passwords"},
	{Pattern: "~/.gradle/gradle.properties", Why: "Gradle repository and signing passwords"},
	{Pattern: ".config/sops/age/keys.txt", Why: "age private keys for SOPS"},
	{Pattern: ".subversion/auth/", Why: "Subversion cached passwords"},
	{Pattern: "~/.config/configstore/", Why: "tokens of Node.js CLIs (firebase-tools and others)"},
	// Written out in full where a walk of the home does not look (its
	// .cache, below its third level): the sandbox masks such a literal
	// entry at its place in the home.
	{Pattern: ".cache/huggingface/token", Why: "Hugging Face token"},
	{Pattern: ".cache/huggingface/stored_tokens", Why: "Hugging Face tokens"},
	{Pattern: ".huggingface/token", Why: "Hugging Face token (older location)"},
	{Pattern: "kaggle.json", Why: "Kaggle API key"},
	{Pattern: ".config/ngrok/ngrok.yml", Why: "ngrok authtoken"},
	{Pattern: ".ngrok2/ngrok.yml", Why: "ngrok authtoken (older location)"},
	// Browsers' profiles: cookies of every logged-in session and saved
	// passwords; Chromium's are encrypted with a fixed key where no
	// keyring runs.
	{Pattern: "~/.mozilla/", Why: "Firefox profiles: cookies and saved passwords"},
	{Pattern: "~/.config/google-chrome/", Why: "Chrome profiles: cookies and saved passwords"},
	{Pattern: "~/.config/chromium/", Why: "Chromium profiles: cookies and saved passwords"},
	{Pattern: "~/.config/BraveSoftware/", Why: "Brave profiles: cookies and saved passwords"},
	{Pattern: "~/.config/microsoft-edge/", Why: "Edge profiles: cookies and saved passwords"},
	{Pattern: "~/.local/share/keyrings/", Why: "GNOME keyring (the desktop's saved secrets)"},
	{Pattern: "~/.password-store/", Why: "pass password store"},
	// Shell and REPL histories: every command and query typed, with the
	// tokens and passwords pasted into them (export TOKEN=..., mysql
	// -p..., \password). At any depth: a history file is history data
	// wherever it is kept.
	{Pattern: ".bash_history", Why: "bash history"},
	{Pattern: ".sh_history", Why: "sh and ksh history"},
	{Pattern: ".zsh_history", Why: "zsh history"},
	{Pattern: ".zhistory", Why: "zsh history (oh-my-zsh and prezto name)"},
	// The name zsh's own setup wizard gives HISTFILE.
	{Pattern: ".histfile", Why: "zsh history"},
	{Pattern: ".local/share/fish/fish_history", Why: "fish history"},
	{Pattern: ".python_history", Why: "Python REPL history"},
	{Pattern: ".node_repl_history", Why: "Node.js REPL history"},
	{Pattern: ".psql_history", Why: "PostgreSQL client history"},
	{Pattern: ".mysql_history", Why: "MySQL client history"},
	{Pattern: ".sqlite_history", Why: "SQLite shell history"},
	{Pattern: ".irb_history", Why: "Ruby irb history"},
	{Pattern: ".pry_history", Why: "Ruby pry history"},
	{Pattern: ".rediscli_history", Why: "redis-cli history (AUTH passwords included)"},
	// The legacy mongo shell's history; mongosh keeps its own under
	// .mongodb/mongosh/.
	{Pattern: ".dbshell", Why: "MongoDB shell history"},
	{Pattern: ".mongodb/mongosh/", Why: "MongoDB shell history and configuration"},
	// atuin keeps every command typed, and the key of its sync.
	{Pattern: "~/.local/share/atuin/", Why: "atuin shell history and its key"},
	{Pattern: ".lesshst", Why: "less search history"},
	// Registers, marks and command lines: what was yanked, passwords
	// included.
	{Pattern: ".viminfo", Why: "Vim registers and command history"},
	{Pattern: "~/.local/state/nvim/shada/", Why: "Neovim registers and command history"},
	{Pattern: "~/.local/share/nvim/shada/", Why: "Neovim registers and command history (older location)"},
	{Pattern: ".ipython/profile_*/history.sqlite", Why: "IPython history"},
	{Pattern: ".julia/logs/repl_history.jl", Why: "Julia REPL history"},
	{Pattern: ".duckdb_history", Why: "DuckDB shell history"},
	{Pattern: ".cqlsh_history", Why: "Cassandra shell history"},
	// R writes .Rhistory in its working directory, a project's too.
	{Pattern: ".Rhistory", Why: "R history"},
	{Pattern: ".env", Why: "dotenv file: application secrets by convention"},
	// .env.local, .env.production...; the exceptions are templates meant
	// to be committed without values.
	{
		Pattern: ".env.*",
		Except:  []string{".env.example", ".env.sample", ".env.template", ".env.dist"},
		Why:     "per-environment dotenv file",
	},
	// Private keys outside ~/.ssh (copies, backups: id_rsa.bak,
	// id_ed25519_deploy), at any depth; inside .ssh the directory entry
	// already covers the .pub too.
	{Pattern: "id_rsa*", Except: []string{"*.pub"}, Why: "RSA private key"},
	{Pattern: "id_dsa*", Except: []string{"*.pub"}, Why: "DSA private key"},
	{Pattern: "id_ecdsa*", Except: []string{"*.pub"}, Why: "ECDSA private key"},
	{Pattern: "id_ed25519*", Except: []string{"*.pub"}, Why: "Ed25519 private key"},
	// Any pid, self and thread-self: a process's environment holds the
	// tokens it was started with.
	{Pattern: "/proc/*/environ", Why: "environment of a process"},
	{Pattern: "/proc/*/task/*/environ", Why: "environment of a process, through one of its threads"},
}

// SensitiveSet returns the built-in sensitive set, for documentation and
// `warden policy enumerate`. The result is a copy.
func SensitiveSet() []Entry {
	out := make([]Entry, len(sensitiveTable))
	for i, e := range sensitiveTable {
		e.Except = slices.Clone(e.Except)
		out[i] = e
	}
	return out
}

// builtin is sensitiveTable compiled, on first use: the sandbox's init,
// which never matches a path, does not pay for it at start.
var builtin = sync.OnceValue(func() []pattern { return mustCompileTable(sensitiveTable) })

func mustCompileTable(entries []Entry) []pattern {
	pats := make([]pattern, len(entries))
	for i, e := range entries {
		p, err := compile(e.Pattern, "")
		if err != nil {
			panic("internal error: sensitive table: " + err.Error())
		}
		for _, x := range e.Except {
			if err := validComponent(x); err != nil {
				panic("internal error: sensitive table: " + err.Error())
			}
		}
		p.except = e.Except
		pats[i] = p
	}
	return pats
}

// Sensitive reports whether the absolute path p matches the built-in
// sensitive set, and if so which entry. It is a pure function of the string:
// it follows no links and compares no inodes (a [Resolver] does both), and
// it does not see [Resolver.Extra]. p is cleaned lexically first. Without a
// home, the entries anchored at it (~/.npmrc) match at any depth: use it
// to find candidates, and [SensitiveIn] or a Resolver to judge them.
func Sensitive(p string) (entry string, ok bool) {
	return match(builtin(), path.Clean(p), nil)
}

// SensitiveIn is [Sensitive] for a caller whose home is home: the entries
// anchored at the home match only there. An empty or relative home is
// unknown, as for Sensitive.
func SensitiveIn(p, home string) (entry string, ok bool) {
	return match(builtin(), path.Clean(p), homeComponents(home))
}

// homeComponents returns the components of an absolute home, or nil when
// the home is unknown (empty, relative, or /).
func homeComponents(home string) []string {
	if !path.IsAbs(home) {
		return nil
	}
	return components(path.Clean(home), nil)
}

// ValidatePattern reports whether p is a well-formed sensitive-set pattern,
// for configuration that extends the set ([Resolver.Extra]).
func ValidatePattern(p string) error {
	_, err := compile(p, "")
	return err
}

// pattern is a compiled Entry.
type pattern struct {
	name     string // the source pattern, reported on a match
	comps    []string
	anchored bool // comps start at the root
	// home: comps start at the home directory, which is given when
	// matching (a built-in ~/ entry); unanchored when it is not.
	home   bool
	dir    bool // the directory and anything under it
	except []string
}

// compile parses a pattern. A leading ~/ is anchored at home when home is
// a known absolute path; otherwise the pattern is marked home, to be
// anchored at the home given when matching, or at any depth without one,
// which is the stricter reading.
func compile(src, home string) (pattern, error) {
	p := pattern{name: src}
	s := src
	if s == "" {
		return p, fmt.Errorf("empty sensitive pattern")
	}
	switch {
	case strings.HasPrefix(s, "~/"):
		s = s[2:]
		if path.IsAbs(home) {
			p.anchored = true
			p.comps = components(path.Clean(home), nil)
		} else {
			p.home = true
		}
	case strings.HasPrefix(s, "/"):
		s = s[1:]
		p.anchored = true
	}
	if strings.HasSuffix(s, "/") {
		s = s[:len(s)-1]
		p.dir = true
	}
	if s == "" {
		return p, fmt.Errorf("sensitive pattern %q names no file", src)
	}
	for c := range strings.SplitSeq(s, "/") {
		if err := validComponent(c); err != nil {
			return p, fmt.Errorf("sensitive pattern %q: %v", src, err)
		}
		p.comps = append(p.comps, c)
	}
	return p, nil
}

func validComponent(c string) error {
	switch {
	case c == "":
		return fmt.Errorf("empty component")
	case c == "." || c == "..":
		return fmt.Errorf("component %q", c)
	case strings.ContainsAny(c, "[\\"):
		return fmt.Errorf("%q uses a reserved character ([ or \\)", c)
	case strings.IndexByte(c, 0) >= 0:
		return fmt.Errorf("%q contains a NUL byte", c)
	}
	return nil
}

// match returns the first pattern of pats that matches the clean path p,
// home-anchored patterns at home's components (nil: at any depth).
func match(pats []pattern, p string, home []string) (string, bool) {
	if p == "" {
		return "", false
	}
	var buf [48]string
	comps := components(p, buf[:0])
	abs := strings.HasPrefix(p, "/")
	for i := range pats {
		if pats[i].matches(comps, abs, home) {
			return pats[i].name, true
		}
	}
	return "", false
}

func (p *pattern) matches(comps []string, abs bool, home []string) bool {
	k := len(p.comps)
	if k > len(comps) {
		return false
	}
	if p.home && len(home) > 0 {
		if !abs || len(home)+k > len(comps) {
			return false
		}
		for i, h := range home {
			if !strings.EqualFold(h, comps[i]) {
				return false
			}
		}
		if p.dir {
			return p.at(comps, len(home))
		}
		return len(home)+k == len(comps) && p.at(comps, len(home))
	}
	switch {
	case p.anchored && !abs:
		return false
	case p.anchored && p.dir:
		return p.at(comps, 0)
	case p.anchored:
		return k == len(comps) && p.at(comps, 0)
	case p.dir:
		for i := 0; i+k <= len(comps); i++ {
			if p.at(comps, i) {
				return true
			}
		}
		return false
	default:
		return p.at(comps, len(comps)-k)
	}
}

// at reports whether p's components match comps[i:i+len(p.comps)], and its
// exceptions do not exempt the last of them.
func (p *pattern) at(comps []string, i int) bool {
	for j, pc := range p.comps {
		if !globFold(pc, comps[i+j]) {
			return false
		}
	}
	last := comps[i+len(p.comps)-1]
	for _, x := range p.except {
		if globFold(x, last) {
			return false
		}
	}
	return true
}

// components appends the non-empty, non-"." components of p to buf.
func components(p string, buf []string) []string {
	for p != "" {
		c := p
		p = ""
		if i := strings.IndexByte(c, '/'); i >= 0 {
			c, p = c[:i], c[i+1:]
		}
		if c != "" && c != "." {
			buf = append(buf, c)
		}
	}
	return buf
}

// globFold matches name against the glob pat (* and ?), ignoring case by
// Unicode simple folding, the way strings.EqualFold does.
func globFold(pat, name string) bool {
	if !strings.ContainsAny(pat, "*?") {
		return strings.EqualFold(pat, name)
	}
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(name) {
		if pi < len(pat) {
			pr, pw := utf8.DecodeRuneInString(pat[pi:])
			nr, nw := utf8.DecodeRuneInString(name[ni:])
			switch {
			case pr == '*':
				pi += pw
				starP, starN = pi, ni
				continue
			case pr == '?' || foldEq(pr, nr):
				pi += pw
				ni += nw
				continue
			}
		}
		if starP < 0 {
			return false
		}
		// Let the last * swallow one more rune and retry.
		_, nw := utf8.DecodeRuneInString(name[starN:])
		starN += nw
		pi, ni = starP, starN
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// foldEq reports whether a and b are equal under Unicode simple folding.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
