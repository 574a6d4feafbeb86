// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile_test

import (
	"fmt"
	"strings"
	"testing"

	"warden.dev/warden/internal/policyfile"
)

// hundredRules is a policy of 100 rules of varied shapes.
func hundredRules() []byte {
	var b strings.Builder
	b.WriteString("version: 1\nautonomy: actWithApproval\nrules:\n")
	for i := range 100 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  - id: push-%d\n    scope: workspace\n    class: gitPush\n    refs: [\"release/%d/**\", \"!release/%d/main\"]\n    decision: deny\n    reason: release %d is frozen\n", i, i, i, i)
		case 1:
			fmt.Fprintf(&b, "  - id: delete-%d\n    scope: agent:cleaner-%d\n    class: fileDelete\n    paths: [\"build/%d/**\", \"!**/.env\"]\n    max_count: %d\n    decision: allow\n    expires: 2026-12-31T00:00:00Z\n", i, i, i, i)
		case 2:
			fmt.Fprintf(&b, "  - id: cmd-%d\n    scope: mode:actFreely\n    command: \"make target-%d\"\n    decision: prompt\n    level: soft\n", i, i)
		case 3:
			fmt.Fprintf(&b, "  - id: egress-%d\n    scope: space:s%d\n    class: networkEgress\n    hosts: [\"*.svc%d.internal\"]\n    decision: allow\n", i, i, i)
		}
	}
	return []byte(b.String())
}

func BenchmarkParse100Rules(b *testing.B) {
	src := hundredRules()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := policyfile.Parse("bench.yaml", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormat100Rules(b *testing.B) {
	f, err := policyfile.Parse("bench.yaml", hundredRules())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		policyfile.Format(f)
	}
}
