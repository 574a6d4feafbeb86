// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import "testing"

func TestPrivateBounds(t *testing.T) {
	for _, tt := range []struct {
		name                string
		fallback            int64
		l                   Limits
		wantSize, wantInode int64
	}{
		{"nothing", 0, Limits{}, 0, 0},
		{"memory fallback", 256 << 20, Limits{}, 256 << 20, 0},
		{"disk", 0, Limits{Disk: 8 << 20, Inodes: 1000}, 8 << 20, 1000},
		{"disk below the fallback", 256 << 20, Limits{Disk: 8 << 20}, 8 << 20, 0},
		{"fallback below the disk", 256 << 20, Limits{Disk: 1 << 30}, 256 << 20, 0},
	} {
		size, inodes := privateBounds(tt.fallback, tt.l)
		if size != tt.wantSize || inodes != tt.wantInode {
			t.Errorf("%s: privateBounds(%d, %+v) = %d, %d; want %d, %d", tt.name, tt.fallback, tt.l, size, inodes, tt.wantSize, tt.wantInode)
		}
	}
}
