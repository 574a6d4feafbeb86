// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandboxtest

import (
	"os"
	"syscall"
)

func userNSAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 65534, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 65534, HostID: os.Getgid(), Size: 1}},
	}
}
