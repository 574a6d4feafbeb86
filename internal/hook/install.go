// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// Installing a hook: warden hook install NAME writes the agent's settings
// file, replacing every Warden entry of that agent by one per event (as
// the agent's [adapter.Hooks] lists them) and keeping every other key and
// hook as it was; warden hook uninstall NAME removes those entries and
// what their removal leaves empty, nothing else. A settings file that
// does not parse is never rewritten (the error names its line and
// column), and the file is replaced atomically, keeping its mode.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/safefile"
)

// InstallOptions are what warden hook install writes, and where.
type InstallOptions struct {
	// Project writes the project's settings, relative to Dir, instead of
	// the user's (under Home, or the agent's directory variable).
	Project bool
	Dir     string
	Home    string
	Getenv  func(string) string
	// Exe is the warden binary the hook runs; Policy the absolute policy
	// file it decides with (empty: the embedded default).
	Exe      string
	Policy   string
	Wrap     bool
	Headless bool
	// DryRun computes the changes and writes nothing.
	DryRun bool
}

// Installed says what Install did.
type Installed struct {
	// Shown is the settings file as the user knows it
	// ("~/.claude/settings.json").
	Shown string
	// Unchanged: the file already held exactly this; nothing was written.
	Unchanged bool
	// Changes are diff-like lines, one a hook entry.
	Changes []string
	// Kept counts the other top-level keys, kept as they were.
	Kept int
	// Hints are the agent's, to print after the changes.
	Hints []string
}

// installError is an install that cannot be done, with what to do.
type installError struct {
	msg  string
	hint string
}

func (e *installError) Error() string { return e.msg }

// Hints says what to do about it.
func (e *installError) Hints() []string { return []string{e.hint} }

const hintUnparsed = "Warden does not rewrite a settings file it cannot parse; fix it or move it away"

// Install writes ag's hook entries into its settings file.
func Install(ag adapter.Agent, o InstallOptions) (*Installed, error) {
	h := ag.Hooks()
	path, shown, err := SettingsPath(ag, o)
	if err != nil {
		return nil, err
	}
	command := quote(o.Exe) + " hook " + ag.Name()
	if o.Policy != "" {
		command += " --policy " + quote(o.Policy)
	}
	if o.Wrap {
		command += " --wrap"
	}
	if o.Headless {
		command += " --headless"
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, &installError{msg: fmt.Sprintf("reading %s: %v", shown, err)}
	}
	settings, err := parseSettings(old)
	if err != nil {
		return nil, parseError(shown, old, err)
	}
	before := settings.encode()
	changes, err := settings.setHooks(ag, command)
	if err != nil {
		return nil, &installError{fmt.Sprintf("%s: %v", shown, err), hintUnparsed}
	}
	after := settings.encode()
	if bytes.Equal(before, after) && old != nil {
		return &Installed{Shown: shown, Unchanged: true}, nil
	}
	if !o.DryRun {
		if err := writeSettings(path, after); err != nil {
			return nil, &installError{msg: fmt.Sprintf("writing %s: %v", shown, err)}
		}
	}
	return &Installed{Shown: shown, Changes: changes, Kept: len(settings.keys) - 1, Hints: h.Hints}, nil
}

// Uninstall removes every Warden hook entry of ag from its settings file
// (the one [Install] with the same options writes): the entries, a
// matcher group left empty, an event list left empty and a hooks object
// left empty. Every other key and hook stays as it was. A missing file,
// or one without Warden's entries, is left alone ([Installed.Unchanged]);
// one that does not parse is never rewritten.
func Uninstall(ag adapter.Agent, o InstallOptions) (*Installed, error) {
	path, shown, err := SettingsPath(ag, o)
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Installed{Shown: shown, Unchanged: true}, nil
	}
	if err != nil {
		return nil, &installError{msg: fmt.Sprintf("reading %s: %v", shown, err)}
	}
	settings, err := parseSettings(old)
	if err != nil {
		return nil, parseError(shown, old, err)
	}
	changes, err := settings.dropHooks(ag)
	if err != nil {
		return nil, &installError{fmt.Sprintf("%s: %v", shown, err), hintUnparsed}
	}
	if len(changes) == 0 {
		return &Installed{Shown: shown, Unchanged: true}, nil
	}
	if !o.DryRun {
		if err := writeSettings(path, settings.encode()); err != nil {
			return nil, &installError{msg: fmt.Sprintf("writing %s: %v", shown, err)}
		}
	}
	kept := len(settings.keys)
	if _, ok := settings.vals["hooks"]; ok {
		kept--
	}
	return &Installed{Shown: shown, Changes: changes, Kept: kept}, nil
}

// dropHooks removes every Warden hook of the agent from every event of
// the settings' hooks, and what that leaves empty, and returns the
// removals as diff-like lines.
func (s *jsonObject) dropHooks(ag adapter.Agent) ([]string, error) {
	// Only "hooks" not being an object is an error: Install could not
	// have written into it.
	raw, ok := s.vals["hooks"]
	if !ok {
		return nil, nil
	}
	hooks, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf(`"hooks": %v`, err)
	}
	var changes []string
	for _, event := range slices.Clone(hooks.keys) {
		var groups []json.RawMessage
		if err := json.Unmarshal(hooks.vals[event], &groups); err != nil {
			// Not a list: not Warden's, and not this function's to judge.
			continue
		}
		var kept []json.RawMessage
		removedAny := false
		for _, g := range groups {
			ng, removed, err := dropWardenHooks(g, ag.Name())
			if err != nil {
				// A group of another shape holds no entry Install
				// writes: it stays as it is.
				kept = append(kept, g)
				continue
			}
			for _, r := range removed {
				removedAny = true
				changes = append(changes, fmt.Sprintf("- hooks.%s: %s", event, r))
			}
			if ng != nil {
				kept = append(kept, ng)
			}
		}
		if !removedAny {
			continue
		}
		if len(kept) == 0 {
			hooks.remove(event)
			continue
		}
		list, _ := json.Marshal(kept)
		hooks.set(event, list)
	}
	if len(changes) == 0 {
		return nil, nil
	}
	if len(hooks.keys) == 0 {
		s.remove("hooks")
	} else {
		s.set("hooks", hooks.encode())
	}
	return changes, nil
}

// SettingsPath is the settings file Install writes and how it is shown;
// an error when there is none (no home directory).
func SettingsPath(ag adapter.Agent, o InstallOptions) (path, shown string, err error) {
	h := ag.Hooks()
	if o.Project {
		return filepath.Join(o.Dir, h.ProjectFile), h.ProjectFile, nil
	}
	if h.UserDirEnv != "" && o.Getenv != nil {
		if dir := o.Getenv(h.UserDirEnv); dir != "" {
			base := filepath.Base(h.UserFile)
			return filepath.Join(dir, base), "$" + h.UserDirEnv + "/" + base, nil
		}
	}
	shown = "~/" + h.UserFile
	if o.Home == "" {
		hint := "use --project"
		if h.UserDirEnv != "" {
			hint += ", or set " + h.UserDirEnv
		}
		return "", "", &installError{"no home directory for " + shown, hint}
	}
	return filepath.Join(o.Home, h.UserFile), shown, nil
}

// setHooks replaces every Warden hook of the agent in the settings'
// hooks by one entry per event running command, and returns the changes
// as diff-like lines.
func (s *jsonObject) setHooks(ag adapter.Agent, command string) ([]string, error) {
	hooks := &jsonObject{vals: map[string]json.RawMessage{}}
	if raw, ok := s.vals["hooks"]; ok {
		h, err := parseObject(raw)
		if err != nil {
			return nil, fmt.Errorf(`"hooks": %v`, err)
		}
		hooks = h
	}
	var changes []string
	for _, ev := range ag.Hooks().Events {
		var groups []json.RawMessage
		if raw, ok := hooks.vals[ev.Event]; ok {
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, fmt.Errorf(`"hooks.%s" is not a list: %v`, ev.Event, err)
			}
		}
		var kept []json.RawMessage
		had := false
		for _, g := range groups {
			ng, removed, err := dropWardenHooks(g, ag.Name())
			if err != nil {
				return nil, fmt.Errorf(`"hooks.%s": %v`, ev.Event, err)
			}
			for _, r := range removed {
				if r == command {
					had = true
				} else {
					changes = append(changes, fmt.Sprintf("- hooks.%s: %s", ev.Event, r))
				}
			}
			if ng != nil {
				kept = append(kept, ng)
			}
		}
		entry, _ := json.Marshal(struct {
			Matcher string `json:"matcher"`
			Hooks   []any  `json:"hooks"`
		}{ev.Matcher, []any{ag.Hooks().Handler(command, ev)}})
		kept = append(kept, entry)
		if had {
			changes = append(changes, fmt.Sprintf("  hooks.%s: %s (kept)", ev.Event, command))
		} else {
			changes = append(changes, fmt.Sprintf("+ hooks.%s: %s (matcher %s, timeout %d%s)", ev.Event, command, ev.Matcher, ev.Timeout, ev.Unit))
		}
		list, _ := json.Marshal(kept)
		hooks.set(ev.Event, list)
	}
	s.set("hooks", hooks.encode())
	return changes, nil
}

// dropWardenHooks removes the agent's Warden hooks from one matcher
// group; the group is nil when nothing else is left in it.
func dropWardenHooks(group json.RawMessage, agent string) (json.RawMessage, []string, error) {
	g, err := parseObject(group)
	if err != nil {
		return nil, nil, fmt.Errorf("a matcher group: %v", err)
	}
	raw, ok := g.vals["hooks"]
	if !ok {
		return group, nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, nil, fmt.Errorf(`a group's "hooks" is not a list`)
	}
	var kept []json.RawMessage
	var removed []string
	for _, h := range list {
		var hk struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(h, &hk) == nil && isWardenHook(hk.Command, agent) {
			removed = append(removed, hk.Command)
			continue
		}
		kept = append(kept, h)
	}
	if len(removed) == 0 {
		return group, nil, nil
	}
	if len(kept) == 0 {
		return nil, removed, nil
	}
	nl, _ := json.Marshal(kept)
	g.set("hooks", nl)
	return g.encode(), removed, nil
}

// isWardenHook reports whether a hook command runs warden hook AGENT.
func isWardenHook(cmd, agent string) bool {
	first, rest, ok := strings.Cut(cmd, " ")
	if strings.HasPrefix(cmd, "'") {
		if w, r, ok2 := adapter.UnquoteWord(cmd); ok2 {
			first, rest, ok = w, strings.TrimPrefix(r, " "), true
		}
	}
	if !ok {
		return false
	}
	sub := "hook " + agent
	return filepath.Base(first) == "warden" && (rest == sub || strings.HasPrefix(rest, sub+" "))
}

// quote single-quotes s for sh, unless it needs no quoting.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jsonObject is a JSON object that keeps its keys' order and its values'
// bytes, so that rewriting one key leaves the rest of a settings file as
// it was.
type jsonObject struct {
	keys []string
	vals map[string]json.RawMessage
}

// parseSettings reads a settings file: empty means {}, anything but one
// JSON object is an error.
func parseSettings(data []byte) (*jsonObject, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &jsonObject{vals: map[string]json.RawMessage{}}, nil
	}
	return parseObject(data)
}

func parseObject(data []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// fail is an error at the decoder's offset, or at a syntax error's.
	fail := func(msg string, err error) error {
		off := dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			off = int64(len(data))
		}
		if err != nil {
			msg += ": " + err.Error()
		}
		return &offsetError{off, msg}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fail("not JSON", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fail("not a JSON object", nil)
	}
	o := &jsonObject{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail("not JSON", err)
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fail("not JSON: a key is not a string", nil)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fail("not JSON", err)
		}
		if _, dup := o.vals[k]; dup {
			return nil, fail(fmt.Sprintf("key %q appears twice", k), nil)
		}
		o.keys = append(o.keys, k)
		o.vals[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail("not JSON", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("not JSON: data after the object", nil)
	}
	return o, nil
}

// offsetError is a settings file that does not parse, and the byte
// offset where that showed.
type offsetError struct {
	off int64
	msg string
}

func (e *offsetError) Error() string { return e.msg }

// position is the line and column (both from 1) of byte offset off in
// data.
func position(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// parseError says where in the settings file shown err showed:
// "shown:line:col: msg".
func parseError(shown string, data []byte, err error) error {
	var oe *offsetError
	if errors.As(err, &oe) {
		line, col := position(data, oe.off)
		return &installError{fmt.Sprintf("%s:%d:%d: %s", shown, line, col, oe.msg), hintUnparsed}
	}
	return &installError{fmt.Sprintf("%s: %v", shown, err), hintUnparsed}
}

func (o *jsonObject) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jsonObject) remove(k string) {
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(x string) bool { return x == k })
}

// encode writes the object indented by two spaces, keys in order.
func (o *jsonObject) encode() []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range o.keys {
		if i > 0 {
			b.WriteString(",")
		}
		kb, _ := json.Marshal(k)
		b.WriteString("\n  ")
		b.Write(kb)
		b.WriteString(": ")
		var v bytes.Buffer
		raw := bytes.TrimSpace(o.vals[k])
		if err := json.Indent(&v, raw, "  ", "  "); err != nil {
			b.Write(raw)
		} else {
			b.Write(v.Bytes())
		}
	}
	if len(o.keys) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeSettings replaces path with data: a file beside it, synced, then
// renamed over it, keeping the old file's mode (0600 for a new one).
func writeSettings(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return safefile.WriteFile(path, data, mode)
}
