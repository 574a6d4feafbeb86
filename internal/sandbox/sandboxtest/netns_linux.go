// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandboxtest

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// NetNS creates a network namespace of the test's own, deleted when the
// test ends, with loopback up and one interface, wd0 (a dummy, or a veth
// pair with both ends inside where the kernel has no dummy driver),
// carrying addrs (CIDR notation; an IPv6 one is added without duplicate
// address detection), and returns its name. prefix names it
// ("warden-test"). It needs root and ip(8).
func NetNS(t testing.TB, prefix string, addrs ...string) string {
	t.Helper()
	RequireRoot(t)
	ipCmd := RequireCommand(t, "ip")
	ip := func(args ...string) error {
		out, err := exec.Command(ipCmd, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	name := fmt.Sprintf("%s-%d", prefix, rand.Uint32())
	if err := ip("netns", "add", name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ip("netns", "del", name); err != nil {
			t.Error(err)
		}
	})
	steps := [][]string{{"-n", name, "link", "set", "lo", "up"}}
	if err := ip("-n", name, "link", "add", "wd0", "type", "dummy"); err != nil {
		t.Logf("no dummy interface (%v); using veth", err)
		steps = append(steps, []string{"-n", name, "link", "add", "wd0", "type", "veth", "peer", "name", "wd1"},
			[]string{"-n", name, "link", "set", "wd1", "up"})
	}
	for _, a := range addrs {
		step := []string{"-n", name, "addr", "add", a, "dev", "wd0"}
		if strings.Contains(a, ":") {
			step = append(step, "nodad")
		}
		steps = append(steps, step)
	}
	steps = append(steps, []string{"-n", name, "link", "set", "wd0", "up"})
	for _, s := range steps {
		if err := ip(s...); err != nil {
			t.Fatal(err)
		}
	}
	return name
}
