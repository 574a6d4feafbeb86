// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckHostID(t *testing.T) {
	id := fmt.Sprint(hostID)
	for _, tt := range []struct {
		name                          string
		passwd, group, subuid, subgid string
		wantErr                       string // a part of the error; "" for none
	}{
		{name: "no files"},
		{name: "others' ids", passwd: "root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n",
			group: "root:x:0:\n", subuid: "root:100000:65536\nlxd:1000000:1000000000\n", subgid: "root:100000:65536\n"},
		{name: "a user has it", passwd: "squat:x:" + id + ":1::/:/bin/sh\n", wantErr: "user squat"},
		{name: "a group has it", group: "squat:x:" + id + ":\n", wantErr: "group squat"},
		{name: "a subordinate uid range holds it", subuid: fmt.Sprintf("big:%d:10\n", hostID-5), wantErr: "gives big the range"},
		{name: "a subordinate gid range holds it", subgid: fmt.Sprintf("big:%d:1\n", hostID), wantErr: "gives big the range"},
		{name: "a range that ends just before", subuid: fmt.Sprintf("near:%d:5\n", hostID-5)},
		{name: "malformed lines are skipped", subuid: "junk\nx:y:z\n", passwd: "short\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, body string) string {
				p := filepath.Join(dir, name)
				if body != "" {
					if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return p
			}
			saved := hostIDFiles
			defer func() { hostIDFiles = saved }()
			hostIDFiles.passwd, hostIDFiles.group = write("passwd", tt.passwd), write("group", tt.group)
			hostIDFiles.subuid, hostIDFiles.subgid = write("subuid", tt.subuid), write("subgid", tt.subgid)
			err := checkHostID()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("checkHostID() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("checkHostID() = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

func TestNextAncestor(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"/a", nil},
		{"/a/b", []string{"/a"}},
		{"/root/work/proj", []string{"/root", "/root/work"}},
	} {
		var got []string
		for a := nextAncestor(tt.path, tt.path); a != ""; a = nextAncestor(tt.path, a) {
			got = append(got, a)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ancestors of %s (-want +got):\n%s", tt.path, diff)
		}
	}
}

func TestPathEntries(t *testing.T) {
	got := pathEntries([]string{"HOME=/", "PATH=/root/.cargo/bin:relative::/usr/bin/"})
	if diff := cmp.Diff([]string{"/root/.cargo/bin", "/usr/bin"}, got); diff != "" {
		t.Errorf("pathEntries (-want +got):\n%s", diff)
	}
}

func TestIdmapRoots(t *testing.T) {
	base := t.TempDir()
	project, cache, ro := filepath.Join(base, "p"), filepath.Join(base, "cache"), filepath.Join(base, "ro")
	for _, d := range []string{project + "/.git/hooks", cache, ro} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	binds := []bind{
		{Path: project, Writable: true, Dir: true},
		{Path: project + "/.git", Writable: true, Dir: true}, // a pin: inside the project, same owner
		{Path: cache, Writable: true, Dir: true},
		{Path: ro, Dir: true},                      // read-only outside: no idmap
		{Path: project + "/.git/hooks", Dir: true}, // read-only inside: from the project's
	}
	roots, err := idmapRoots(binds, project)
	if err != nil {
		t.Fatal(err)
	}
	me := owner{uint32(os.Getuid()), uint32(os.Getgid())}
	want := []idmapRoot{{binds[0], me}, {binds[2], me}}
	if diff := cmp.Diff(want, roots, cmp.AllowUnexported(idmapRoot{}, owner{})); diff != "" {
		t.Errorf("roots (-want +got):\n%s", diff)
	}
	if os.Getuid() != 0 {
		return
	}
	// A writable path inside the project with another owner is a root of
	// its own: the project's idmapping would not make it the command's.
	other := project + "/build"
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(other, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	ob := bind{Path: other, Writable: true, Dir: true}
	roots, err = idmapRoots(append(binds, ob), project)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, idmapRoot{ob, owner{4242, 4242}})
	if diff := cmp.Diff(want, roots, cmp.AllowUnexported(idmapRoot{}, owner{})); diff != "" {
		t.Errorf("roots with another owner inside (-want +got):\n%s", diff)
	}
}
