// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package report

import (
	"fmt"
	"io"
	"strings"

	"warden.dev/warden/internal/netpolicy"
)

// NetCheckOutput is the JSON of `warden net check --json` (docs/spec.md §11).
// The first four fields are the contract; the rest add detail.
type NetCheckOutput struct {
	Decision  string   `json:"decision"`
	Rule      string   `json:"rule"`
	Reason    string   `json:"reason"`
	Addresses []string `json:"addresses"`
	Hint      string   `json:"hint,omitempty"`
	// Target is the target as judged, normalised; empty when malformed.
	Target          string `json:"target,omitempty"`
	MethodDependent bool   `json:"method_dependent,omitempty"`
}

// NetCheck is the output of warden net check for target t's decision d.
func NetCheck(t netpolicy.Target, d netpolicy.Decision) NetCheckOutput {
	out := NetCheckOutput{
		Decision:        d.Verdict.String(),
		Rule:            d.Rule,
		Reason:          d.Reason,
		Addresses:       []string{},
		Hint:            d.Hint,
		Target:          t.String(),
		MethodDependent: d.MethodDependent,
	}
	for _, a := range d.Addrs {
		out.Addresses = append(out.Addresses, a.String())
	}
	return out
}

// WriteText writes the readable form: the verdict and why, the addresses
// the proxy would dial, the hint.
func (out NetCheckOutput) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s: %s (rule %s)\n", out.Decision, out.Reason, out.Rule)
	if len(out.Addresses) > 0 {
		fmt.Fprintf(w, "  dial  %s\n", strings.Join(out.Addresses, ", "))
	}
	if out.Hint != "" {
		fmt.Fprintf(w, "  hint  %s\n", out.Hint)
	}
}
