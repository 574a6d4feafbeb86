// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package setup_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/setup"
)

// lint fails t unless src parses, compiles, loads as a policy in force
// and has no lint finding: a bad value in a written policy is impossible.
func lint(t *testing.T, name string, src []byte) {
	t.Helper()
	f, err := policyfile.Parse(name, src)
	if err != nil {
		t.Fatalf("parsing %s: %v", name, err)
	}
	if _, err := policy.Compile(f.Policy, policy.Options{}); err != nil {
		t.Fatalf("compiling %s: %v", name, err)
	}
	fds, err := policyfile.Lint(f, time.Now())
	if err != nil {
		t.Fatalf("linting %s: %v", name, err)
	}
	for _, fd := range fds {
		t.Errorf("%s: lint finding: %s", name, fd)
	}
	if _, err := config.Parse(name, src, config.Options{Home: t.TempDir()}); err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
}

func TestTemplateLints(t *testing.T) {
	lint(t, "policy.yaml", setup.Template)
}

// TestTemplateExamplesLint: the commented examples, uncommented, are a
// valid policy too, so a user who copies one gets no error.
func TestTemplateExamplesLint(t *testing.T) {
	var rules, network []string
	var in *[]string
	for _, line := range strings.Split(string(setup.Template), "\n") {
		body, ok := strings.CutPrefix(line, "#   ")
		if !ok {
			in = nil
			continue
		}
		switch {
		case strings.HasPrefix(body, "- id: "):
			if in == nil {
				in = &rules
			}
		case body == "network:":
			in = &network
		}
		if in != nil {
			*in = append(*in, body)
		}
	}
	if len(rules) == 0 || len(network) == 0 {
		t.Fatalf("found %d rule example lines and %d network example lines, want both", len(rules), len(network))
	}
	lint(t, "rule-examples.yaml", []byte("version: 1\nrules:\n"+strings.Join(rules, "\n")+"\n"))
	src := "version: 1\n" + strings.Join(network, "\n") + "\n"
	lint(t, "network-example.yaml", []byte(src))
	for _, host := range []string{"pypi.org", "files.pythonhosted.org"} {
		if !strings.Contains(src, "{host: "+host+", port: 443}") {
			t.Errorf("the network example does not allow %s:443:\n%s", host, src)
		}
	}
}

// TestTemplateClassTable: the template's table of built-in defaults says
// what the engine does, for every class.
func TestTemplateClassTable(t *testing.T) {
	for _, c := range action.Classes() {
		contained, _ := c.Default(true)
		outside, _ := c.Default(false)
		re := regexp.MustCompile(`(?m)^#   ` + c.String() + ` +` + contained.String() + ` +` + outside.String() + `\b`)
		if !re.Match(setup.Template) {
			t.Errorf("the template's table has no row %q %s %s", c, contained, outside)
		}
	}
}

// fakePath finds only the programs named.
func fakePath(found ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, f := range found {
			if f == name {
				return "/fake/bin/" + name, nil
			}
		}
		return "", errors.New("not found")
	}
}

func options(t *testing.T, home string) setup.Options {
	return setup.Options{
		LookPath:  fakePath("claude", "gemini"),
		ConfigDir: filepath.Join(home, ".config", "warden"),
		Install:   hook.InstallOptions{Home: home, Getenv: func(string) string { return "" }, Exe: "/usr/local/bin/warden", Wrap: true},
	}
}

func TestInit(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	r, err := setup.Init(o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range r.Agents {
		names = append(names, f.Agent.Name())
	}
	if got := strings.Join(names, ","); got != "claude-code,gemini" {
		t.Errorf("Init found agents %s, want claude-code,gemini", got)
	}
	if r.Policy.Action != setup.PolicyWritten || !r.Changed() {
		t.Errorf("Init policy action = %v, changed %v; want written, changed", r.Policy.Action, r.Changed())
	}
	data, err := os.ReadFile(filepath.Join(home, ".config", "warden", "policy.yaml"))
	if err != nil || !bytes.Equal(data, setup.Template) {
		t.Fatalf("the policy written is not the template (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Init wrote codex's settings though codex is not on PATH (%v)", err)
	}
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	want := "/usr/local/bin/warden hook claude-code --policy " + filepath.Join(home, ".config", "warden", "policy.yaml") + " --wrap"
	if n := strings.Count(string(settings), want); n != 4 {
		t.Errorf("~/.claude/settings.json holds %q %d times, want 4:\n%s", want, n, settings)
	}

	// Again: nothing changes.
	r, err = setup.Init(o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Changed() || r.Policy.Action != setup.PolicySame {
		t.Errorf("second Init changed = %v, policy %v; want nothing changed", r.Changed(), r.Policy.Action)
	}
}

func TestInitNoAgents(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	o.LookPath = fakePath()
	r, err := setup.Init(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Agents) != 0 || len(r.Hooks) != 0 || r.Policy.Action != setup.PolicyWritten {
		t.Errorf("Init with no agent on PATH = %d agents, %d hooks, policy %v; want none, none, written", len(r.Agents), len(r.Hooks), r.Policy.Action)
	}
}

// TestInitDryRun: nothing is written, and the result says what would be.
func TestInitDryRun(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	o.DryRun = true
	r, err := setup.Init(o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Changed() || len(r.Hooks) != 2 || r.Hooks[0].Unchanged {
		t.Errorf("dry run result = changed %v, %d hooks; want changes for 2", r.Changed(), len(r.Hooks))
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 0 {
		t.Errorf("dry run wrote %v", entries)
	}
}

// TestInitRefusesBeforeWriting: a settings file that does not parse, or
// a kept policy that does not load, stops Init with nothing written.
func TestInitRefusesBeforeWriting(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	bad := []byte("{\n  \"a\": 1,\n}\n")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), bad, 0o600)
	_, err := setup.Init(o)
	if err == nil || !strings.Contains(err.Error(), "~/.gemini/settings.json:3:1: ") {
		t.Fatalf("Init with a broken settings file = %v, want an error at ~/.gemini/settings.json:3:1", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".config")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the policy was written before the refusal (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claude-code's settings were written before the refusal (%v)", err)
	}
	if got, _ := os.ReadFile(filepath.Join(home, ".gemini", "settings.json")); !bytes.Equal(got, bad) {
		t.Errorf("the broken settings file changed: %q", got)
	}

	home = t.TempDir()
	o = options(t, home)
	os.MkdirAll(o.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(o.ConfigDir, "policy.yaml"), []byte("version: 1\nrulez: []\n"), 0o600)
	o.CheckPolicy = func(p string) error {
		_, err := config.Load(p, config.Options{Home: home})
		return err
	}
	if _, err := setup.Init(o); err == nil {
		t.Fatal("Init with an invalid kept policy succeeded")
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claude-code's settings were written for an invalid policy (%v)", err)
	}
}

func TestInitForceKeepsBackup(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	mine := []byte("version: 1\nautonomy: proposeOnly\n")
	path := filepath.Join(o.ConfigDir, "policy.yaml")
	os.MkdirAll(o.ConfigDir, 0o700)
	os.WriteFile(path, mine, 0o600)
	r, err := setup.Init(o)
	if err != nil || r.Policy.Action != setup.PolicyKept {
		t.Fatalf("Init over a policy = %v, %v; want kept", r, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, mine) {
		t.Errorf("Init without --force changed the policy")
	}
	o.Force = true
	r, err = setup.Init(o)
	if err != nil || r.Policy.Action != setup.PolicyReplaced {
		t.Fatalf("Init --force = %v, %v; want replaced", r, err)
	}
	if got, _ := os.ReadFile(path + ".bak"); !bytes.Equal(got, mine) {
		t.Errorf("the backup is %q, want the old policy", got)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, setup.Template) {
		t.Errorf("the policy after --force is not the template")
	}
}

func TestInitUnknownAgent(t *testing.T) {
	o := options(t, t.TempDir())
	o.Agents = []string{"claude"}
	_, err := setup.Init(o)
	var se *setup.Error
	if !errors.As(err, &se) || !strings.Contains(se.Hint, "claude-code") {
		t.Errorf("Init(--agents claude) = %v, want an unknown-agent error naming claude-code", err)
	}
}

func TestCanContain(t *testing.T) {
	for _, tt := range []struct {
		name  string
		trial sandbox.Trial
		want  bool
	}{
		{"ran", sandbox.Trial{Ran: true, OK: true}, true},
		{"not tried", sandbox.Trial{}, false},
		{"setup failed", sandbox.Trial{Ran: true, SetupFailed: true, Error: "no user namespaces"}, false},
		{"exit 1", sandbox.Trial{Ran: true, Status: 1}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, why := setup.CanContain(sandbox.HostReport{Trial: tt.trial})
			if got != tt.want || why == "" {
				t.Errorf("CanContain(%+v) = %v, %q; want %v with a reason", tt.trial, got, why, tt.want)
			}
		})
	}
}

// TestInitKeepsHeadless: a hook installed with --headless stays so; init
// does not turn a headless session's denials into unanswered questions.
func TestInitKeepsHeadless(t *testing.T) {
	home := t.TempDir()
	o := options(t, home)
	o.Agents = []string{"gemini"}
	path := filepath.Join(home, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"hooks": {"BeforeTool": [{"matcher": "x", "hooks": [{"type": "command", "command": "/old/warden hook gemini --headless"}]}]}}`), 0o600)
	r, err := setup.Init(o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Hooks[0].Headless {
		t.Errorf("Init did not keep --headless")
	}
	got, _ := os.ReadFile(path)
	if n := strings.Count(string(got), "hook gemini --policy "); n != 2 || strings.Count(string(got), "--wrap --headless") != 2 {
		t.Errorf("settings after Init:\n%s\nwant one entry per event (BeforeTool, AfterTool), wrapped and headless", got)
	}
	if r, err = setup.Init(o); err != nil || r.Changed() {
		t.Errorf("second Init = changed %v, %v; want nothing changed", r.Changed(), err)
	}
}
