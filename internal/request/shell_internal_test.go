// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package request

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/shellparse"
)

// TestTruncatedBy checks which write facets of a command are opened
// truncated, whatever the working directory the analysis tracked: only
// appends and non-truncating opens are left out.
func TestTruncatedBy(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want map[string]string // path facet → operator
	}{
		{"echo x > f", map[string]string{"/p/f": ">"}},
		{"echo x >> f", map[string]string{"/p/f": ""}},
		{"echo x 2>> f >| g", map[string]string{"/p/f": "", "/p/g": ">|"}},
		{"echo x &>> f 3> g", map[string]string{"/p/f": "", "/p/g": "3>"}},
		{"echo x <> f", map[string]string{"/p/f": ""}},
		{"cd sub && echo x > f", map[string]string{"/p/sub/f": ">"}},
		{"cd /q && echo x > ../f", map[string]string{"/q/../f": ">"}},
		{"echo x > ~/f", map[string]string{"/h/f": ">"}},
		{"> ~/f", map[string]string{"/h/f": ">"}},
		{`> "a b"`, map[string]string{"/p/a b": ">"}},
		{`> a\ b`, map[string]string{"/p/a b": ">"}},
		{"echo > /proc/self/cwd/f", map[string]string{"/p/f": ">"}},
		{"cat f 2>&1 >> log/1", map[string]string{"/p/log/1": ""}},
		{"echo x >& f", map[string]string{"/p/f": ">&"}},
		{"tee f < g", map[string]string{"/p/f": ""}}, // not a redirection
	} {
		an := shellparse.Analyze(tt.cmd, shellparse.Options{Cwd: "/p", Home: "/h"})
		rs := truncations(tt.cmd, an)
		got := map[string]string{}
		for _, p := range an.Paths {
			if p.Access.String() == "write" {
				got[p.Path] = truncatedBy(p.Path, rs)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.cmd, diff)
		}
	}
}
