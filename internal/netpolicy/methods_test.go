// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package netpolicy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/netpolicy"
)

func TestMethods(t *testing.T) {
	p, err := netpolicy.Compile([]netpolicy.Rule{
		{Verdict: action.Deny, Host: "api.github.com", Methods: []string{"DELETE"}},
		{Verdict: action.Allow, Host: "api.github.com", Methods: []string{"GET", "POST"}},
		{Verdict: action.Allow, Host: "uploads.github.com", Methods: []string{"PUT", "GET"}},
		{Verdict: action.Allow, Host: "pypi.org"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"GET", "POST", "PUT"}, p.Methods()); diff != "" {
		t.Errorf("Methods (-want +got):\n%s", diff)
	}
	var none *netpolicy.Policy
	if none.Methods() != nil {
		t.Error("a nil policy names methods")
	}
}
