// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/sandbox/seccomp"
)

const (
	memDir  = "/sys/fs/cgroup/memory/user/warden"
	pidsDir = "/sys/fs/cgroup/pids/warden"
	cpuDir  = "/sys/fs/cgroup/cpu/warden"
)

// rootHost is a host like CI's as root: every mechanism there, cgroup v1
// memory, pids and cpu writable.
func rootHost() sandbox.HostFacts {
	return sandbox.HostFacts{
		OS: "linux", Kernel: "6.18.0", Arch: "x86_64", UID: 0, GID: 0, NrOpen: 1 << 20,
		Namespaces: sandbox.NamespaceFacts{Created: true},
		Identity: sandbox.IdentityFacts{HostUID: 0x7ffd0000, HostGID: 0x7ffd0000, CgroupNamespace: true,
			Idmap: &sandbox.IdmapTrial{Dir: "/tmp/warden-doctor-idmap-1", OK: true}},
		Landlock: sandbox.LandlockFacts{ABI: 7, Used: 7, Scoping: true,
			Filesystem: []string{"execute", "write_file", "read_file"}},
		Seccomp: sandbox.SeccompFacts{Filter: true, Arch: "amd64", Rules: 57,
			Actions: []string{"kill_process", "errno", "allow"}, Needed: []string{"errno", "allow", "kill_process"}},
		Cgroups: sandbox.CgroupFacts{DefaultMemory: 4 << 30, Limits: []sandbox.CgroupTrial{
			{Limit: "memory", Value: "4GiB", Version: "v1", Dir: memDir, Tried: true, OK: true},
			{Limit: "pids", Value: "1024", Version: "v1", Dir: pidsDir, Tried: true, OK: true},
			{Limit: "cpu", Value: "1", Version: "v1", Dir: cpuDir, Tried: true, OK: true},
		}},
		Rlimits: []sandbox.RlimitFact{{Name: "nofile", Soft: 20000, Hard: 20000}, {Name: "fsize", Soft: -1, Hard: -1}},
	}
}

func okTrial() sandbox.Trial {
	return sandbox.Trial{Ran: true, Argv: []string{"/bin/true"}, OK: true, Cgroup: "v1", Unenforced: []string{}}
}

// nobodyHost is the same host as a user who cannot make cgroups.
func nobodyHost() (sandbox.HostFacts, sandbox.Trial) {
	f := rootHost()
	f.UID, f.GID = 65534, 65534
	f.Identity = sandbox.IdentityFacts{HostUID: 65534, HostGID: 65534, CgroupNamespace: true}
	for i := range f.Cgroups.Limits {
		l := &f.Cgroups.Limits[i]
		l.OK = false
		l.Error = "cgroup " + l.Limit + " " + l.Value + ": mkdir " + l.Dir + "/run-1-ab: permission denied"
		l.Hint = "run warden as root"
	}
	t := okTrial()
	t.Cgroup = ""
	t.Unenforced = []string{memoryFallback, pidsFallback}
	return f, t
}

// The notes of a run without cgroups, as the rlimit fallback writes them.
const (
	memoryFallback = "default memory 4GiB for the whole sandbox: no cgroup (mkdir " + memDir + "/run-2-cd: permission denied)" +
		"; instead each process may hold at most 4GiB of private writable memory (RLIMIT_DATA)"
	pidsFallback = "default pids 1024 for the whole sandbox: no cgroup (mkdir " + pidsDir + "/run-2-cd: permission denied)" +
		"; instead RLIMIT_NPROC 1088: at most 1088 processes and threads in the sandbox's user namespace"
	pidsRoot = "default pids 1024 for the whole sandbox: no cgroup (write pids.max: invalid argument)" +
		"; not enforced: RLIMIT_NPROC does not apply to root"
)

// row is what most cases compare: which row says what.
type row struct {
	Layer, When string
	Status      sandbox.Enforcement
}

func rows(cs []sandbox.Coverage) []row {
	var out []row
	for _, c := range cs {
		out = append(out, row{c.Layer, c.When, c.Status})
	}
	return out
}

// matrix builds the expected rows: every row status def, except those
// named in over ("layer" or "layer/when").
func matrix(def sandbox.Enforcement, over map[string]sandbox.Enforcement) []row {
	rs := []row{
		{"filesystem", "every run", def}, {"home", "home: visible", def}, {"home", "home: hidden", def},
		{"landlock", "every run", def}, {"seccomp", "every run", def},
		{"network", "every run", def}, {"processes", "every run", def}, {"identity", "every run", def},
		{"memory", "default 4GiB", def}, {"memory", "limits.memory", def},
		{"pids", "default 1024", def}, {"pids", "limits.pids", def},
		{"cpu", "limits.cpu", def},
		{"rlimits", "every run", def}, {"timeout", "--timeout, limits.timeout", def},
		{"egress", "every run", def},
	}
	for i, r := range rs {
		if s, ok := over[r.Layer+"/"+r.When]; ok {
			rs[i].Status = s
		} else if s, ok := over[r.Layer]; ok {
			rs[i].Status = s
		}
	}
	return rs
}

func TestAssess(t *testing.T) {
	const (
		E  = sandbox.Enforced
		FC = sandbox.FailsClosed
		NE = sandbox.NotEnforced
		FB = sandbox.FallbackOnly
		U  = sandbox.Unverified
	)
	failedTrial := func(what, hint string) sandbox.Trial {
		return sandbox.Trial{Ran: true, Argv: []string{"/bin/true"}, SetupFailed: true, Error: what, Hint: hint, Unenforced: []string{}}
	}
	for _, tt := range []struct {
		name  string
		facts func() sandbox.HostFacts
		trial sandbox.Trial
		want  []row
	}{
		{
			name: "root with cgroup v1", facts: rootHost, trial: okTrial(),
			want: matrix(E, nil),
		},
		{
			name: "unprivileged without cgroups",
			facts: func() sandbox.HostFacts {
				f, _ := nobodyHost()
				return f
			},
			trial: func() sandbox.Trial { _, t := nobodyHost(); return t }(),
			want: matrix(E, map[string]sandbox.Enforcement{
				"memory/default 4GiB": FB, "memory/limits.memory": FC,
				"pids/default 1024": FB, "pids/limits.pids": FC, "cpu": FC,
			}),
		},
		{
			name: "root without a pids cgroup: no fallback for root",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Cgroups.Limits[1].OK = false
				f.Cgroups.Limits[1].Error = "cgroup pids 1024: write pids.max: invalid argument"
				f.Cgroups.Limits[1].Hint = "remove limits.pids from the policy"
				return f
			},
			trial: func() sandbox.Trial {
				t := okTrial()
				t.Unenforced = []string{pidsRoot}
				return t
			}(),
			want: matrix(E, map[string]sandbox.Enforcement{"pids/default 1024": NE, "pids/limits.pids": FC}),
		},
		{
			name: "root on a filesystem without idmapped mounts: identity fails closed",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Identity.Idmap = &sandbox.IdmapTrial{Dir: "/tmp/x", Error: "unprivileged identity for a root caller: idmapped mount of /tmp/x: mount_setattr: invalid argument"}
				return f
			},
			trial: failedTrial("unprivileged identity for a root caller: idmapped mount of /tmp/x: mount_setattr: invalid argument", "idmapped mounts need Linux 5.12"),
			want:  matrix(U, map[string]sandbox.Enforcement{"identity": FC}),
		},
		{
			name: "root without an idmap trial, yet the trial ran: disagreement",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Identity.Idmap = nil
				return f
			},
			trial: okTrial(),
			want:  matrix(E, map[string]sandbox.Enforcement{"identity": U}),
		},
		{
			name: "no Landlock: the run stops at landlock, later layers unseen",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Landlock = sandbox.LandlockFacts{Error: "operation not supported"}
				return f
			},
			trial: failedTrial("landlock: not available on this kernel: operation not supported", "Linux 5.13 or newer"),
			want:  matrix(U, map[string]sandbox.Enforcement{"landlock": FC}),
		},
		{
			name: "Landlock missing by the facts, yet the trial ran: disagreement",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Landlock = sandbox.LandlockFacts{}
				return f
			},
			trial: okTrial(),
			want:  matrix(E, map[string]sandbox.Enforcement{"landlock": U}),
		},
		{
			name: "no user namespaces for this user",
			facts: func() sandbox.HostFacts {
				f, _ := nobodyHost()
				f.Namespaces = sandbox.NamespaceFacts{Error: "cannot create the sandbox namespaces: fork/exec /bin/true: operation not permitted"}
				return f
			},
			trial: failedTrial("cannot create the sandbox namespaces: fork/exec /proc/self/exe: operation not permitted", "allow unprivileged user namespaces"),
			want: matrix(U, map[string]sandbox.Enforcement{
				"filesystem": FC, "home": FC, "network": FC, "processes": FC, "identity": FC, "timeout": FC, "egress": FC,
				"memory/limits.memory": FC, "pids/limits.pids": FC, "cpu": FC,
			}),
		},
		{
			name: "seccomp without kill_process: fails closed from the facts alone",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Seccomp.Missing = []string{"kill_process"}
				return f
			},
			trial: failedTrial("seccomp filter: seccomp(SECCOMP_SET_MODE_FILTER): invalid argument", "the kernel must support seccomp filters"),
			want:  matrix(U, map[string]sandbox.Enforcement{"seccomp": FC}),
		},
		{
			name:  "init fails at an unknown stage: nothing is claimed",
			facts: rootHost,
			trial: failedTrial("sandbox init ended without a report (exit status 2)", "this is a bug in warden; please report it"),
			want:  matrix(U, nil),
		},
		{
			name:  "no trial run",
			facts: rootHost,
			trial: sandbox.Trial{Error: "make a project directory: read-only file system", Unenforced: []string{}},
			want:  matrix(U, nil),
		},
		{
			name:  "a default cgroup that cannot be joined stops every run",
			facts: rootHost,
			trial: failedTrial("join cgroup "+memDir+"/run-9-ef: permission denied", "run warden as root or in a delegated cgroup"),
			want:  matrix(U, map[string]sandbox.Enforcement{"memory": FC}),
		},
		{
			name:  "the trial skipped a default the cgroup trial could make",
			facts: rootHost,
			trial: func() sandbox.Trial {
				t := okTrial()
				t.Unenforced = []string{memoryFallback}
				return t
			}(),
			want: matrix(E, map[string]sandbox.Enforcement{"memory/default 4GiB": FB, "memory/limits.memory": U}),
		},
		{
			name: "the trial made a default cgroup the cgroup trial could not",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Cgroups.Limits[1].OK = false
				f.Cgroups.Limits[1].Error = "cgroup pids 1024: write pids.max: invalid argument"
				return f
			},
			trial: okTrial(),
			want:  matrix(E, map[string]sandbox.Enforcement{"pids": U}),
		},
		{
			name:  "a note the matrix cannot attribute: nothing is vouched for",
			facts: rootHost,
			trial: func() sandbox.Trial {
				t := okTrial()
				t.Unenforced = []string{"sensitive files of the project past its first 100000 entries are not masked"}
				return t
			}(),
			want: matrix(U, nil),
		},
		{
			name: "a cgroup trial doctor could not finish",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Cgroups.Limits[2] = sandbox.CgroupTrial{Limit: "cpu", Value: "1", Version: "v1", Dir: cpuDir,
					Error: "joining not tried: no cat to stand for init"}
				return f
			},
			trial: okTrial(),
			want:  matrix(E, map[string]sandbox.Enforcement{"cpu": U}),
		},
		{
			name: "cgroup v2 trial for memory while the run used v1",
			facts: func() sandbox.HostFacts {
				f := rootHost()
				f.Cgroups.Limits[0].Version = "v2"
				return f
			},
			trial: okTrial(),
			want:  matrix(E, map[string]sandbox.Enforcement{"memory/default 4GiB": U}),
		},
		{
			name: "a hard open-file limit below the default",
			facts: func() sandbox.HostFacts {
				f, _ := nobodyHost()
				f.Rlimits[0].Hard = 512
				return f
			},
			trial: failedTrial("rlimit nofile 1024: operation not permitted", "limits.nofile is above what this user may set"),
			want: matrix(U, map[string]sandbox.Enforcement{
				"rlimits": FC, "memory/limits.memory": FC, "pids/limits.pids": FC, "cpu": FC,
			}),
		},
		{
			name: "not Linux",
			facts: func() sandbox.HostFacts {
				return sandbox.HostFacts{OS: "darwin", Arch: "arm64", UID: 501}
			},
			trial: sandbox.Trial{Error: "not Linux: nothing can be contained"},
			want:  matrix(FC, nil),
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.facts()
			got := sandbox.Assess(f, tt.trial)
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" {
				t.Errorf("Assess: rows differ (-want +got):\n%s", diff)
			}
			for _, c := range got {
				// The one unforgivable failure: claiming what the
				// trial did not show.
				if c.Status == sandbox.Enforced && !tt.trial.OK {
					t.Errorf("%s (%s) is enforced although the trial run failed", c.Layer, c.When)
				}
				if c.Finding() && c.Hint == "" && c.Status != sandbox.Unverified {
					t.Errorf("%s (%s) is %s without a hint", c.Layer, c.When, c.Status)
				}
				if c.Status != sandbox.Enforced && c.Status != sandbox.NotContained && c.Detail == "" {
					t.Errorf("%s (%s) is %s without saying why", c.Layer, c.When, c.Status)
				}
			}
		})
	}
}

// find returns the row of layer for runs when.
func find(t *testing.T, cs []sandbox.Coverage, layer, when string) sandbox.Coverage {
	t.Helper()
	for _, c := range cs {
		if c.Layer == layer && c.When == when {
			return c
		}
	}
	t.Fatalf("no row %s (%s) in %v", layer, when, rows(cs))
	return sandbox.Coverage{}
}

func TestAssessRows(t *testing.T) {
	f, tr := nobodyHost()
	nobody := sandbox.Assess(f, tr)
	root := sandbox.Assess(rootHost(), okTrial())
	noLandlock := func() []sandbox.Coverage {
		f := rootHost()
		f.Landlock = sandbox.LandlockFacts{Error: "operation not supported"}
		return sandbox.Assess(f, sandbox.Trial{Ran: true, SetupFailed: true,
			Error: "landlock: not available on this kernel: operation not supported", Hint: "Linux 5.13 or newer"})
	}()
	abi9 := func() []sandbox.Coverage {
		f := rootHost()
		f.Landlock = sandbox.LandlockFacts{ABI: 9, Used: 9, Scoping: true, UnixSockets: true, Filesystem: []string{"execute", "resolve_unix"}}
		return sandbox.Assess(f, okTrial())
	}()
	for _, tt := range []struct {
		name string
		got  sandbox.Coverage
		want sandbox.Coverage
	}{
		{
			name: "requested memory as a user without cgroups",
			got:  find(t, nobody, "memory", "limits.memory"),
			want: sandbox.Coverage{Layer: "memory", When: "limits.memory", Status: sandbox.FailsClosed,
				Mechanism: "cgroup v1 memory under " + memDir + ", swap off",
				Detail:    "a run whose policy sets limits.memory stops with 125: sandbox unavailable: cgroup memory 4GiB: mkdir " + memDir + "/run-1-ab: permission denied",
				Hint:      "run warden as root; or, by choice, run with --degraded=cgroup, which falls back to per-process rlimits and says what they bound",
				Degraded:  sandbox.LayerCgroup},
		},
		{
			name: "default memory as a user without cgroups",
			got:  find(t, nobody, "memory", "default 4GiB"),
			want: sandbox.Coverage{Layer: "memory", When: "default 4GiB", Status: sandbox.FallbackOnly,
				Mechanism: "none: no cgroup can be made",
				Fallback:  "each process may hold at most 4GiB of private writable memory (RLIMIT_DATA)",
				Detail:    "a run whose policy does not set limits.memory says so: " + memoryFallback,
				Hint:      "give warden a cgroup: run it as root, or inside a delegated cgroup v2 subtree (e.g. systemd-run --user --scope -p Delegate=yes warden run ...)"},
		},
		{
			name: "cpu as root",
			got:  find(t, root, "cpu", "limits.cpu"),
			want: sandbox.Coverage{Layer: "cpu", When: "limits.cpu", Status: sandbox.Enforced, Degraded: sandbox.LayerCgroup,
				Mechanism: "cgroup v1 cpu under " + cpuDir, Detail: "no CPU limit unless the policy sets one"},
		},
		{
			name: "Landlock missing: fails closed, and --degraded is a choice",
			got:  find(t, noLandlock, "landlock", "every run"),
			want: sandbox.Coverage{Layer: "landlock", When: "every run", Status: sandbox.FailsClosed, Degraded: sandbox.LayerLandlock,
				Mechanism: "Landlock",
				Detail:    "a run stops with 125: sandbox unavailable: landlock: not available on this kernel: operation not supported",
				Hint:      "Linux 5.13 or newer; or, by choice, run with --degraded=landlock"},
		},
		{
			name: "seccomp with refused calls recorded",
			got: find(t, sandbox.Assess(rootHost(), func() sandbox.Trial {
				t := okTrial()
				t.BlockedHow = "seccomp user notification"
				return t
			}()), "seccomp", "every run"),
			want: sandbox.Coverage{Layer: "seccomp", When: "every run", Status: sandbox.Enforced, Degraded: sandbox.LayerSeccomp,
				Mechanism: "seccomp filter for amd64 (57 calls): other syscall ABIs kill the process, the listed calls fail with EPERM",
				Detail: "also refuses Unix sockets (but stream and seqpacket pairs), VM sockets and every address family but inet, inet6 and netlink; " +
					"refused calls are recorded (seccomp user notification); absent only by choice: --degraded=seccomp"},
		},
		{
			name: "Landlock ABI 7 says what it leaves open",
			got:  find(t, root, "landlock", "every run"),
			want: sandbox.Coverage{Layer: "landlock", When: "every run", Status: sandbox.Enforced, Degraded: sandbox.LayerLandlock,
				Mechanism: "Landlock ABI 7: writes only to the writable binds (the project, read_write paths, the run cache), /tmp, /dev/shm, /run and four devices; no device nodes",
				Detail: "rights handled: execute, write_file, read_file; " +
					"signals and abstract Unix sockets cannot reach outside the sandbox (scoping, ABI 6); " +
					"below ABI 9 Landlock does not control connecting to pathname Unix sockets: the seccomp filter, which refuses Unix sockets but connected pairs, does; " +
					"absent only by choice: --degraded=landlock"},
		},
		{
			name: "Landlock ABI 9 controls pathname sockets",
			got:  find(t, abi9, "landlock", "every run"),
			want: sandbox.Coverage{Layer: "landlock", When: "every run", Status: sandbox.Enforced, Degraded: sandbox.LayerLandlock,
				Mechanism: "Landlock ABI 9: writes only to the writable binds (the project, read_write paths, the run cache), /tmp, /dev/shm, /run and four devices; no device nodes",
				Detail: "rights handled: execute, resolve_unix; " +
					"signals and abstract Unix sockets cannot reach outside the sandbox (scoping, ABI 6); " +
					"absent only by choice: --degraded=landlock"},
		},
		{
			name: "the egress proxy is the only way out",
			got:  find(t, root, "egress", "every run"),
			want: sandbox.Coverage{Layer: "egress", When: "every run", Status: sandbox.Enforced,
				Mechanism: "the egress proxy and DNS stub in the warden parent, outside the sandbox, on sockets bound inside its network namespace: " +
					"the policy's network rules decide (default deny), names resolved once outside, only checked addresses dialed",
				Detail: "without network rules in the policy nothing is reachable; loopback, link-local and metadata addresses never are"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("row differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFindings(t *testing.T) {
	root := sandbox.HostReport{Matrix: sandbox.Assess(rootHost(), okTrial())}
	if got := root.Findings(); len(got) != 0 {
		t.Errorf("Findings() on a host that enforces everything = %v, want none", rows(got))
	}
	f, tr := nobodyHost()
	nobody := sandbox.HostReport{Matrix: sandbox.Assess(f, tr)}
	var got []string
	for _, c := range nobody.Findings() {
		got = append(got, c.Layer+" ("+c.When+")")
	}
	want := []string{"memory (default 4GiB)", "memory (limits.memory)", "pids (default 1024)", "pids (limits.pids)", "cpu (limits.cpu)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Findings() differ (-want +got):\n%s", diff)
	}
	for _, s := range []sandbox.Enforcement{sandbox.FailsClosed, sandbox.NotEnforced, sandbox.FallbackOnly, sandbox.Unverified} {
		if !(sandbox.Coverage{Status: s}).Finding() {
			t.Errorf("a row that is %s is not a finding", s)
		}
	}
}

func TestAssessDefaultMemoryHalfRAM(t *testing.T) {
	f := rootHost()
	f.Cgroups.DefaultMemory = 1 << 30
	got := sandbox.Assess(f, okTrial())
	if c := find(t, got, "memory", "default 1GiB (half the RAM)"); !strings.Contains(c.Mechanism, "cgroup v1 memory") {
		t.Errorf("default memory row %+v", c)
	}
}

// The seccomp row says which sockets the filter refuses; that sentence is
// the rule table's socket and socketpair entries, checked here.
func TestAssessSeccompSocketClaim(t *testing.T) {
	const afUnix, afInet, afInet6, afNetlink = 1, 2, 10, 16
	want := map[string][]seccomp.Cond{
		// Anything but inet, inet6 and netlink is refused.
		"socket": {{seccomp.Eq(0, afInet)}, {seccomp.Eq(0, afInet6)}, {seccomp.Eq(0, afNetlink)}},
		// Unix pairs only (datagram ones are refused by If).
		"socketpair": {{seccomp.Eq(0, afUnix)}},
	}
	for _, r := range seccomp.Rules {
		if w, ok := want[r.Syscall]; ok {
			if r.Action != seccomp.Deny {
				t.Errorf("%s: action %v, want a denial", r.Syscall, r.Action)
			}
			if diff := cmp.Diff(w, r.Unless); diff != "" {
				t.Errorf("%s: the families allowed changed; update the seccomp row of the matrix (-want +got):\n%s", r.Syscall, diff)
			}
			delete(want, r.Syscall)
		}
	}
	for name := range want {
		t.Errorf("no %s rule in the table", name)
	}
}

// A cgroup that was made but cannot be joined stops every run, with or
// without --degraded=cgroup: the hint must not offer it.
func TestAssessJoinFailureHint(t *testing.T) {
	got := sandbox.Assess(rootHost(), sandbox.Trial{Ran: true, SetupFailed: true, Unenforced: []string{},
		Error: "join cgroup " + memDir + "/run-9-ef: permission denied", Hint: "run warden as root or in a delegated cgroup"})
	for _, when := range []string{"default 4GiB", "limits.memory"} {
		c := find(t, got, "memory", when)
		if c.Status != sandbox.FailsClosed || strings.Contains(c.Hint, "--degraded") {
			t.Errorf("memory (%s): %s, hint %q; want fails closed without --degraded", when, c.Status, c.Hint)
		}
	}
}
