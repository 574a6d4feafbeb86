// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"time"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// Version is the only policy file version this package knows.
const Version = 1

// File is a parsed policy file. Every section is optional; the zero value
// of a section means it was absent or empty.
type File struct {
	// Version is the file's format version, always [Version].
	Version int
	// Policy holds the guardrails: autonomy, rules, delegation and
	// override holders. It is never nil; its Source is the file name.
	Policy *policy.Set
	// Sensitive lists path entries added to the built-in sensitive set.
	// They can only extend it.
	Sensitive []string
	Sandbox   Sandbox
	Network   Network
	// Audit says what happens when a decision cannot be recorded; ""
	// is [AuditRequired].
	Audit AuditMode
	// Approvals are the settings of questions left for a person.
	Approvals Approvals
	// Tests are examples: actions and the verdict the policy must give.
	Tests []Test
}

// Approvals are the settings of the questions a decision leaves for a
// person through warden serve.
type Approvals struct {
	// Expiry is how long one waits for its answer; 0 is the default,
	// 15 minutes.
	Expiry time.Duration
}

// AuditMode says whether recording a decision is a condition of taking
// it.
type AuditMode string

const (
	// AuditRequired: a decision that cannot be recorded is a deny
	// (the default).
	AuditRequired AuditMode = "required"
	// AuditBestEffort: a decision that cannot be recorded is taken
	// anyway, with a warning.
	AuditBestEffort AuditMode = "best-effort"
)

// SandboxMode is the physical ceiling of a sandbox (docs/spec.md §7).
type SandboxMode string

// Sandbox modes, from most to least confined.
const (
	ReadOnly       SandboxMode = "read-only"
	WorkspaceWrite SandboxMode = "workspace-write"
	FullAccess     SandboxMode = "full-access"
)

// ApprovalPolicy says when a human is asked (docs/spec.md §7).
type ApprovalPolicy string

// Approval policies, from most to least asking.
const (
	ApprovalUntrusted ApprovalPolicy = "untrusted"
	ApprovalOnRequest ApprovalPolicy = "on-request"
	ApprovalOnFailure ApprovalPolicy = "on-failure"
	ApprovalNever     ApprovalPolicy = "never"
)

// Sandbox is the containment section. Empty fields mean "the default".
type Sandbox struct {
	// Set reports whether the file had a sandbox section at all.
	Set        bool
	Mode       SandboxMode
	Approval   ApprovalPolicy
	Filesystem Filesystem
	Limits     Limits
	Env        Env
}

// Filesystem lists paths, as written (~ is not expanded here), that the
// sandbox makes writable, read-only, or masks. A path appears in at most
// one list. Home says how much of the caller's home the sandbox shows.
type Filesystem struct {
	ReadWrite []string
	ReadOnly  []string
	Hide      []string
	Home      HomeMode
	// Protect lists project-relative patterns (the syntax of Hide's)
	// of more files the host executes later, such as CLAUDE.md.
	Protect []string
}

// HomeMode says what of the caller's home directory a sandboxed run sees.
type HomeMode string

// Home modes; empty means HomeVisible.
const (
	// HomeVisible shows the home read-only, its sensitive set masked.
	HomeVisible HomeMode = "visible"
	// HomeHidden replaces the home with an empty directory and binds
	// back only the project, the toolchain caches and the paths the
	// policy lists.
	HomeHidden HomeMode = "hidden"
)

// Limits bounds a sandboxed run's resources. A zero field is unset.
type Limits struct {
	Memory Size
	Pids   int64
	// CPU is in cores and may be fractional.
	CPU    float64
	Nofile int64
	Fsize  Size
	// Disk bounds the bytes written and Inodes the entries created, in
	// total, by the sandboxed command.
	Disk    Size
	Inodes  int64
	Timeout time.Duration
	Output  Size
}

// Size is a byte count as written in a policy file. Unit remembers how it
// was written ("B" for a bare number, "KiB", "MiB", "GiB", "TiB", or the
// decimal "kB", "KB", "MB", "GB", "TB") so that [Format] writes it back the
// same way; an empty Unit lets Format pick the largest exact binary unit.
type Size struct {
	Bytes int64
	Unit  string
}

// Env shapes the sandbox's clean environment: Pass names host variables
// let through, Set gives variables fixed values. A name is in at most one.
type Env struct {
	Pass []string
	Set  map[string]string
}

// Network is the egress section. Rules are evaluated top to bottom, first
// match wins; the default is deny.
type Network struct {
	// Set reports whether the file had a network section at all.
	Set         bool
	Rules       []NetRule
	Credentials []Credential
}

// NetRule is one egress rule. A rule without Host and AllowedIPs matches
// any destination (and never grants the private-range exception).
type NetRule struct {
	// Action is [action.Allow] or [action.Deny].
	Action action.Verdict
	// Host is an exact host name, "*.domain" for its subdomains, or an IP
	// address; empty matches any host.
	Host string
	// AllowedIPs are addresses or CIDR prefixes.
	AllowedIPs []string
	// Port or Ports (never both) restrict the destination port.
	Port  int
	Ports []int
	// Protocol is "http", "https" or "tcp"; empty matches any.
	Protocol string
	// Methods are upper-case HTTP methods; empty matches any.
	Methods []string
	// Enabled, when set to false, turns the rule off.
	Enabled *bool
	// Until, when not zero, is when the rule stops applying.
	Until time.Time
	// Provenance says where the rule came from, as a guardrail rule's
	// does: "remembered" for a destination a person approved and asked
	// Warden to remember; empty for one written by hand.
	Provenance string
	Pos        policy.Pos
}

// Credential binds a secret, read outside the sandbox, to the hosts that
// may receive it. The sandbox sees the placeholder warden:cred:<Name>.
type Credential struct {
	Name string
	// From is "env:NAME" or "file:PATH".
	From  string
	Hosts []string
	Pos   policy.Pos
}

// Test is an example action and the verdict the policy must give it.
type Test struct {
	Name string
	// Action is the action as `warden explain` reads it (docs/spec.md §11),
	// before path resolution and shell analysis. It is never nil in a
	// parsed file.
	Action *request.Request
	Expect action.Verdict
	Pos    policy.Pos
}
