// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/request"
)

// Translate turns the parsed call into Warden's terms. It fails when the
// tool input lacks what the tool needs (a command, a file path, a URL) or
// has it with the wrong type. Asks is set for the tools Gemini CLI
// confirms itself, the only ones an ask reaches a person for.
func (ag Agent) Translate(c *adapter.Call, opt adapter.Options) error {
	p := c.Payload.(*Payload)
	base := c.Base(ag.Name(), opt)
	name := p.ToolName
	c.Dir = p.Cwd
	subject := func(kind, value string) { c.Subject = adapter.Subject{Tool: name, Kind: kind, Value: value} }
	r := base
	switch name {
	case "run_shell_command":
		cmd, err := adapter.StringField(name, p.ToolInput, "command", true)
		if err != nil {
			return err
		}
		if strings.TrimSpace(cmd) == "" {
			return fmt.Errorf(`%s tool_input has no "command"`, name)
		}
		dir, err := optionalPath(p, "dir_path", "directory")
		if err != nil {
			return err
		}
		if dir != "" {
			c.Dir = adapter.JoinDir(p.Cwd, dir)
		}
		c.Shell, c.Asks = true, true
		r.Tool, r.Command, r.Cwd = "bash", cmd, c.Dir
		c.Unwrap(&r, opt)
		subject("command", r.Command)
	case "read_file", "write_file", "replace":
		fp, err := requiredPath(p, "file_path", "absolute_path")
		if err != nil {
			return err
		}
		r.Tool = map[string]string{"read_file": "read_file", "write_file": "write_file", "replace": "edit_file"}[name]
		r.Path = &fp
		c.Asks = name != "read_file"
		subject("path", fp)
	case "list_directory":
		dir, err := requiredPath(p, "dir_path", "path")
		if err != nil {
			return err
		}
		r.Tool, r.Paths = "list_dir", []string{dir}
		subject("path", dir)
	case "glob", "grep_search", "search_file_content", "grep":
		pat, err := adapter.StringField(name, p.ToolInput, "pattern", true)
		if err != nil {
			return err
		}
		dir, err := optionalPath(p, "dir_path", "path")
		if err != nil {
			return err
		}
		if dir == "" {
			dir = p.Cwd
		}
		dir = adapter.JoinDir(p.Cwd, dir)
		r.Paths = []string{dir}
		if name != "glob" {
			// The pattern is a regular expression over the content of
			// every file below the directory.
			r.Tool = "grep"
			subject("path", dir)
			r.Recursive = true
			break
		}
		r.Tool = "glob"
		subject("pattern", pat)
		// The pattern is matched from its own literal directories, which
		// may leave dir (glob.go): each is read; one a ".." after a
		// wildcard climbed to is read with everything below it, the
		// names the rest of the pattern may match.
		reaches, err := adapter.GlobReach(dir, pat)
		if err != nil {
			return fmt.Errorf("%s tool_input: %v", name, err)
		}
		above := base
		above.Tool, above.Recursive = "glob", true
		for _, re := range reaches {
			switch {
			case re.Above:
				above.Paths = appendNew(above.Paths, re.Dir)
			default:
				r.Paths = appendNew(r.Paths, re.Dir)
			}
		}
		c.Requests = []request.Request{r}
		if above.Paths != nil {
			c.Requests = append(c.Requests, above)
		}
	case "read_many_files":
		pats, err := stringList(p, "include", "paths")
		if err != nil {
			return err
		}
		r.Tool = "read_file"
		for _, pat := range pats {
			if strings.ContainsRune(pat, 0) {
				return fmt.Errorf("%s tool_input: a path holds a NUL byte", name)
			}
			// Each brace alternative reads the path it names, or,
			// with a wildcard, whatever it matches below its literal
			// directory (climbed, for a ".." after a wildcard): that
			// directory is read recursively.
			reaches, err := adapter.GlobReach(p.Cwd, pat)
			if err != nil {
				return fmt.Errorf("%s tool_input: %v", name, err)
			}
			for _, re := range reaches {
				if re.File != "" {
					r.Paths = appendNew(r.Paths, re.File)
					continue
				}
				r.Paths = appendNew(r.Paths, re.Dir)
				r.Recursive = true
			}
		}
		subject("path", strings.Join(pats, ", "))
	case "web_fetch":
		prompt, err := adapter.StringField(name, p.ToolInput, "prompt", true)
		if err != nil {
			return err
		}
		urls := urlPattern().FindAllString(prompt, maxURLs+1)
		if len(urls) == 0 {
			return fmt.Errorf(`%s tool_input: "prompt" holds no http:// or https:// URL`, name)
		}
		if len(urls) > maxURLs {
			return fmt.Errorf(`%s tool_input: "prompt" holds more than %d URLs`, name, maxURLs)
		}
		c.Asks = true
		for _, u := range urls {
			u = strings.TrimRight(u, ".,;:!?)]}'\"")
			fr := base
			fr.Tool, fr.URL = "web_fetch", u
			c.Requests = append(c.Requests, fr)
		}
		subject("url", strings.Join(urlsOf(c.Requests), " "))
	case "google_web_search":
		q, err := adapter.StringField(name, p.ToolInput, "query", false)
		if err != nil {
			return err
		}
		r.Tool = "web_search"
		subject("query", q)
	default:
		r.Tool = toolName(p)
		c.Asks = strings.HasPrefix(r.Tool, "mcp:")
		subject("tool", name)
	}
	if c.Requests == nil {
		c.Requests = []request.Request{r}
	}
	return c.Validate()
}

// maxURLs bounds the URLs of one web_fetch (Gemini CLI fetches up to 20).
const maxURLs = 20

// urlPattern finds the URLs of a web_fetch prompt, as Gemini CLI's own
// extraction does: http:// or https:// up to the next blank.
var urlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)https?://[^\s]+`) })

func urlsOf(rs []request.Request) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.URL)
	}
	return out
}

// toolName names a tool Warden has no table entry for. An MCP tool is
// mcp:server/tool, from mcp_context when Gemini CLI sends it (the only
// reliable split: server names may hold underscores), else from a name
// mcp__server__tool; anything else is gemini:NAME. Neither declares a
// class, so the engine asks about it.
func toolName(p *Payload) string {
	if m := p.MCPContext; m != nil && m.ServerName != "" && m.ToolName != "" {
		return "mcp:" + m.ServerName + "/" + m.ToolName
	}
	if rest, ok := strings.CutPrefix(p.ToolName, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
			return "mcp:" + server + "/" + tool
		}
	}
	return "gemini:" + p.ToolName
}

// requiredPath reads a path field by its name or, in older versions of
// Gemini CLI, its legacy name.
func requiredPath(p *Payload, field, legacy string) (string, error) {
	s, err := optionalPath(p, field, legacy)
	if err == nil && s == "" {
		err = fmt.Errorf("%s tool_input has no %q", p.ToolName, field)
	}
	return s, err
}

func optionalPath(p *Payload, field, legacy string) (string, error) {
	s, err := adapter.PathField(p.ToolName, p.ToolInput, field, false)
	if err != nil || s != "" {
		return s, err
	}
	return adapter.PathField(p.ToolName, p.ToolInput, legacy, false)
}

// stringList reads a list of strings by its name or legacy name.
func stringList(p *Payload, field, legacy string) ([]string, error) {
	in, err := adapter.Fields(p.ToolName, p.ToolInput, field, legacy)
	if err != nil {
		return nil, err
	}
	raw, ok := in[field]
	if !ok {
		raw, ok = in[legacy]
	}
	if !ok || string(raw) == "null" {
		return nil, fmt.Errorf("%s tool_input has no %q", p.ToolName, field)
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%s tool_input: %q is not a list of strings", p.ToolName, field)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s tool_input has an empty %q", p.ToolName, field)
	}
	for _, s := range list {
		if s == "" {
			return nil, errors.New(p.ToolName + " tool_input: an empty path")
		}
	}
	return list, nil
}

// appendNew appends p to list unless it is there.
func appendNew(list []string, p string) []string {
	if slices.Contains(list, p) {
		return list
	}
	return append(list, p)
}
