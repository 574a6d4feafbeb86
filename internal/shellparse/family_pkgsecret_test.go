// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package shellparse_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/shellparse"
)

// The families of package managers, of fetching a package and running
// it, of test runners, and of secrets: read through an operand of any
// program, through a variable, or from a secret store.
func init() {
	install := want{classes: []action.Class{action.PackageInstall}}
	egress := want{classes: []action.Class{action.NetworkEgress}}
	allFamilies["package managers"] = []member{
		{cmd: "npm install left-pad", want: install},
		{cmd: "npm i -D eslint", want: install},
		{cmd: "npm add left-pad", want: install},
		{cmd: "npm ci", want: install},
		{cmd: "npm --prefix sub install left-pad", want: install},
		{cmd: "pnpm install", want: install},
		{cmd: "pnpm add left-pad", want: install},
		{cmd: "pnpm i left-pad", want: install},
		{cmd: "yarn", want: install},
		{cmd: "yarn add left-pad", want: install},
		{cmd: "yarn install --frozen-lockfile", want: install},
		{cmd: "yarn global add left-pad", want: install},
		{cmd: "bun add left-pad", want: install},
		{cmd: "bun install", want: install},
		{cmd: "bun i left-pad", want: install},
		{cmd: "bun --cwd sub add left-pad", want: install},
		{cmd: "pip install requests", want: install},
		{cmd: "pip3 install -r requirements.txt", want: install},
		{cmd: "pip3.12 install requests", want: install},
		{cmd: "python -m pip install requests", want: install},
		{cmd: "python3 -m pip install --user requests", want: install},
		{cmd: "uv pip install requests", want: install},
		{cmd: "uv add httpx", want: install},
		{cmd: "uv tool install ruff", want: install},
		{cmd: "uv sync", want: install},
		{cmd: "pipx install black", want: install},
		{cmd: "poetry add requests", want: install},
		{cmd: "poetry install", want: install},
		{cmd: "conda install -c conda-forge numpy", want: install},
		{cmd: "mamba install numpy", want: install},
		{cmd: "conda create -n env python=3.12", want: install},
		{cmd: "gem install rails", want: install},
		{cmd: "cargo add serde", want: install},
		{cmd: "cargo install ripgrep", want: install},
		{cmd: "go get golang.org/x/tools", want: install},
		{cmd: "go install golang.org/x/tools/gopls@latest", want: install},
		{cmd: "go mod download", want: install},
		{cmd: "composer require monolog/monolog", want: install},
		{cmd: "composer install", want: install},
		{cmd: "deno install", want: install},
		{cmd: "deno add npm:chalk", want: install},
		{cmd: "brew install jq", want: install},
		{cmd: "brew upgrade", want: install},
		{cmd: "apt install curl", want: install},
		{cmd: "apt-get install -y curl", want: install},
		{cmd: "apt-get -y -o Dpkg::Options::=--force-confnew install curl", want: install},
		{cmd: "dnf install -y git", want: install},
		{cmd: "yum install git", want: install},
		{cmd: "apk add curl", want: install},
		{cmd: "apk --no-cache add curl", want: install},
		{cmd: "pacman -S git", want: install},
		{cmd: "pacman -Syu", want: install},
		{cmd: "pacman -U pkg.tar.zst", want: install},
		{cmd: "zypper install git", want: install},
		{cmd: "zypper in git", want: install},
		{cmd: "snap install code --classic", want: install},
		{cmd: "flatpak install flathub org.gimp.GIMP", want: install},
		{cmd: "nix-env -iA nixpkgs.hello", want: install},
		{cmd: "nix-env -i hello", want: install},
		{cmd: "nix profile install nixpkgs#hello", want: install},
		{cmd: "rustup toolchain install nightly", want: install},
		{cmd: "pip install git+https://git.example/u/r", want: want{classes: []action.Class{action.PackageInstall}, hosts: []string{"git.example"}}},
		{cmd: "pip install name@git+https://git.example/u/r", want: want{classes: []action.Class{action.PackageInstall}, hosts: []string{"git.example"}}},
		{cmd: "npm install https://r.example/x.tgz", want: want{classes: []action.Class{action.PackageInstall}, hosts: []string{"r.example"}}},
		{cmd: "pip install -i https://pypi.example/simple x", want: want{classes: []action.Class{action.PackageInstall}, hosts: []string{"pypi.example"}}},
		{cmd: "npm install --registry=https://r.example/ x", want: want{classes: []action.Class{action.PackageInstall}, hosts: []string{"r.example"}}},
		{cmd: "cpanm Moose", want: install},
		// Publishing and downloading reach the network.
		{cmd: "npm publish", want: egress},
		{cmd: "cargo publish", want: egress},
		{cmd: "gem push x.gem", want: egress},
		{cmd: "poetry publish", want: egress},
		{cmd: "uv publish", want: egress},
		{cmd: "pip download requests", want: egress},
		{cmd: "yarn npm publish", want: egress},
		{cmd: "deno publish", want: egress},
		// Configuration written outside the project.
		{cmd: "npm config set registry https://r.example/", want: want{paths: []shellparse.Path{{Path: "/home/u/.npmrc", Access: action.Write}}, prompt: true}},
		{cmd: "npm set //r.example/:_authToken=x", want: want{paths: []shellparse.Path{{Path: "/home/u/.npmrc", Access: action.Write}}, prompt: true}},
		{cmd: "go env -w GOFLAGS=-toolexec=x", want: want{paths: []shellparse.Path{{Path: "/home/u/.config/go/env", Access: action.Write}}, prompt: true}},
		// A command run in the environment of a manager is analysed.
		{cmd: "poetry run git push", want: want{classes: []action.Class{action.GitPush}}},
		{cmd: "conda run -n env git push", want: want{classes: []action.Class{action.GitPush}}},
		{cmd: "uv run git push", want: want{classes: []action.Class{action.GitPush}}},
		{cmd: "pnpm dlx -c 'git push' x", want: want{classes: []action.Class{action.GitPush}}},
	}
	// The package each one fetches is checked by TestPackages.
	fetchRun := func(string) want {
		return want{classes: []action.Class{action.PackageInstall}, flags: []action.Flag{action.FlagRunsCode}}
	}
	allFamilies["fetch and run packages"] = []member{
		{cmd: "npx prettier --write .", want: fetchRun("prettier")},
		{cmd: "npx -y cowsay hi", want: fetchRun("cowsay")},
		{cmd: "npx --package=cowsay -- cowsay hi", want: fetchRun("cowsay")},
		{cmd: "pnpx cowsay", want: fetchRun("cowsay")},
		{cmd: "bunx cowsay", want: fetchRun("cowsay")},
		{cmd: "pnpm dlx cowsay", want: fetchRun("cowsay")},
		{cmd: "yarn dlx cowsay", want: fetchRun("cowsay")},
		{cmd: "npm exec cowsay", want: fetchRun("cowsay")},
		{cmd: "npm x -- cowsay", want: fetchRun("cowsay")},
		{cmd: "npm init vite@latest app", want: fetchRun("create-vite@latest")},
		{cmd: "npm create vite", want: fetchRun("create-vite")},
		{cmd: "yarn create react-app x", want: fetchRun("create-react-app")},
		{cmd: "bun x cowsay", want: fetchRun("cowsay")},
		{cmd: "bun create vite", want: fetchRun("create-vite")},
		{cmd: "uvx ruff check", want: fetchRun("ruff")},
		{cmd: "uvx --from httpie http", want: fetchRun("httpie")},
		{cmd: "uv tool run ruff", want: fetchRun("ruff")},
		{cmd: "pipx run cowsay", want: fetchRun("cowsay")},
		{cmd: "gem exec rails new app", want: fetchRun("rails")},
		{cmd: "go run golang.org/x/tools/cmd/stringer@latest", want: fetchRun("golang.org/x/tools/cmd/stringer@latest")},
		{cmd: "deno run https://x.example/y.ts", want: fetchRun("https://x.example/y.ts")},
		{cmd: "deno run -A npm:cowsay", want: fetchRun("npm:cowsay")},
		{cmd: "deno run jsr:@std/http/file-server", want: fetchRun("jsr:@std/http/file-server")},
		{cmd: "deno https://x.example/y.ts", want: fetchRun("https://x.example/y.ts")},
		{cmd: "nix run nixpkgs#cowsay", want: fetchRun("nixpkgs#cowsay")},
		{cmd: "corepack pnpm install", want: fetchRun("pnpm")},
	}
	runs := want{flags: []action.Flag{action.FlagRunsCode}}
	var tr []member
	for _, c := range testRunners {
		tr = append(tr, member{cmd: c, want: runs})
	}
	allFamilies["test runners"] = tr
	read := func(p string) want {
		return want{classes: []action.Class{action.SecretAccess}, paths: []shellparse.Path{{Path: p, Access: action.Read}}}
	}
	allFamilies["secret operands"] = []member{
		{cmd: "openssl enc -aes256 -in .env -out x", want: read("/work/p/.env")},
		{cmd: "gpg -c .env", want: read("/work/p/.env")},
		{cmd: "vim -es '+%p' .env", want: read("/work/p/.env")},
		{cmd: "perl -ne print .env", want: read("/work/p/.env")},
		{cmd: "mytool --config=~/.aws/credentials", want: read("/home/u/.aws/credentials")},
		{cmd: "mytool --config=/home/u/.aws/credentials", want: read("/home/u/.aws/credentials")},
		{cmd: "mytool -i/home/u/.ssh/id_rsa", want: read("/home/u/.ssh/id_rsa")},
		{cmd: "mytool key=/home/u/.netrc", want: read("/home/u/.netrc")},
		{cmd: "mytool @.env", want: read("/work/p/.env")},
		{cmd: "mytool ~/.kube/config", want: read("/home/u/.kube/config")},
		{cmd: "mytool --creds=~/.codex/auth.json", want: read("/home/u/.codex/auth.json")},
		{cmd: "mytool --token-file ~/.claude/.credentials.json", want: read("/home/u/.claude/.credentials.json")},
		{cmd: "mytool ~/.config/git/credentials", want: read("/home/u/.config/git/credentials")},
		{cmd: "xxd ~/.ssh/id_ed25519", want: read("/home/u/.ssh/id_ed25519")},
		{cmd: "docker run --env-file .env.local img", want: read("/work/p/.env.local")},
		{cmd: "node app.js ~/.docker/config.json", want: read("/home/u/.docker/config.json")},
		{cmd: "make CREDS=/home/u/.git-credentials", want: read("/home/u/.git-credentials")},
		{cmd: "cat ~/.ssh/*", want: read("/home/u/.ssh/*")},
		{cmd: "cat ~/.ssh/id_*", want: read("/home/u/.ssh/id_*")},
		{cmd: "cp ~/.aws/* .", want: read("/home/u/.aws/*")},
		{cmd: "cat ~/.ss?/*", want: read("/home/u/.ss?/*")},
		{cmd: "cat id_*", want: read("/work/p/id_*")},
		{cmd: "cat .env*", want: read("/work/p/.env*")},
		{cmd: "tar czf x.tgz ~/.aws/*", want: read("/home/u/.aws/*")},
		{cmd: "base64 ~/.*/id_rsa", want: read("/home/u/.*/id_rsa")},
		{cmd: "mytool ~/.m2/settings.xml", want: read("/home/u/.m2/settings.xml")},
		{cmd: "mytool ~/.cargo/credentials.toml", want: read("/home/u/.cargo/credentials.toml")},
		{cmd: "mytool ~/.psql_history", want: read("/home/u/.psql_history")},
	}
	secret := want{classes: []action.Class{action.SecretAccess}}
	allFamilies["secret variables"] = []member{
		{cmd: "echo $GITHUB_TOKEN", want: secret},
		{cmd: "echo ${AWS_SECRET_ACCESS_KEY}", want: secret},
		{cmd: `echo "$NPM_TOKEN"`, want: secret},
		{cmd: "printf %s $OPENAI_API_KEY", want: secret},
		{cmd: "echo $DB_PASSWORD", want: secret},
		{cmd: "echo $STRIPE_SECRET", want: secret},
		{cmd: "echo $CLIENT_SECRET_ID", want: secret},
		{cmd: "echo $SIGNING_KEY", want: secret},
		{cmd: "echo $AWS_ACCESS_KEY_ID", want: secret},
		{cmd: "echo ${GH_TOKEN:-none}", want: secret},
		{cmd: "echo ${X:-$GITHUB_TOKEN}", want: secret},
		{cmd: "echo ${GITHUB_TOKEN#ghp_}", want: secret},
		{cmd: `curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.example.com/`, want: want{classes: []action.Class{action.SecretAccess, action.NetworkEgress}}},
		{cmd: "curl -u user:$API_PASSWORD https://x.example/", want: secret},
		{cmd: "mytool --token=$SLACK_BOT_TOKEN", want: secret},
		{cmd: "n=GITHUB_TOKEN; echo ${!n}", want: secret, plain: true},
	}
	allFamilies["secret stores"] = []member{
		{cmd: "op read op://vault/item/password", want: secret},
		{cmd: "op item get github --fields password", want: secret},
		{cmd: "op inject -i tpl.env -o out.env", want: secret},
		{cmd: "op run -- printenv", want: secret},
		{cmd: "op run --env-file=app.env -- git push", want: want{classes: []action.Class{action.SecretAccess, action.GitPush}}},
		{cmd: "vault read secret/x", want: secret},
		{cmd: "vault kv get secret/x", want: secret},
		{cmd: "vault token create", want: secret},
		{cmd: "secret-tool lookup service x", want: secret},
		{cmd: "pass show github", want: secret},
		{cmd: "pass github", want: secret},
		{cmd: "pass -c github", want: secret},
		{cmd: "gopass show github", want: secret},
		{cmd: "security find-generic-password -w -s x", want: secret},
		{cmd: "security find-internet-password -g -s x", want: secret},
		{cmd: "keyctl print 123", want: secret},
		{cmd: "keyctl pipe 123", want: secret},
		{cmd: "gpg -d secret.gpg", want: secret},
		{cmd: "gpg --decrypt secret.gpg", want: secret},
		{cmd: "gpg --batch -o out secret.gpg", want: secret},
		{cmd: "gpg --export-secret-keys alice", want: secret},
		{cmd: "gpg2 -d secret.gpg", want: secret},
		{cmd: "age -d -i key.txt secret.age", want: secret},
		{cmd: "age --decrypt -i key.txt secret.age", want: secret},
		{cmd: "sops -d secrets.yaml", want: secret},
		{cmd: "sops --decrypt secrets.yaml", want: secret},
		{cmd: "sops decrypt secrets.yaml", want: secret},
		{cmd: "sops secrets.yaml", want: secret},
		{cmd: "sops exec-env secrets.yaml 'git push'", want: want{classes: []action.Class{action.SecretAccess, action.GitPush}}},
		{cmd: "bw get password github", want: secret},
		{cmd: "bw list items", want: secret},
		{cmd: "lpass show github", want: secret},
		{cmd: "doppler secrets get API_KEY", want: secret},
		{cmd: "doppler run -- printenv", want: secret},
		{cmd: "ssh-keygen -y -f ~/.ssh/id_rsa", want: want{classes: []action.Class{action.SecretAccess}, paths: []shellparse.Path{{Path: "/home/u/.ssh/id_rsa", Access: action.Read}}}},
		{cmd: "ssh-add", want: secret},
		{cmd: "ssh-add ~/.ssh/id_ed25519", want: secret},
		// Writes into the sensitive set.
		{cmd: "ssh-keygen -f ~/.ssh/id_ed25519", want: want{paths: []shellparse.Path{{Path: "/home/u/.ssh/id_ed25519", Access: action.Write}}, prompt: true}},
		{cmd: "ssh-keygen -t ed25519 -N '' -f /home/u/.ssh/id_ed25519", want: want{paths: []shellparse.Path{{Path: "/home/u/.ssh/id_ed25519", Access: action.Write}}, prompt: true}},
		{cmd: "ssh-keygen -t rsa", want: want{paths: []shellparse.Path{{Path: "/home/u/.ssh/id_rsa", Access: action.Write}}, prompt: true}},
		{cmd: "ssh-keygen -R host.example", want: want{paths: []shellparse.Path{{Path: "/home/u/.ssh/known_hosts", Access: action.Write}}, prompt: true}},
		{cmd: "gpg --import key.asc", want: want{paths: []shellparse.Path{{Path: "/home/u/.gnupg", Access: action.Write}}, prompt: true}},
		{cmd: "gpg --recv-keys ABCD", want: want{classes: []action.Class{action.NetworkEgress}, paths: []shellparse.Path{{Path: "/home/u/.gnupg", Access: action.Write}}}},
		{cmd: "gpg --homedir /tmp/g --import key.asc", want: want{paths: []shellparse.Path{{Path: "/tmp/g", Access: action.Write}}, prompt: true}},
	}
}

// testRunners run the project's code, whatever the ecosystem.
var testRunners = []string{
	"go test ./...", "go test -run TestX ./internal/...", "go generate ./...", "go run .", "go tool cover",
	"npm test", "npm t", "npm run build", "npm run-script lint", "npm start", "yarn test", "yarn build", "yarn run lint",
	"pnpm test", "pnpm run build", "pnpm lint", "bun test", "bun run build", "bun run script.ts", "deno test", "deno task build",
	"pytest", "pytest -x tests/", "py.test", "python -m pytest", "tox", "nox",
	"cargo test", "cargo build", "cargo run", "cargo bench", "cargo check", "cargo clippy", "cargo +nightly test",
	"cargo nextest run", "make", "make test", "gmake all", "gradle build", "./gradlew test", "gradlew build", "mvn test",
	"./mvnw package", "bundle exec rspec", "rspec", "rake test", "composer test", "composer run-script test",
	"poetry run pytest", "uv run pytest", "jest", "vitest run", "phpunit", "dotnet test", "swift test", "mix test",
	"sbt test", "meson test", "ninja", "just test",
}

// TestTestRunners: each test runner and build script runs code and is not
// read-only, consistently.
func TestTestRunners(t *testing.T) {
	for _, c := range testRunners {
		an := shellparse.Analyze(c, corpusOpts)
		if !an.HasFlag(action.FlagRunsCode) || an.ReadOnly {
			t.Errorf("Analyze(%q): runs_code %v, read-only %v; want runs_code and not read-only\n%s",
				c, an.HasFlag(action.FlagRunsCode), an.ReadOnly, describe(an))
		}
	}
	// go build and go vet run no code of the project unless a flag
	// names a program.
	for c, runs := range map[string]bool{
		"go build ./...": false, "go vet ./...": false, "go build -toolexec=/tmp/x ./...": true,
		"go vet -vettool=/tmp/x ./...": true, "go test -exec=/tmp/x ./...": true,
	} {
		an := shellparse.Analyze(c, corpusOpts)
		if an.HasFlag(action.FlagRunsCode) != runs {
			t.Errorf("Analyze(%q): runs_code %v, want %v", c, an.HasFlag(action.FlagRunsCode), runs)
		}
	}
	if an := shellparse.Analyze("go vet ./...", corpusOpts); !an.ReadOnly {
		t.Errorf("go vet: not read-only\n%s", describe(an))
	}
	if an := shellparse.Analyze("go build ./...", corpusOpts); an.ReadOnly {
		t.Errorf("go build: read-only\n%s", describe(an))
	}
}

// TestPackages checks the package names reported as facets.
func TestPackages(t *testing.T) {
	for cmd, want := range map[string][]string{
		"npm install left-pad lodash@4":                  {"left-pad", "lodash@4"},
		"npm i -D --save-exact eslint":                   {"eslint"},
		"npm --prefix sub install x":                     {"x"},
		"npm ci":                                         nil,
		"npx prettier --write .":                         {"prettier"},
		"npx -y prettier@3 --check .":                    {"prettier@3"},
		"npx -p cowsay -p lolcatjs -c 'cowsay hi'":       {"cowsay", "lolcatjs"},
		"npm exec --package=cowsay -- cowsay hi":         {"cowsay"},
		"npm exec -- prettier":                           {"prettier"},
		"npm init vite@latest":                           {"create-vite@latest"},
		"npm init @vue":                                  {"@vue/create"},
		"npm init @vue/app":                              {"@vue/create-app"},
		"pnpm dlx cowsay hi":                             {"cowsay"},
		"yarn dlx -p cowsay cowsay hi":                   {"cowsay"},
		"yarn add left-pad":                              {"left-pad"},
		"bun add left-pad":                               {"left-pad"},
		"bunx cowsay":                                    {"cowsay"},
		"pip install requests flask==3.0":                {"requests", "flask==3.0"},
		"pip install -r requirements.txt":                nil,
		"pip install -i https://pypi.example/simple x":   {"x"},
		"pip install -e .":                               {"."},
		"python3 -m pip install requests":                {"requests"},
		"uv pip install requests":                        {"requests"},
		"uv add httpx":                                   {"httpx"},
		"uvx ruff check":                                 {"ruff"},
		"uvx -p 3.12 ruff":                               {"ruff"},
		"uvx --from httpie http":                         {"httpie"},
		"uvx --with rich ruff":                           {"rich", "ruff"},
		"pipx run cowsay":                                {"cowsay"},
		"pipx run --spec cowsay==6 cowsay":               {"cowsay==6"},
		"poetry add requests":                            {"requests"},
		"conda install -n env -c conda-forge numpy":      {"numpy"},
		"gem install rails -v 7.1":                       {"rails"},
		"cargo add serde --features derive":              {"serde"},
		"cargo install --git https://g.example/u/r":      {"https://g.example/u/r"},
		"go get golang.org/x/tools@v0.1":                 {"golang.org/x/tools@v0.1"},
		"go run golang.org/x/tools/cmd/stringer@v0.1 -h": {"golang.org/x/tools/cmd/stringer@v0.1"},
		"go run .":                                       nil,
		"composer require monolog/monolog":               {"monolog/monolog"},
		"deno run -A npm:cowsay hi":                      {"npm:cowsay"},
		"brew install jq":                                {"jq"},
		"apt-get install -y curl":                        {"curl"},
		"sudo apt install -y curl git":                   {"curl", "git"},
		"pacman -S --needed git":                         {"git"},
		"nix profile install nixpkgs#hello":              {"nixpkgs#hello"},
		"npx $PKG":                                       {"$PKG"},
	} {
		an := shellparse.Analyze(cmd, corpusOpts)
		if diff := cmp.Diff(want, an.Packages); diff != "" {
			t.Errorf("Analyze(%q).Packages (-want +got):\n%s", cmd, diff)
		}
	}
}

// TestPkgSecretBenign: the common commands of the same programs stay
// allowed uncontained (read-only where they only read).
func TestPkgSecretBenign(t *testing.T) {
	for _, c := range []string{
		"npm ls", "npm --version", "npm view react version", "npm outdated", "pip list", "pip show requests",
		"pip freeze", "pip --version", "go version", "go env GOPATH", "go list ./...",
		"go vet ./...", "gofmt -l .", "cargo --version", "cargo tree", "cargo metadata", "brew list", "brew info jq",
		"apt list --installed", "apt-cache policy curl", "dnf list installed", "pacman -Q", "pacman -Ss git",
		"pacman -Qi git", "apk info", "snap list", "flatpak list", "nix-env -q", "gem list", "conda list",
		"pipx list", "poetry show", "yarn --version", "bun --version", "deno --version", "uv --version",
		"cat README.md", "echo $HOME", "echo $PATH", "echo $KEYBOARD", "echo $USER", "echo $PWD", "echo $TOKENIZERS_PARALLELISM",
		"echo ${#GITHUB_TOKEN}", "echo ${GITHUB_TOKEN:+set}", `[ -n "${NPM_TOKEN+x}" ]`, "echo $token",
		"for key in a b; do echo $key; done", "echo $PASSWORD_STORE_DIR", "grep .env .gitignore", "echo .env >> .gitignore",
		"find . -name .env", "ls -la", "cat *", "grep -r TODO src", "timeout 5 grep .env .gitignore",
		"nice -n 5 grep -r .env.local src", "env FOO=1 grep .env .gitignore", "gpg --list-keys",
		"gpg --verify x.sig x", "ssh-add -l", "ssh-keygen -l -f key.pub", "pass", "pass ls", "op whoami",
		"vault status", "mytool --config=config.yml", "git grep TOKEN",
	} {
		an := shellparse.Analyze(c, corpusOpts)
		if !uncontainedAllow(an) {
			t.Errorf("Analyze(%q): not allowed uncontained\n%s", c, describe(an))
		}
		if slices.Contains(an.Classes, action.SecretAccess) {
			t.Errorf("Analyze(%q): secretAccess\n%s", c, describe(an))
		}
	}
	// Not a secret read, though outside the project or named like one
	// (the stand-in judges names more coarsely than pathguard).
	for _, c := range []string{"cat ~/*", "ls ~/*", "cat .env.example", "cp .env.example .env.sample",
		"python3 -m pip --version"} {
		if an := shellparse.Analyze(c, corpusOpts); slices.Contains(an.Classes, action.SecretAccess) {
			t.Errorf("Analyze(%q): secretAccess\n%s", c, describe(an))
		}
	}
}
