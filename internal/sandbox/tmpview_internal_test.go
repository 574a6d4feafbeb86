// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHomeBind(t *testing.T) {
	tmp, err := os.MkdirTemp("/tmp", "warden-homebind-")
	if err != nil {
		t.Skipf("requires a writable /tmp: %v", err)
	}
	defer os.RemoveAll(tmp)
	tmp, _ = filepath.EvalSymlinks(tmp)
	home := filepath.Join(tmp, "home")
	os.Mkdir(home, 0o755)
	// Seen through the read-only root already: /var/tmp is the host's.
	elsewhere, err := os.MkdirTemp("/var/tmp", "warden-homebind-")
	if err != nil {
		t.Skipf("requires a writable /var/tmp: %v", err)
	}
	defer os.RemoveAll(elsewhere)
	r := newHostResolver()
	defer r.close()
	for _, tt := range []struct {
		name  string
		home  string
		binds []bind
		want  []bind
	}{
		{"under /tmp", home, []bind{{Path: "/p", Writable: true, Dir: true}}, []bind{{Path: home, Dir: true}}},
		{"the project inside it", home, []bind{{Path: home + "/src", Writable: true, Dir: true}}, []bind{{Path: home, Dir: true}}},
		{"inside the project", home, []bind{{Path: tmp, Writable: true, Dir: true}}, nil},
		{"the project itself", home, []bind{{Path: home, Writable: true, Dir: true}}, nil},
		{"/tmp itself", "/tmp", nil, nil},
		{"missing", filepath.Join(tmp, "gone"), nil, nil},
		{"none", "", nil, nil},
		{"elsewhere", elsewhere, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, homeBind(r, tt.home, tt.binds)); diff != "" {
				t.Errorf("homeBind(%q) (-want +got):\n%s", tt.home, diff)
			}
		})
	}
}
