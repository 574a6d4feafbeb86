// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package action

// This file holds the closed taxonomy of docs/spec.md §3. Adding a class is a
// design decision, not a patch: every policy, lint check and explanation
// depends on the set being small and fixed.

// Class is one of the thirteen effect classes. The zero value is not a class.
type Class uint8

// The thirteen classes, in the order of docs/spec.md §3.
const (
	FileDelete Class = iota + 1
	GitPush
	PRCreate
	PRPublish
	VendorSyncWrite
	FileWriteOutsideWorktree
	GitCommit
	NetworkEgress
	SecretAccess
	PackageInstall
	ProcessSpawn
	WorkspaceMutation
	EnclosureControl
)

type classInfo struct {
	name string
	// def is the built-in default under the containment floor.
	def Verdict
	// needsFloor marks the allow defaults that assume Warden's sandbox is
	// under the action: without it they become prompt.
	needsFloor bool
	covers     string
}

var classTable = [...]classInfo{
	FileDelete:      {"fileDelete", Prompt, false, "deleting a file"},
	GitPush:         {"gitPush", Prompt, false, "pushing to a git remote"},
	PRCreate:        {"prCreate", Prompt, false, "opening a pull request"},
	PRPublish:       {"prPublish", Prompt, false, "publishing a review or merging a pull request"},
	VendorSyncWrite: {"vendorSyncWrite", Prompt, false, "writing to an external ticket vendor"},
	// Writing outside the worktree, egress, secrets and installs are only
	// harmless when the sandbox bounds them (read-only root, egress proxy,
	// masked secrets); a hook on an uncontained CLI has no such floor.
	FileWriteOutsideWorktree: {"fileWriteOutsideWorktree", Allow, true, "writing a file outside the worktree"},
	GitCommit:                {"gitCommit", Allow, false, "creating a commit"},
	NetworkEgress:            {"networkEgress", Allow, true, "network egress"},
	SecretAccess:             {"secretAccess", Allow, true, "reading a secret or credential"},
	PackageInstall:           {"packageInstall", Allow, true, "installing a package"},
	ProcessSpawn:             {"processSpawn", Allow, false, "spawning a process"},
	WorkspaceMutation:        {"workspaceMutation", Allow, false, "changing the workspace structure"},
	EnclosureControl:         {"enclosureControl", Allow, false, "controlling an enclosure"},
}

// Classes lists every class in taxonomy order.
func Classes() []Class {
	cs := make([]Class, 0, len(classTable)-1)
	for c := FileDelete; c <= EnclosureControl; c++ {
		cs = append(cs, c)
	}
	return cs
}

// Valid reports whether c is one of the thirteen classes.
func (c Class) Valid() bool { return c >= FileDelete && c <= EnclosureControl }

func (c Class) String() string {
	if c.Valid() {
		return classTable[c].name
	}
	return "invalidClass"
}

// Covers describes in a few words what the class covers.
func (c Class) Covers() string {
	if c.Valid() {
		return classTable[c].covers
	}
	return ""
}

// ParseClass parses a class name such as "gitPush". Names are
// case-sensitive, as they are written in policy files.
func ParseClass(s string) (Class, bool) {
	for c := FileDelete; c <= EnclosureControl; c++ {
		if classTable[c].name == s {
			return c, true
		}
	}
	return 0, false
}

// Default returns the built-in verdict for c. When contained is false, the
// allow defaults that assume the containment floor become prompt, and why
// says so; otherwise why is empty.
func (c Class) Default(contained bool) (v Verdict, why string) {
	if !c.Valid() {
		return Deny, "unknown class"
	}
	info := classTable[c]
	if info.needsFloor && !contained {
		return Prompt, "the built-in allow for " + info.name +
			" assumes Warden's sandbox, and this action is not contained"
	}
	return info.def, ""
}
