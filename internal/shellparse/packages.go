// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse

// This file is the package managers family. The rules:
//
//   - Installing, updating or removing a package, with any manager of a
//     language or a system (npm, pnpm, yarn, bun, pip, uv, pipx, poetry,
//     conda, gem, cargo, composer, deno, brew, apt, dnf, apk, pacman,
//     zypper, snap, flatpak, nix…), is packageInstall, with the package
//     names as facets (Analysis.Packages). bundle and nix-shell, which
//     also run a command they are given, are wrappers (runners.go).
//   - Fetching a package and running it (npx, bunx, pnpm dlx, yarn dlx,
//     npm exec, npm init NAME, uvx, pipx run, gem exec, nix run, deno run
//     URL, bun x) is one family: packageInstall and runs_code, the package
//     named, so that a rule may allow one by name.
//   - Running the project's scripts (npm test, npm run X, yarn X, cargo
//     build and test, which run build scripts) is runs_code.
//   - Publishing (npm publish, cargo publish, gem push, poetry publish,
//     uv publish) and downloading (pip download) are networkEgress.
//   - A verb the table does not know is taken on the safe side: a script
//     (runs_code) for the JavaScript managers, whose unknown verbs run
//     package.json scripts, an install for the others.
//
// bun and deno are both a package manager and a runtime: their package
// verbs are classified in this family, everything else as an interpreter.
//
// Here are the managers' table, the handler that reads it, and the
// runners that fetch a package and run it; the managers whose command
// line the table cannot describe (uv, pacman, nix, deno, cargo) are in
// pkgmanagers.go.

import (
	"slices"
	"strings"
	"sync"

	"warden.dev/warden/internal/action"
)

// verb is what a package manager's subcommand does.
type verb int

const (
	vKnown    verb = iota // classified, and nothing the taxonomy names: list, show, search
	vInstall              // packageInstall; operands are package names
	vFetchRun             // packageInstall and runs_code: fetch a package, run it
	vRun                  // runs_code: the project's scripts or build
	vPublish              // networkEgress: publish, log in, download
	vCreate               // npm init NAME: fetch and run create-NAME
	vWrite                // writes configuration or the manifest, not read-only
)

// manager describes one package manager's command line.
type manager struct {
	short string   // short options that take a value
	long  []string // long options that take a value
	verbs map[string]verb
	bare  verb // no verb at all
	other verb // a verb not in the table
}

// vt builds a verb table from lists of names per kind.
func vt(kinds ...any) map[string]verb {
	m := map[string]verb{}
	for i := 0; i+1 < len(kinds); i += 2 {
		for _, n := range strings.Fields(kinds[i+1].(string)) {
			m[n] = kinds[i].(verb)
		}
	}
	return m
}

// jsVerbs are the verbs npm, pnpm, yarn and bun share.
const (
	jsInstall = "install i in ins inst insta instal isnt isnta isntal isntall add a ci clean-install ic install-clean " +
		"isntall-clean update up upgrade udpate link ln uninstall unlink remove rm r un prune dedupe ddp fetch " +
		"install-test it install-ci-test cit import patch-commit rebuild rb"
	jsRun     = "test t tst run run-script rum urn start stop restart build pack explore edit exec node"
	jsPublish = "publish unpublish deprecate dist-tag owner access team org hook token login logout adduser " +
		"add-user star unstar"
	jsKnown = "ls list ll la view v info show outdated search s se find help why explain root prefix bin fund " +
		"ping doctor audit whoami completion query sbom diff repo docs home bugs licenses -v --version -h --help " +
		"config c get cache store"
)

// managerNames are the names managers has, for the dispatch table:
// listing them does not build managers (TestManagerNames keeps the two
// the same).
var managerNames = []string{"npm", "pnpm", "yarn", "bun", "pip", "pipx", "poetry", "pdm", "conda", "gem", "composer",
	"brew", "apt", "dnf", "apk", "zypper", "snap", "flatpak", "port", "rustup", "cpanm", "cpan", "volta", "corepack",
	"choco", "winget", "scoop", "nix-channel", "nix-build"}

// managers is built on first use, by the first command that names a
// package manager: most processes that link the analyser (the sandbox's
// init among them) never use it, and most commands judged name none.
var managers = sync.OnceValue(func() map[string]manager {
	return map[string]manager{
		"npm": {short: "Cw", long: []string{"prefix", "registry", "tag", "otp", "workspace", "cache", "userconfig",
			"globalconfig", "loglevel", "location", "omit", "include", "save-prefix", "access", "scope", "package",
			"install-strategy", "script-shell", "node-options"},
			verbs: vt(vInstall, jsInstall, vRun, jsRun, vPublish, jsPublish, vKnown, jsKnown,
				vFetchRun, "exec x", vCreate, "init create innit", vWrite, "set version pkg shrinkwrap"),
			bare: vKnown, other: vRun},
		"pnpm": {short: "Cw", long: []string{"dir", "prefix", "registry", "filter", "workspace", "store-dir",
			"virtual-store-dir", "reporter", "loglevel", "config", "package", "tag", "otp", "access"},
			verbs: vt(vInstall, jsInstall+" env setup self-update approve-builds", vRun, jsRun, vPublish, jsPublish,
				vKnown, jsKnown, vFetchRun, "dlx", vCreate, "create init", vWrite, "set version pkg"),
			bare: vKnown, other: vRun},
		"yarn": {long: []string{"cwd", "registry", "modules-folder", "cache-folder", "mutex", "network-timeout"},
			verbs: vt(vInstall, jsInstall+" global plugin set", vRun, jsRun+" workspaces", vPublish, jsPublish+" npm",
				vKnown, jsKnown+" versions dir constraints", vFetchRun, "dlx", vCreate, "create", vWrite, "init version"),
			bare: vInstall, other: vRun},
		"bun": {short: "p", long: []string{"cwd", "registry", "cache-dir", "backend", "config", "filter"},
			verbs: vt(vInstall, "install i add a remove rm update upgrade link unlink patch patch-commit", vPublish, "publish",
				vKnown, "outdated audit info pm -v --version --revision", vFetchRun, "x", vCreate, "create c"),
			bare: vRun, other: vRun},
		"pip": {short: "rceitfdb", long: []string{"requirement", "constraint", "editable", "index-url", "extra-index-url",
			"find-links", "target", "prefix", "root", "src", "platform", "python-version", "implementation", "abi",
			"no-binary", "only-binary", "progress-bar", "log", "cert", "client-cert", "cache-dir", "proxy", "retries",
			"timeout", "exists-action", "trusted-host", "upgrade-strategy", "report", "dest", "python", "config-settings",
			"global-option", "build-option", "group", "keyring-provider", "use-feature", "use-deprecated", "format",
			"exclude", "path"},
			verbs: vt(vInstall, "install uninstall", vPublish, "download", vRun, "wheel", vKnown,
				"list show freeze check search cache index inspect debug help hash completion -V --version -h --help config lock"),
			bare: vKnown, other: vInstall},
		"pipx": {long: []string{"spec", "python", "index-url", "pip-args", "suffix", "editable"},
			verbs: vt(vInstall, "install install-all inject uninject upgrade upgrade-all upgrade-shared reinstall "+
				"reinstall-all uninstall uninstall-all pin unpin interpreter", vWrite, "ensurepath",
				vFetchRun, "run", vKnown, "list environment completions --version -h --help"),
			bare: vKnown, other: vInstall},
		"poetry": {short: "CPGEre", long: []string{"directory", "project", "source", "group", "extras", "with", "without",
			"only", "repository", "username", "password", "cert", "client-cert", "python", "build-format", "output",
			"format", "editable", "optional", "allow-prereleases"},
			verbs: vt(vInstall, "add install update lock sync remove self source", vPublish, "publish", vRun, "shell build",
				vKnown, "show check env config about list search export debug help -V --version -h --help", vWrite, "init new version"),
			bare: vKnown, other: vRun},
		"pdm": {short: "pGg", long: []string{"project", "group", "venv"},
			verbs: vt(vInstall, "add install update lock sync remove self use", vPublish, "publish", vRun, "build",
				vKnown, "list show info config search outdated --version -h --help", vWrite, "init"),
			bare: vKnown, other: vRun},
		"conda": {short: "npc", long: []string{"name", "prefix", "channel", "file", "override-channels", "solver", "cwd"},
			verbs: vt(vInstall, "install create update upgrade remove uninstall env clean build develop", vKnown,
				"list info search doctor compare package --version -V -h --help activate deactivate notices", vWrite, "config init"),
			bare: vKnown, other: vInstall},
		"gem": {short: "viN", long: []string{"version", "install-dir", "bindir", "source", "platform", "document", "key", "host", "otp"},
			verbs: vt(vInstall, "install i update uninstall cleanup pristine fetch rebuild unpack", vFetchRun, "exec",
				vPublish, "push yank owner signin signout", vRun, "build", vKnown,
				"list search query info env environment which contents specification dependency outdated help check "+
					"stale lock mirror --version -v -h --help", vWrite, "sources cert"),
			bare: vKnown, other: vInstall},
		"composer": {short: "d", long: []string{"working-dir", "repository", "prefer-install", "ignore-platform-req", "stability"},
			verbs: vt(vInstall, "require r install i update u upgrade remove rm uninstall reinstall global create-project bump", vRun,
				"run-script run exec test", vPublish, "login", vKnown, "show info search outdated why depends why-not prohibits validate "+
					"diagnose licenses audit check-platform-reqs suggests fund list help about status -V --version -h --help", vWrite,
				"config init dump-autoload dumpautoload archive self-update"),
			bare: vKnown, other: vRun},
		"brew": {verbs: vt(vInstall, "install reinstall upgrade update tap untap uninstall remove rm link unlink cleanup "+
			"autoremove pin unpin bundle fetch", vRun, "services sh irb ruby", vKnown, "list ls info search outdated deps uses "+
			"leaves doctor config --prefix --cellar --repository --cache home desc log cat commands --version -v "+
			"shellenv tap-info missing analytics help -h --help --env formulae casks"),
			bare: vKnown, other: vInstall},
		"apt": {short: "otc", long: []string{"option", "target-release", "config-file"},
			verbs: vt(vInstall, "install reinstall remove purge autoremove autopurge upgrade full-upgrade dist-upgrade update "+
				"build-dep source download satisfy markauto unmarkauto edit-sources", vKnown,
				"list search show showsrc policy depends rdepends changelog moo help check clean autoclean "+
					"-v --version -h --help showpkg"),
			bare: vKnown, other: vInstall},
		"dnf": {short: "cx", long: []string{"config", "exclude", "repo", "enablerepo", "disablerepo", "installroot",
			"releasever", "setopt", "downloaddir", "destdir"},
			verbs: vt(vInstall, "install in reinstall upgrade update up downgrade remove rm erase autoremove groupinstall "+
				"group groups localinstall distro-sync dsync makecache swap builddep module copr config-manager "+
				"debuginfo-install upgrade-minimal download shell mark", vKnown, "list info search se provides "+
				"whatprovides repolist repoquery rq history check-update check deplist help --version -h --help repoinfo"),
			bare: vKnown, other: vInstall},
		"apk": {short: "pX", long: []string{"root", "repository", "keys-dir", "repositories-file", "arch", "virtual", "cache-dir"},
			verbs: vt(vInstall, "add del upgrade update fix fetch cache", vKnown, "info search list policy stats version "+
				"dot audit verify manifest help --version -V -h --help"),
			bare: vKnown, other: vInstall},
		"zypper": {short: "r", long: []string{"repo", "root", "from", "type"},
			verbs: vt(vInstall, "install in update up dist-upgrade dup patch remove rm refresh ref addrepo ar "+
				"removerepo rr source-install si modifyrepo mr addlock al verify ve", vKnown, "search se info if "+
				"list-updates lu packages pa repos lr patches products pd help -V --version -h --help what-provides wp"),
			bare: vKnown, other: vInstall},
		"snap": {verbs: vt(vInstall, "install refresh remove revert try download ack disable enable set unset restart start "+
			"stop alias unalias connect disconnect prefer", vRun, "run", vKnown, "list info find version changes change "+
			"connections services logs get warnings okay known model help interfaces aliases --version -h --help"),
			bare: vKnown, other: vInstall},
		"flatpak": {verbs: vt(vInstall, "install update upgrade uninstall remove remote-add remote-modify remote-delete "+
			"repair override mask pin", vRun, "run enter", vKnown, "list info search remotes remote-ls remote-info "+
			"history ps documents permissions --version -h --help config"),
			bare: vKnown, other: vInstall},
		"port": {verbs: vt(vInstall, "install upgrade selfupdate sync uninstall clean activate deactivate", vKnown,
			"list search info installed contents deps variants outdated provides echo help version"),
			bare: vKnown, other: vInstall},
		"rustup": {verbs: vt(vInstall, "install update toolchain default component target self override uninstall set "+
			"check", vRun, "run", vKnown, "show which doc man completions help --version -V -h --help"),
			bare: vKnown, other: vInstall},
		"cpanm": {short: "l", long: []string{"local-lib", "mirror"}, verbs: vt(vKnown, "--version -V -h --help --info"),
			bare: vKnown, other: vInstall},
		"cpan": {verbs: vt(vKnown, "-v -h -l -a -D -O"), bare: vRun, other: vInstall},
		"volta": {verbs: vt(vInstall, "install fetch pin uninstall setup", vRun, "run", vKnown, "list which help --version -h --help"),
			bare: vKnown, other: vInstall},
		"corepack": {verbs: vt(vInstall, "enable disable prepare install use up pack", vKnown, "--version -h --help"),
			bare: vKnown, other: vFetchRun},
		"choco":       {verbs: vt(vKnown, "list search find info outdated help -v --version -h --help"), bare: vKnown, other: vInstall},
		"winget":      {verbs: vt(vKnown, "list search show source hash help -v --version -h --help"), bare: vKnown, other: vInstall},
		"scoop":       {verbs: vt(vKnown, "list search info status which home cat help --version"), bare: vKnown, other: vInstall},
		"nix-channel": {verbs: vt(vKnown, "--list -h --help --version"), bare: vKnown, other: vInstall},
		"nix-build":   {bare: vInstall, other: vInstall},
	}
})

// pkgAliases are names that share another manager's command line.
var pkgAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{"pip3": "pip", "mamba": "conda", "micromamba": "conda", "apt-get": "apt",
		"aptitude": "apt", "yum": "dnf", "microdnf": "dnf", "tdnf": "dnf"}
})

// after returns the arguments after the first static word equal to w:
// what a verb such as exec or run is given, options included.
func after(args []field, w string) []field {
	for i, f := range args {
		if !f.dyn && f.s == w {
			return args[i+1:]
		}
	}
	return nil
}

// pkgName records package names as facets; a dynamic one is recorded as
// written, which no rule naming a package matches. A package given as a
// URL adds its host.
func (a *analyzer) pkgName(fs ...field) {
	for _, f := range fs {
		if f.s == "" || (!f.dyn && strings.HasPrefix(f.s, "-")) {
			continue
		}
		if !contains(a.pkgs, f.s) {
			a.pkgs = append(a.pkgs, f.s)
		}
		if !f.dyn && strings.Contains(f.s, "://") {
			// pip install git+https://…, npm install https://…/x.tgz.
			_, u, _ := strings.Cut(f.s, "+")
			if !strings.Contains(u, "://") {
				u = f.s
			}
			if i := strings.Index(u, "://"); i >= 0 {
				u = u[strings.LastIndexAny(u[:i], "@ ")+1:]
			}
			a.host(hostOf(u, false))
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// registry records the host of an index or registry URL.
func (a *analyzer) registry(opts []opt, names ...string) {
	for _, f := range optVals(opts, names...) {
		if !f.dyn {
			a.host(hostOf(f.s, false))
		}
	}
}

// pkg handles package managers by their table.
func (a *analyzer) pkg(e *env, name string, args []field) (bool, bool) {
	if n, ok := pkgAliases()[name]; ok {
		name = n
	}
	m, ok := managers()[name]
	if !ok {
		a.class(action.PackageInstall)
		return false, true
	}
	opts, ops := scan(args, m.short, m.long, false)
	a.registry(opts, "--registry", "-i", "--index-url", "--extra-index-url", "--index", "--default-index", "-f", "--find-links")
	if name == "pip" {
		for _, f := range optVals(opts, "-r", "--requirement", "-c", "--constraint") {
			a.path(e, f, action.Read)
		}
	}
	if name == "conda" {
		for _, f := range optVals(opts, "--file") {
			a.path(e, f, action.Read)
		}
	}
	if len(ops) > 0 && ops[0].dyn {
		a.unresolved(name + " with a subcommand that is not static")
		a.class(action.PackageInstall)
		return false, false
	}
	kind, verbName := m.bare, ""
	var rest []field
	if len(ops) > 0 {
		verbName, rest = ops[0].s, ops[1:]
		k, ok := m.verbs[verbName]
		if !ok {
			k = m.other
		}
		kind = k
	} else {
		// A verb may be given as an option: apt --version, pacman -S.
		for _, o := range opts {
			if k, ok := m.verbs[o.name]; ok {
				kind = k
			}
		}
	}
	switch name {
	case "npm", "pnpm":
		if verbName == "config" || verbName == "c" {
			if len(rest) > 0 && !rest[0].dyn && (rest[0].s == "set" || rest[0].s == "delete" || rest[0].s == "edit" || rest[0].s == "fix") {
				a.npmrc(e, opts)
				return false, true
			}
		}
		if verbName == "set" {
			a.npmrc(e, opts)
			return false, true
		}
		if verbName == "version" && len(rest) > 0 {
			kind = vRun // bumps the version and runs the version scripts
		}
		if verbName == "init" && (len(rest) == 0 || name == "pnpm") {
			return false, true // writes package.json
		}
		if name == "npm" && (verbName == "exec" || verbName == "x") {
			return a.fetchRun(e, after(args, verbName), "pcw", npxPkg...)
		}
		if name == "pnpm" && verbName == "dlx" {
			return a.fetchRun(e, after(args, verbName), "c", npxPkg...)
		}
		if verbName == "audit" && hasAny(rest, "fix") {
			kind = vInstall
		}
		if verbName == "cache" && hasAny(rest, "add") {
			kind = vInstall
		}
	case "yarn":
		switch verbName {
		case "dlx":
			return a.fetchRun(e, after(args, verbName), "p", npxPkg...)
		case "workspace":
			if r := after(args, verbName); len(r) > 1 {
				return a.pkg(e, name, r[1:])
			}
		case "global":
			if len(rest) > 0 {
				a.class(action.PackageInstall)
				a.pkgName(rest[1:]...)
				return false, true
			}
		case "config":
			if hasAny(rest, "set", "unset", "delete") {
				kind = vWrite
			}
		case "set":
			kind = vInstall // yarn set version downloads yarn
		case "npm":
			if !hasAny(rest, "publish", "login", "logout", "tag") {
				kind = vKnown
			}
		}
	case "bun":
		if verbName == "x" {
			return a.fetchRun(e, after(args, verbName), "p", npxPkg...)
		}
		if kind == vRun {
			return a.interp(e, "bun", "bun", args)
		}
	case "pipx":
		if verbName == "run" {
			return a.fetchRun(e, after(args, verbName), "", "--spec")
		}
	case "gem":
		if verbName == "exec" {
			return a.fetchRun(e, after(args, verbName), "gv", "-g", "--gem")
		}
	case "poetry", "pdm":
		if verbName == "run" {
			_, cmd := scan(after(args, verbName), "", nil, true)
			if len(cmd) == 0 {
				return false, true
			}
			return false, a.inner(e, cmd, nil, false)
		}
		if verbName == "self" || verbName == "source" {
			if !hasAny(rest, "add", "install", "update", "lock", "sync", "remove") {
				kind = vKnown
			}
		}
	case "conda", "mamba", "micromamba":
		if verbName == "run" {
			_, cmd := scan(after(args, verbName), "np", []string{"name", "prefix", "cwd"}, true)
			if len(cmd) == 0 {
				return false, true
			}
			return false, a.inner(e, cmd, nil, false)
		}
		if verbName == "env" && !hasAny(rest, "create", "update", "remove") {
			kind = vKnown
		}
	case "pip":
		if verbName == "config" && hasAny(rest, "set", "unset", "edit") {
			kind = vWrite
		}
		for _, f := range optVals(opts, "-e", "--editable") {
			a.pkgName(f)
		}
	case "composer":
		if verbName == "global" && len(rest) > 0 {
			return a.pkg(e, name, after(args, verbName))
		}
		if verbName == "create-project" {
			a.flag(action.FlagRunsCode) // its scripts run
		}
	case "brew":
		if verbName == "services" && hasAny(rest, "list", "info") {
			kind = vKnown
		}
	case "corepack":
		if kind == vFetchRun {
			// corepack pnpm …: fetches the manager and runs it.
			a.class(action.PackageInstall)
			a.flag(action.FlagRunsCode)
			a.pkgName(ops[0])
			if mm := strings.SplitN(verbName, "@", 2)[0]; mm == "npm" || mm == "pnpm" || mm == "yarn" {
				return a.pkg(e, mm, after(args, verbName))
			}
			return false, true
		}
	case "cpanm":
		a.pkgName(ops...)
	case "rustup":
		if r := after(args, verbName); verbName == "run" && len(r) > 1 {
			return false, a.inner(e, r[1:], nil, false)
		}
	}
	switch kind {
	case vInstall:
		a.class(action.PackageInstall)
		a.pkgName(rest...)
	case vFetchRun:
		return a.fetchRun(e, rest, "p", npxPkg...)
	case vCreate:
		if len(rest) == 0 || rest[0].dyn || strings.HasPrefix(rest[0].s, "-") {
			if len(rest) > 0 && rest[0].dyn {
				a.class(action.PackageInstall)
				a.flag(action.FlagRunsCode)
				a.pkgName(rest[0])
			}
			return false, true
		}
		a.class(action.PackageInstall)
		a.flag(action.FlagRunsCode)
		a.pkgName(field{s: createPkg(rest[0].s)})
	case vRun:
		a.flag(action.FlagRunsCode)
	case vPublish:
		a.class(action.NetworkEgress)
	case vWrite:
		return false, true
	case vKnown:
		return false, true
	}
	return false, true
}

// createPkg names the package npm init NAME runs: create-NAME, or for a
// scope @s/create, @s/create-NAME.
func createPkg(s string) string {
	if strings.HasPrefix(s, "@") {
		scope, n, ok := strings.Cut(s, "/")
		if !ok {
			return scope + "/create"
		}
		return scope + "/create-" + n
	}
	if strings.Contains(s, "/") || strings.Contains(s, ":") {
		return s // a git repository or a path
	}
	name, ver, _ := strings.Cut(s, "@")
	if ver != "" {
		return "create-" + name + "@" + ver
	}
	return "create-" + name
}

// npmrc records what npm config set writes: the user's ~/.npmrc, or with
// --location=project the project's, --global the global npmrc.
func (a *analyzer) npmrc(e *env, opts []opt) {
	for _, f := range optVals(opts, "--userconfig") {
		a.path(e, f, action.Write)
		return
	}
	loc := ""
	for _, f := range optVals(opts, "--location") {
		loc = f.s
	}
	switch {
	case loc == "project":
		a.pathStr(e, ".npmrc", action.Write, false)
	case loc == "global" || hasOpt(opts, "-g", "--global"):
		a.pathStr(e, "/usr/local/etc/npmrc", action.Write, false)
	case a.home() != "":
		a.pathStr(e, a.home()+"/.npmrc", action.Write, false)
	default:
		a.unresolved("npm config set writes ~/.npmrc and the home is not known")
	}
}

// fetchRun handles a command that fetches a package and runs it: npx,
// bunx, pnpm dlx, yarn dlx, npm exec, uvx, pipx run, gem exec. Options
// end at the first operand, the package, or the command when an option
// (pkgOpts: -p, --package, --from, --spec) names the packages; -c and
// --call run a command line, analysed as one.
func (a *analyzer) fetchRun(e *env, args []field, short string, pkgOpts ...string) (bool, bool) {
	a.class(action.PackageInstall)
	a.flag(action.FlagRunsCode)
	long := []string{"package", "call", "registry", "cache", "userconfig", "prefix", "from", "with", "with-requirements",
		"with-editable", "python", "index", "index-url", "extra-index-url", "default-index", "spec", "workspace",
		"node-options", "shell", "pip-args", "gem", "version", "constraints", "overrides", "build-constraints"}
	opts, ops := scan(args, short, long, true)
	a.registry(opts, "--registry", "--index", "--index-url", "--extra-index-url", "--default-index")
	named := optVals(opts, pkgOpts...)
	a.pkgName(named...)
	a.pkgName(optVals(opts, "--with", "--with-editable")...)
	if calls := optVals(opts, "-c", "--call"); len(calls) > 0 && slices.Contains(pkgOpts, "--package") {
		for _, c := range calls {
			a.shellString(e, []field{c})
		}
		return false, true
	}
	if len(ops) > 0 && len(named) == 0 {
		a.pkgName(ops[0])
		if ops[0].dyn {
			a.unresolved("the package to fetch and run is not static: " + ops[0].s)
		}
	}
	return false, true
}

// npxPkg are the options of the JavaScript runners that name packages.
var npxPkg = []string{"-p", "--package"}

func packagePrograms() map[string]handler {
	m := map[string]handler{}
	for _, n := range managerNames {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) { return a.pkg(e, c.name, c.args) }
	}
	for n := range pkgAliases() {
		m[n] = func(a *analyzer, e *env, c call) (bool, bool) { return a.pkg(e, c.name, c.args) }
	}
	m["cargo"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.cargo(e, c.args) }
	// Queries of the installed and available packages: their operands
	// are package names, not commands.
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return false, true }, "apt-cache", "dpkg-query", "apt-file")
	m["bun"] = func(a *analyzer, e *env, c call) (bool, bool) {
		b := managers()["bun"]
		_, ops := scan(c.args, b.short, b.long, true)
		if len(ops) > 0 && ops[0].dyn {
			a.unresolved("bun with a subcommand that is not static")
			return false, false
		}
		if len(ops) > 0 {
			if k, ok := b.verbs[ops[0].s]; ok && k != vRun && k != vKnown {
				return a.pkg(e, "bun", c.args)
			}
			switch ops[0].s {
			case "pm", "outdated", "info", "audit":
				return false, true
			case "exec":
				// bun exec "CMD": Bun's shell runs a command line.
				if len(ops) > 1 {
					a.shellString(e, ops[1:2])
				}
				return false, true
			case "run":
				// bun run FILE runs a file, bun run NAME a script.
				if r := after(c.args, "run"); len(r) > 0 && (r[0].dyn || strings.ContainsAny(r[0].s, "./") || strings.HasPrefix(r[0].s, "-")) {
					return a.interp(e, "bun", "bun", r)
				}
				a.flag(action.FlagRunsCode)
				return false, true
			case "test", "build", "repl", "init", "upgrade", "dev", "start":
				a.flag(action.FlagRunsCode)
				if ops[0].s == "upgrade" {
					a.class(action.PackageInstall)
				}
				return false, true
			}
		}
		return a.interp(e, "bun", "bun", c.args)
	}
	m["deno"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.deno(e, c.args) }
	m["uv"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.uv(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) { return a.pacman(e, c.name, c.args) }, "pacman", "yay", "paru")
	m["nix-env"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.nixEnv(e, c.args) }
	m["nix"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.nix(e, c.args) }
	claim(m, func(a *analyzer, e *env, c call) (bool, bool) {
		return a.fetchRun(e, c.args, "pcw", npxPkg...)
	}, "npx", "pnpx", "bunx")
	m["uvx"] = func(a *analyzer, e *env, c call) (bool, bool) { return a.fetchRun(e, c.args, "pw", "--from") }
	return m
}
