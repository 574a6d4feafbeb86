// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package sandbox

import (
	"context"
	"os"
	"runtime"
)

// Probe reports that nothing can be contained: the sandbox needs Linux
// namespaces, and warden run stops with 125 on this system.
func Probe(ctx context.Context, o ProbeOptions) HostReport {
	f := HostFacts{
		OS: runtime.GOOS, Arch: runtime.GOARCH, UID: os.Getuid(), GID: os.Getgid(), NrOpen: -1,
		Namespaces: NamespaceFacts{Error: notLinux, Hint: "run warden on Linux, for example in a Linux VM or container"},
		Identity:   IdentityFacts{HostUID: os.Getuid(), HostGID: os.Getgid()},
		Landlock:   LandlockFacts{Error: notLinux},
		Seccomp:    SeccompFacts{Mode: -1, Error: notLinux},
		Cgroups:    CgroupFacts{Error: notLinux},
	}
	t := Trial{Error: notLinux, Unenforced: []string{}}
	return HostReport{Facts: f, Trial: t, Matrix: Assess(f, t)}
}
