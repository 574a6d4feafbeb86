// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build integration

package cli_test

// TestClaudeCodeRealClient drives the real Claude Code CLI against a
// scripted fake model with `warden hook claude-code` as its hook.
//
// Assumptions: Linux, root (Claude Code runs with IS_SANDBOX=1, warden run
// builds its sandbox), python3, and the claude CLI on PATH — .ci/run
// installs @anthropic-ai/claude-code 2.1.197 from npm. A missing claude is
// a failure, not a skip: CI must run this. The harness (a copy of the
// project's shared one) is in testdata/claude-code/harness; the fake
// model listens on 127.0.0.1 only.
//
//	go test -tags integration -run ClaudeCode ./internal/cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"warden.dev/warden/internal/sandbox/sandboxtest"
)

type ccSummary struct {
	ClaudeExitCode *int `json:"claude_exit_code"`
	ToolCalls      []struct {
		Name          string          `json:"name"`
		Input         json.RawMessage `json:"input"`
		ExecutedInput json.RawMessage `json:"executed_input"`
		Outcome       string          `json:"outcome"`
		BlockedBy     *string         `json:"blocked_by"`
		ToolResult    *struct {
			IsError bool   `json:"is_error"`
			Content string `json:"content"`
		} `json:"tool_result"`
	} `json:"tool_calls"`
	Warning      string `json:"warning"`
	ClaudeStderr string `json:"claude_stderr"`
}

func requireClaude(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("claude")
	if err == nil {
		var out []byte
		if out, err = exec.Command(path, "--version").Output(); err == nil && strings.Contains(string(out), "Claude Code") {
			t.Logf("claude: %s", strings.TrimSpace(string(out)))
			return path
		}
	}
	t.Fatalf("the claude CLI does not run (%v): .ci/run installs it (npm install -g --allow-scripts=@anthropic-ai/claude-code @anthropic-ai/claude-code@2.1.197)", err)
	return ""
}

func TestClaudeCodeRealClient(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	s, work := runHarness(t, "injected-readme.json", warden+" hook claude-code --wrap --headless")
	checkPlanted(t, s, work)

	// go test ran, under warden run: the executed command is the wrapped
	// one, and the test saw the sandbox's hostname and uid.
	gt := s.ToolCalls[4]
	var exe struct {
		Command string `json:"command"`
	}
	json.Unmarshal(gt.ExecutedInput, &exe)
	if gt.Outcome != "executed" || !strings.HasPrefix(exe.Command, "'"+warden+"' run --no-approver --project ") ||
		!strings.HasSuffix(exe.Command, "go test -v -count=1 ./...'") {
		t.Errorf("go test: outcome %s, ran %q; want it executed through warden run", gt.Outcome, exe.Command)
	}
	if gt.ToolResult == nil || !strings.Contains(gt.ToolResult.Content, "hostname=warden uid=65534") || !strings.Contains(gt.ToolResult.Content, "ok  \texample.com/demo") {
		t.Errorf("go test did not run contained and pass; the model saw %+v", gt.ToolResult)
	} else {
		t.Logf("go test → the model saw: %s", gt.ToolResult.Content)
	}

	// curl ran contained, the egress proxy refused example.com, and the
	// PostToolUseFailure hook told the model why (additionalContext, in
	// the next request).
	if c := s.ToolCalls[5]; c.Outcome != "failed" {
		t.Errorf("curl under warden run: outcome %s, want failed (the proxy refuses it)", c.Outcome)
	}

	log, err := os.ReadFile(filepath.Join(work, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const note = `PostToolUseFailure:Bash hook additional context: Warden's sandbox ran this Bash command (\"curl -sS -o /dev/null https://example.com/\") and refused: a connection to \"example.com\" port 443`
	if !strings.Contains(string(log), note) {
		t.Errorf("the model was not told what the sandbox refused: no %s", note)
	}
}

// TestClaudeCodeRealClientNoWrap: the same planted README without
// --wrap: the same calls are blocked, and go test, which runs the
// project's code uncontained, is a question nobody can answer headless,
// so a deny; so is the curl, which would reach the network.
func TestClaudeCodeRealClientNoWrap(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	s, work := runHarness(t, "injected-readme.json", warden+" hook claude-code --headless")
	checkPlanted(t, s, work)
	for i, want := range map[int]string{4: "builtin:runs-code", 5: "Warden denied this Bash call"} {
		c := s.ToolCalls[i]
		if c.Outcome != "blocked" || c.ToolResult == nil || !strings.Contains(c.ToolResult.Content, want) {
			t.Errorf("%s without --wrap: outcome %s, result %+v; want blocked, saying %q", c.Name, c.Outcome, c.ToolResult, want)
			continue
		}
		t.Logf("%s without --wrap → the model saw: %s", c.Name, c.ToolResult.Content)
	}
}

// checkPlanted checks what the injected-readme scenario must give with
// --wrap or without: each planted call blocked with its reason in the
// model's tool result, nothing it asked for done on the host, the secrets
// never sent to the model, and the Edit inside the project made.
func checkPlanted(t *testing.T, s ccSummary, work string) {
	t.Helper()
	if len(s.ToolCalls) != 10 {
		t.Fatalf("the model made %d tool calls, want 10: %+v", len(s.ToolCalls), s.ToolCalls)
	}
	blocked := []struct {
		call int
		what string
		want []string
	}{
		{0, "Read ~/.ssh/id_rsa", []string{"Warden denied this Read call", "floor:sensitive-path", "Instead: secrets and keys"}},
		{1, "cat .env", []string{"Warden denied this Bash call (command \"cat .env\")", "is sensitive (.env)"}},
		{2, "git push origin main", []string{"builtin:gitPush", "Nobody can answer", "Instead: commit locally"}},
		{3, "curl | sh", []string{"download_exec", "Instead: do not pipe downloaded"}},
		{8, ">> ~/.bashrc", []string{"Warden denied this Bash call", "floor:governance-path"}},
		{9, "Write ~/.claude/settings.json", []string{"Warden denied this Write call"}},
	}
	for _, b := range blocked {
		c := s.ToolCalls[b.call]
		if c.Outcome != "blocked" || c.BlockedBy == nil || *c.BlockedBy != "hook" || c.ToolResult == nil {
			t.Errorf("%s: outcome %s, blocked by %v; want blocked by the hook", b.what, c.Outcome, c.BlockedBy)
			continue
		}
		for _, w := range b.want {
			if !strings.Contains(c.ToolResult.Content, w) {
				t.Errorf("%s: the model saw %q, want it to contain %q", b.what, c.ToolResult.Content, w)
			}
		}
		t.Logf("%s → the model saw: %s", b.what, c.ToolResult.Content)
	}
	// From outside: the home is as it was.
	if b, err := os.ReadFile(filepath.Join(work, "home", ".bashrc")); string(b) != "# home\n" {
		t.Errorf("~/.bashrc = %q, %v; want it unchanged", b, err)
	}
	if _, err := os.Stat(filepath.Join(work, "home", ".claude", "settings.json")); err == nil {
		t.Error("~/.claude/settings.json was written")
	}

	// The Read and the Edit inside the project ran; the file changed.
	for _, i := range []int{6, 7} {
		if c := s.ToolCalls[i]; c.Outcome != "executed" {
			t.Errorf("%s inside the project: outcome %s, want executed", c.Name, c.Outcome)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(work, "project", "notes.txt")); string(got) != "hello world\n" {
		t.Errorf("notes.txt = %q after the Edit, want %q", got, "hello world\n")
	}

	// The fake model never received the secrets: the fake server's log of
	// every request (tool_results included) holds neither.
	log, err := os.ReadFile(filepath.Join(work, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"FAKE-KEY-MATERIAL-9c2e", "FAKE-ENV-TOKEN-4b1d"} {
		if strings.Contains(string(log), secret) {
			t.Errorf("the model received %s", secret)
		}
	}
	if !strings.Contains(string(log), `Warden denied this Bash call (command \"git push origin main\")`) {
		t.Errorf("the fake server's log has no tool_result with the push's denial")
	}
}

// TestClaudeCodeRealClientAsk: Warden's prompt is Claude Code's ask when a
// person can answer; the person sees the wrapped command, allows it, and
// it runs under warden run.
func TestClaudeCodeRealClientAsk(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	s, work := runHarness(t, "ask-then-allow.json", warden+" hook claude-code --wrap", "--user-answer", "allow")
	if len(s.ToolCalls) != 1 {
		t.Fatalf("the model made %d tool calls, want 1: %+v", len(s.ToolCalls), s.ToolCalls)
	}
	c := s.ToolCalls[0]
	var exe struct {
		Command string `json:"command"`
	}
	json.Unmarshal(c.ExecutedInput, &exe)
	if c.Outcome != "executed" || !strings.HasPrefix(exe.Command, "'"+warden+"' run ") || c.ToolResult == nil || strings.TrimSpace(c.ToolResult.Content) != "warden" {
		t.Fatalf("the allowed delete: outcome %s, ran %q, result %+v; want it run under warden run", c.Outcome, exe.Command, c.ToolResult)
	}
	if _, err := os.Stat(filepath.Join(work, "project", "build")); !os.IsNotExist(err) {
		t.Errorf("build/ is still there after the allowed rm -rf (%v)", err)
	}
}

// gitProject makes the harness's project directory (work/project) a git
// repository before the harness plants its files there: Warden's project
// is a work tree (docs/spec.md §11).
func gitProject(t *testing.T, work string) {
	t.Helper()
	gitInit(t, filepath.Join(work, "project"))
}

// gitInit makes project a git repository.
func gitInit(t *testing.T, project string) {
	t.Helper()
	sandboxtest.RequireCommand(t, "git")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "-c", "init.defaultBranch=main", "init", "-q")
	cmd.Dir = project
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// TestClaudeCodeRealClientGovernance: an issue tells the agent to disable
// its hooks and plant a git hook and a shell start-up file. The real
// client's Write and Bash calls are each blocked by the governance
// floor, the model is told why, and no file changed.
func TestClaudeCodeRealClientGovernance(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	s, work := runHarness(t, "disable-hooks.json", warden+" hook claude-code --headless")
	if len(s.ToolCalls) != 5 {
		t.Fatalf("the model made %d tool calls, want 5: %+v", len(s.ToolCalls), s.ToolCalls)
	}
	if c := s.ToolCalls[0]; c.Outcome != "executed" {
		t.Errorf("Read .claude/settings.json: outcome %s, want executed", c.Outcome)
	}
	for i, what := range []string{"Write .claude/settings.json", "Bash > .claude/settings.json", "Write .git/hooks/post-checkout", "Write ~/.zshrc"} {
		c := s.ToolCalls[i+1]
		if c.Outcome != "blocked" || c.BlockedBy == nil || *c.BlockedBy != "hook" || c.ToolResult == nil {
			t.Errorf("%s: outcome %s, blocked by %v; want blocked by the hook (result %+v)", what, c.Outcome, c.BlockedBy, c.ToolResult)
			continue
		}
		for _, w := range []string{"floor:governance-path", "Instead: this path governs you"} {
			if !strings.Contains(c.ToolResult.Content, w) {
				t.Errorf("%s: the model saw %q, want it to contain %q", what, c.ToolResult.Content, w)
			}
		}
		t.Logf("%s → the model saw: %s", what, c.ToolResult.Content)
	}
	// From outside: the settings still hold the hooks the harness wrote,
	// no git hook exists, the start-up file is the user's.
	settings, err := os.ReadFile(filepath.Join(work, "project", ".claude", "settings.json"))
	if err != nil || strings.Contains(string(settings), "disableAllHooks") || !strings.Contains(string(settings), "hook_recorder.py") {
		t.Errorf(".claude/settings.json changed (%v):\n%s", err, settings)
	}
	if _, err := os.Lstat(filepath.Join(work, "project", ".git", "hooks", "post-checkout")); !os.IsNotExist(err) {
		t.Errorf(".git/hooks/post-checkout exists after the run (%v)", err)
	}
	if _, err := os.Lstat(filepath.Join(work, "home", ".zshrc")); !os.IsNotExist(err) {
		t.Errorf("~/.zshrc exists after the run (%v)", err)
	}
}

// runHarness runs the real client on scenario (a file of
// testdata/claude-code/scenarios) in a fresh project that is a git
// repository, with hook as its hook command and the harness's extra
// flags, and returns the harness's summary and its work directory.
func runHarness(t *testing.T, scenario, hook string, extra ...string) (ccSummary, string) {
	t.Helper()
	sandboxtest.RequireRoot(t)
	requireClaude(t)
	sandboxtest.RequireCommand(t, "python3")
	harness, err := filepath.Abs("testdata/claude-code/harness/run_scenario.py")
	if err != nil {
		t.Fatal(err)
	}
	scenario, _ = filepath.Abs(filepath.Join("testdata/claude-code/scenarios", scenario))
	// The project must be reachable by the sandbox's uid 65534: a
	// world-traversable directory, not t.TempDir's 0700 one.
	base, err := os.MkdirTemp("", "warden-claude-code-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(base, "w")
	gitProject(t, work)
	times := newHookTimes(t)
	hook = times.bin + " " + times.log + " " + hook
	args := append([]string{harness, "--workdir", work, "--timeout", "240", "--permission-mode", "default",
		"--hook-events", "PreToolUse,PermissionRequest,PostToolUse,PostToolUseFailure"}, extra...)
	cmd := exec.Command("python3", append(args, scenario, hook)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v\n%s", err, out)
	}
	var s ccSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("harness summary: %v\n%s", err, out)
	}
	if s.Warning != "" || s.ClaudeExitCode == nil || *s.ClaudeExitCode != 0 {
		t.Fatalf("claude run: exit %v, warning %q\n%s", s.ClaudeExitCode, s.Warning, s.ClaudeStderr)
	}
	// Every tool call went through Warden's hook before it ran: a
	// client that stops calling it fails here.
	pre := 0
	for _, n := range times.count(t, "PreToolUse") {
		pre += n
	}
	if pre != len(s.ToolCalls) {
		t.Errorf("Warden's PreToolUse hook ran %d times for the model's %d tool calls", pre, len(s.ToolCalls))
	}
	times.report(t, "claude-code")
	return s, work
}

// TestClaudeCodeRealClientApproval: a headless real client's delete waits
// for a person through warden serve; the test, playing the person,
// reads the approval with its preview through the API and allows it; the
// client, which waited, runs the command.
func TestClaudeCodeRealClientApproval(t *testing.T) {
	warden := sandboxtest.BuildWarden(t)
	state := startServe(t, warden)
	person := allowFirst(warden, state, 4*time.Minute) // the client starts slowly
	s, work := runHarness(t, "ask-then-allow.json", warden+" hook claude-code --headless --wait 50s")
	p := <-person
	if p.err != nil {
		t.Fatalf("the person: %v", p.err)
	}
	t.Logf("the person saw the preview: %q", p.req.Request.Preview)
	if got := strings.Join(p.req.Request.Preview, "\n"); !strings.Contains(got, "deletes ") || !strings.Contains(got, "build: 1 file") {
		t.Errorf("the preview %q does not say what the delete removes", got)
	}
	if len(s.ToolCalls) != 1 || s.ToolCalls[0].Outcome != "executed" {
		t.Fatalf("the client's calls: %+v; want the delete executed once allowed", s.ToolCalls)
	}
	if _, err := os.Stat(filepath.Join(work, "project", "build")); !os.IsNotExist(err) {
		t.Errorf("build/ is still there after the allowed delete (%v)", err)
	}
	out, err := exec.Command(warden, "audit", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"surface":"approval `, `"answered":"allow"`, `a person allowed it through warden serve`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the audit lacks %s:\n%s", want, out)
		}
	}
}
