// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"

	"warden.dev/warden/internal/netpolicy"
)

// EgressRules converts the network section's rules for
// [netpolicy.Compile], in order. Each is named network.rules[i], i its
// index from 0, at its position in the file, so that a decision names it
// as "network.rules[2] (policy.yaml:12:7)". Port and Ports become one
// list; Enabled false becomes Disabled.
func (n Network) EgressRules() []netpolicy.Rule {
	rules := make([]netpolicy.Rule, 0, len(n.Rules))
	for i, r := range n.Rules {
		nr := netpolicy.Rule{
			Name:       fmt.Sprintf("network.rules[%d]", i),
			Pos:        r.Pos.String(),
			Verdict:    r.Action,
			Host:       r.Host,
			AllowedIPs: r.AllowedIPs,
			Ports:      r.Ports,
			Protocol:   netpolicy.Protocol(r.Protocol),
			Methods:    r.Methods,
			Disabled:   r.Enabled != nil && !*r.Enabled,
			Until:      r.Until,
		}
		if r.Port != 0 {
			nr.Ports = []int{r.Port}
		}
		rules = append(rules, nr)
	}
	return rules
}
