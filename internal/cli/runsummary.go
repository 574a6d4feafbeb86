// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"fmt"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/sandbox"
)

// summarizeRefusals closes a run by naming the masked and read-only paths
// whose refusal the command's errors report (sandbox.Result.Refused), so
// that neither the person nor an agent reading the output takes a write
// that did not happen for one that did. The same list is the execution
// record's refused_paths.
func summarizeRefusals(rs []audit.Refusal) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(Stderr, "warden: note: the sandbox refused the command access to %d path(s) its errors name; nothing was written to them:\n", len(rs))
	for _, r := range rs {
		fmt.Fprintf(Stderr, "warden: note:   %s: %s\n", r.Path, refusalText(r))
	}
}

// refusalText says why a path was refused, and what the error the command
// got means.
func refusalText(r audit.Refusal) string {
	switch {
	case r.Kind == audit.RefusedMasked:
		return fmt.Sprintf("masked in the sandbox (it cannot be read, written, replaced or removed; the command got %q)", r.Error)
	case r.Error == "Device or resource busy":
		return fmt.Sprintf("read-only in the sandbox (the command got %q: it is a mount point, which cannot be renamed over or removed)", r.Error)
	}
	return fmt.Sprintf("read-only in the sandbox (the command got %q)", r.Error)
}

// refusalsOf is the record's list of refusals, never null.
func refusalsOf(res sandbox.Result) []audit.Refusal {
	if res.Refused == nil {
		return []audit.Refusal{}
	}
	return res.Refused
}
