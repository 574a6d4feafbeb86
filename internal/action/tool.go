// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package action

import (
	"path"
	"strings"
)

// Tool describes a tool Warden knows: the classes it declares and how it
// touches the paths it names. Tools cannot rewrite their classes at call
// time; a call may add classes (shell analysis does) but never drop these.
type Tool struct {
	Name string
	// Classes are the classes every call of the tool belongs to. A
	// mutating tool declares at least one (the ratchet test checks).
	Classes []Class
	// Mutating is false only for tools that read and change nothing.
	Mutating bool
	// Access is how the tool touches its path facets.
	Access Access
	// OutsideOnly marks FileWriteOutsideWorktree as conditional: the class
	// holds only when a written path lies outside the project; a write
	// inside the worktree is the agent's ordinary work.
	OutsideOnly bool
}

// toolTable lists the tools of the CLI contract (docs/spec.md §11) and the
// native tools of the agent CLIs Warden adapts. Names are lower case.
var toolTable = []Tool{
	{Name: "bash", Classes: []Class{ProcessSpawn}, Mutating: true},
	{Name: "read_file", Access: Read},
	{Name: "glob", Access: Read},
	{Name: "grep", Access: Read},
	{Name: "list_dir", Access: Read},
	{Name: "write_file", Classes: []Class{FileWriteOutsideWorktree}, Mutating: true, Access: Write, OutsideOnly: true},
	{Name: "edit_file", Classes: []Class{FileWriteOutsideWorktree}, Mutating: true, Access: Write, OutsideOnly: true},
	{Name: "multi_edit", Classes: []Class{FileWriteOutsideWorktree}, Mutating: true, Access: Write, OutsideOnly: true},
	{Name: "notebook_edit", Classes: []Class{FileWriteOutsideWorktree}, Mutating: true, Access: Write, OutsideOnly: true},
	{Name: "delete_file", Classes: []Class{FileDelete}, Mutating: true, Access: Delete},
	{Name: "web_fetch", Classes: []Class{NetworkEgress}, Mutating: true},
	{Name: "web_search", Classes: []Class{NetworkEgress}, Mutating: true},
	{Name: "git_push", Classes: []Class{GitPush}, Mutating: true},
	{Name: "git_commit", Classes: []Class{GitCommit}, Mutating: true},
	{Name: "pr_create", Classes: []Class{PRCreate}, Mutating: true},
	{Name: "pr_review", Classes: []Class{PRPublish}, Mutating: true},
	{Name: "pr_merge", Classes: []Class{PRPublish}, Mutating: true},
	{Name: "vendor_sync", Classes: []Class{VendorSyncWrite}, Mutating: true},
	{Name: "package_install", Classes: []Class{PackageInstall}, Mutating: true},
	{Name: "read_secret", Classes: []Class{SecretAccess}, Mutating: true},
	{Name: "spawn_process", Classes: []Class{ProcessSpawn}, Mutating: true},
	{Name: "delegate_task", Classes: []Class{WorkspaceMutation}, Mutating: true},
	{Name: "workspace_update", Classes: []Class{WorkspaceMutation}, Mutating: true},
	{Name: "enclosure_start", Classes: []Class{EnclosureControl}, Mutating: true},
	{Name: "enclosure_input", Classes: []Class{EnclosureControl}, Mutating: true},
}

// Tools returns the table of known tools.
func Tools() []Tool { return toolTable }

// LookupTool finds a known tool by name, case-insensitively. Tools of MCP
// servers ("mcp:server/tool") are never known: they declare their classes
// in a declaration file or are treated as unclassified.
func LookupTool(name string) (Tool, bool) {
	name = strings.ToLower(name)
	for _, t := range toolTable {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Within reports whether p lies inside root (or is root). Both must be
// absolute, cleaned, slash-separated paths. The test is path-relative,
// never a string prefix: /project-evil is not inside /project.
func Within(root, p string) bool {
	if root == "" || p == "" {
		return false
	}
	root, p = path.Clean(root), path.Clean(p)
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}
