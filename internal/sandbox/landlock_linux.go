// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// landlockConfigs are go-landlock's configurations by ABI version (index
// 0 is ABI 1). Each handles every filesystem right of its version.
var landlockConfigs = []landlock.Config{
	landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6,
	landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11,
}

// Landlock rights the rules grant; each rule gets the part its ABI knows.
const (
	llRead = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	// llWriteTree is what a writable directory adds to reading: creating
	// and removing files, directories, sockets, fifos and links, moving
	// them within the writable roots (refer, ABI 2), truncating (ABI 3)
	// and connecting to sockets made there (resolve_unix, ABI 9). No
	// device nodes (make_char, make_block) and no device ioctls.
	llWriteTree = ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSWriteFile |
		ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeDir |
		ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSMakeSym | ll.AccessFSRefer | ll.AccessFSTruncate |
		ll.AccessFSResolveUnix
	// llDevice is for the character devices the command may write.
	llDevice = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// landlockScratch are the private tmpfs mounts: writable, never
// executable (as their noexec mounts).
var landlockScratch = []string{"/tmp", "/dev/shm", "/run"}

// landlockDevices may be read and written (and, for the terminal,
// controlled with ioctls).
var landlockDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty"}

// installLandlock restricts init's main thread, and so the command, to
// the same file rules the mounts express: the whole view readable and
// executable, the writable binds (the project in workspace-write mode,
// Spec.ReadWrite, the cache) writable and executable, the scratch tmpfs
// mounts writable but not executable (but the exec scratch), and the
// devices above read-write; in full-access mode the whole view writable. Everything else — writing anywhere else,
// device nodes, pathname sockets outside the writable roots (ABI 9) —
// is refused with EACCES, whatever the mounts say. It uses the best ABI
// the kernel has and fails, rather than running without, when there is
// none. It needs the no_new_privs that dropPrivileges set.
func installLandlock(c *config) error {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		if err == nil {
			err = fmt.Errorf("ABI version %d", abi)
		}
		return &stepError{
			"not available on this kernel: " + err.Error(),
			"Linux 5.13 or newer with CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= boot parameter (see /sys/kernel/security/lsm) is needed; or run with --degraded=landlock to go without it",
		}
	}
	cfg := landlockConfigs[min(abi, len(landlockConfigs))-1]
	rule := func(a landlock.AccessFSSet, paths ...string) landlock.FSRule {
		return landlock.PathAccess(a&cfg.HandledAccessFS, paths...)
	}
	reads := []landlock.Rule{rule(llRead, "/")}
	if c.Readable != nil {
		// Only these (an OpenShell filesystem_policy), with what the
		// rules below add: a directory with everything below it, a file
		// alone (Landlock refuses directory rights on a file); a path
		// missing is skipped.
		var dirs, files []string
		for _, p := range c.Readable {
			switch fi, err := os.Stat(p); {
			case err != nil:
			case fi.IsDir():
				dirs = append(dirs, p)
			default:
				files = append(files, p)
			}
		}
		reads = []landlock.Rule{rule(llRead, dirs...), rule(llRead&^ll.AccessFSReadDir, files...)}
	}
	rules := []landlock.Rule{
		reads[0],
		rule(llWriteTree, landlockScratch...).IgnoreIfMissing(),
		rule(llDevice, landlockDevices...),
	}
	rules = append(rules, reads[1:]...)
	rules = append(rules, rule(llWriteTree|ll.AccessFSExecute, execScratch).IgnoreIfMissing())
	if c.Terminal != nil {
		// The sandbox's own devpts (/dev/ptmx is a link into it): the
		// command's terminal and those it makes.
		rules = append(rules, rule(llDevice, "/dev/pts"))
	}
	if c.FullAccess {
		// No ceiling on files; Landlock still refuses device nodes
		// and scopes signals and abstract sockets.
		rules = append(rules, rule(llWriteTree|ll.AccessFSExecute, "/"))
	}
	for _, b := range c.Binds {
		// Read-only binds inside writable ones are the mounts' alone:
		// Landlock cannot take back below a path what it grants on it.
		if b.Writable {
			rules = append(rules, rule(llWriteTree|ll.AccessFSExecute, b.Path))
		}
	}
	// Files, and from ABI 6 the IPC scopes: no signal and no abstract
	// Unix socket reaches a process outside the sandbox's domain. Not
	// TCP (ABI 4): its rules are by port only and cannot say "loopback
	// only", which the network namespace already enforces. Not best
	// effort: the configuration matches the kernel's ABI, so anything
	// go-landlock cannot enforce is an error.
	ruleset := landlock.Config{HandledAccessFS: cfg.HandledAccessFS, Scoped: cfg.Scoped}
	fd, flags, err := ruleset.NewRulesetFD(rules...)
	if err == nil && fd < 0 {
		err = fmt.Errorf("no ruleset for ABI %d", abi)
	}
	if err != nil {
		return &stepError{
			fmt.Sprintf("ABI %d: %v", abi, err),
			"the kernel refused the Landlock ruleset; check dmesg and that no other LSM blocks landlock_create_ruleset",
		}
	}
	defer unix.Close(fd)
	// This thread only, the one init has been locked to from its start:
	// the command is forked from it and inherits the domain. Init's
	// other threads run only init's own code (the reaper, the seccomp
	// listener, signal forwarding), which the command cannot reach;
	// restricting them all would stop the world for each thread.
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return &stepError{
			fmt.Sprintf("ABI %d: landlock_restrict_self: %v", abi, err),
			"the kernel refused the Landlock ruleset; check dmesg and that no other LSM blocks landlock_restrict_self",
		}
	}
	return nil
}
