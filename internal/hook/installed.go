// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// Installed hooks that no longer run: an agent runs a hook's command
// through a shell, and when the binary has moved or gone the shell exits
// 127. Claude Code treats any status but 2 as a non-blocking error and
// runs the tool, so a dead hook fails open without a word. warden doctor
// lists every Warden entry of every agent's settings files and says of
// each whether its command still starts, and whether the policy it names
// is still there (a hook whose policy is gone refuses every call: it
// fails closed, but the agent can do nothing).

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"warden.dev/warden/internal/adapter"
)

// Entry is one Warden hook entry in an agent's settings file.
type Entry struct {
	Agent string `json:"agent"`
	// File is the settings file as the user knows it.
	File    string `json:"file"`
	Event   string `json:"event"`
	Command string `json:"command"`
	// Dead says why the command no longer starts; empty when it does.
	Dead string `json:"dead,omitempty"`
	// Refuses says why the hook, though it starts, refuses every call
	// (its --policy file is gone): it fails closed, and the agent can
	// do nothing until it is fixed.
	Refuses string `json:"refuses,omitempty"`
	// ShortTimeout says that the agent would give up on the hook before
	// a question waiting for a person through warden serve is answered:
	// an agent runs a call whose hook timed out.
	ShortTimeout string `json:"short_timeout,omitempty"`
	// OldMatcher says that the entry's matcher is not the one this
	// Warden installs for its event: the tools the current one adds
	// (after a client grew one, say) reach the agent undecided.
	OldMatcher string `json:"old_matcher,omitempty"`
}

// MinTimeout is the shortest hook timeout under which a question can
// wait for a person (the hook's default --wait, 50 s, and its margin).
const MinTimeout = 55 * time.Second

// Entries lists ag's Warden hook entries in the settings file [Install]
// with o writes, each checked with lookPath (for a command named without
// a directory). A missing file has none; one that does not parse is an
// error naming its line.
func Entries(ag adapter.Agent, o InstallOptions, lookPath func(string) (string, error)) ([]Entry, error) {
	path, shown, err := SettingsPath(ag, o)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", shown, err)
	}
	settings, err := parseSettings(data)
	if err != nil {
		return nil, parseError(shown, data, err)
	}
	raw, ok := settings.vals["hooks"]
	if !ok {
		return nil, nil
	}
	hooks, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf(`%s: "hooks": %v`, shown, err)
	}
	var out []Entry
	for _, event := range hooks.keys {
		var groups []struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Command string   `json:"command"`
				Timeout *float64 `json:"timeout"`
			} `json:"hooks"`
		}
		if json.Unmarshal(hooks.vals[event], &groups) != nil {
			continue
		}
		for _, g := range groups {
			for _, h := range g.Hooks {
				if !isWardenHook(h.Command, ag.Name()) {
					continue
				}
				out = append(out, Entry{Agent: ag.Name(), File: shown, Event: event, Command: h.Command,
					Dead: deadCommand(h.Command, lookPath), Refuses: missingPolicy(h.Command), ShortTimeout: shortTimeout(ag, h.Timeout),
					OldMatcher: oldMatcher(ag, event, g.Matcher)})
			}
		}
	}
	return out, nil
}

// missingPolicy says why the policy a hook command names with --policy
// cannot be read, or "" when it can or none is named.
func missingPolicy(cmd string) string {
	words := commandWords(cmd)
	for i, w := range words {
		if w != "--policy" || i+1 == len(words) {
			continue
		}
		p := words[i+1]
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Sprintf("its policy %s no longer exists", p)
			}
			return fmt.Sprintf("its policy %s: %v", p, err)
		}
	}
	return ""
}

// commandWords splits a hook command as [Install] writes it: words
// separated by one space, each bare or single-quoted.
func commandWords(cmd string) []string {
	var out []string
	for cmd != "" {
		if strings.HasPrefix(cmd, "'") {
			w, rest, ok := adapter.UnquoteWord(cmd)
			if !ok {
				return append(out, cmd)
			}
			out = append(out, w)
			cmd = strings.TrimPrefix(rest, " ")
			continue
		}
		w, rest, _ := strings.Cut(cmd, " ")
		out = append(out, w)
		cmd = rest
	}
	return out
}

// deadCommand says why a hook command's program would not start, or ""
// when it would: a path that is missing, not a regular file or not
// executable, or a bare name lookPath does not find.
func deadCommand(cmd string, lookPath func(string) (string, error)) string {
	prog, _, _ := strings.Cut(cmd, " ")
	if strings.HasPrefix(cmd, "'") {
		if w, _, ok := adapter.UnquoteWord(cmd); ok {
			prog = w
		}
	}
	if !strings.Contains(prog, "/") {
		if _, err := lookPath(prog); err != nil {
			return fmt.Sprintf("%s is not on PATH", prog)
		}
		return ""
	}
	fi, err := os.Stat(prog)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("%s no longer exists", prog)
	case err != nil:
		return fmt.Sprintf("%s: %v", prog, err)
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("%s is not a file", prog)
	case fi.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("%s is not executable", prog)
	}
	return ""
}

// shortTimeout says why a hook's timeout is too short for a question that
// waits for a person, or "" when it is not (no timeout is the agent's
// default, 60 s or more).
func shortTimeout(ag adapter.Agent, timeout *float64) string {
	if timeout == nil || len(ag.Hooks().Events) == 0 {
		return ""
	}
	unit := time.Second
	if ag.Hooks().Events[0].Unit == "ms" {
		unit = time.Millisecond
	}
	d := time.Duration(*timeout * float64(unit))
	if d >= MinTimeout {
		return ""
	}
	return fmt.Sprintf("its timeout, %v, is shorter than %v: a question waiting for a person through warden serve would outlast it, and the agent runs a call whose hook timed out; run warden init (or warden hook install) again", d, MinTimeout)
}

// oldMatcher says which tools the matcher [Install] writes for event
// names that an entry's matcher m misses, or "" when it misses none (or
// the event is not one Warden installs, or m cannot be read as a
// pattern). The tools are the names written in Warden's matcher that
// it matches itself.
func oldMatcher(ag adapter.Agent, event string, m *string) string {
	for _, ev := range ag.Hooks().Events {
		if ev.Event != event {
			continue
		}
		got := ""
		if m != nil {
			got = *m
		}
		if got == "" || got == "*" || got == ev.Matcher {
			// Every tool, or Warden's own.
			return ""
		}
		cur, err := regexp.Compile(ev.Matcher)
		if err != nil {
			return ""
		}
		old, err := regexp.Compile(got)
		if err != nil {
			return ""
		}
		var missed []string
		for _, name := range toolWord().FindAllString(ev.Matcher, -1) {
			if cur.MatchString(name) && !old.MatchString(name) && !slices.Contains(missed, name) {
				missed = append(missed, name)
			}
		}
		if len(missed) == 0 {
			return ""
		}
		return fmt.Sprintf("its %s matcher %q misses %s, which this Warden decides: they reach the agent undecided; run warden hook install %s again", event, got, strings.Join(missed, ", "), ag.Name())
	}
	return ""
}

// toolWord is a tool name, or the start of one, in a matcher.
var toolWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]`) })
