// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/credential"
	"warden.dev/warden/internal/egress"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/sandbox"
)

// plan is a run ready to start: the sandbox's spec, the policy it came
// from, the way out, the record, and what is held open until the end.
type plan struct {
	o        Options
	spec     sandbox.Spec
	lp       *config.Policy
	approval policyfile.ApprovalPolicy
	// timeoutSource is the record's limits.timeout_source.
	timeoutSource string
	// held is the policy file, kept open for the run: its inode number
	// cannot be given to another file while the run checks it.
	held *os.File
	// openShell is the policy file when it is an NVIDIA OpenShell
	// policy, which decides the network in place of lp's (lp is then
	// Warden's embedded default, for everything else).
	openShell *openshell.Policy
	// lossy are what the OpenShell policy asks that the run goes
	// without, as --lossy allows: in the record's degraded.
	lossy []string
	eg    *egress.Boundary
	// rec is the execution record; out where --audit-json writes it
	// (nil without), recorder the store (nil without, or when it could
	// not be opened and the policy says audit: best-effort).
	rec      *audit.Run
	out      *recordFile
	recorder Recorder
}

// newPlan builds the run from o: the spec, the policy's sandbox section,
// the timeout, the record, the way out and Warden's own masks, in that
// order, each failing closed.
func newPlan(o Options) (_ *plan, err error) {
	p := &plan{o: o}
	defer func() {
		if err != nil {
			p.close()
		}
	}()
	p.spec = sandbox.Spec{
		Argv:         o.Argv,
		Project:      o.Project,
		Mode:         sandbox.WorkspaceWrite,
		Home:         o.Home,
		Timeout:      o.Timeout,
		Stdin:        o.Stdin,
		Stdout:       o.Stdout,
		Stderr:       o.Stderr,
		Degraded:     o.Degraded,
		Terminal:     o.Terminal,
		Trace:        o.Trace,
		Signals:      o.Signals,
		SignalsReady: o.SignalsReady,
	}
	spec := &p.spec
	if spec.Project, err = Project(o.Project, o.Dir, o.Home); err != nil {
		return nil, err
	}
	spec.Dir = workDir(o.Dir, spec.Project)
	spec.Cache = runCache(o.Dirs.Cache, spec.Project)

	if err := p.loadPolicy(); err != nil {
		return nil, err
	}
	// spec.Timeout is the policy's here, when the flag is not given.
	spec.Timeout, p.timeoutSource = runTimeout(o.TimeoutSet, o.Timeout, spec.Timeout, spec.Terminal, o.Server)
	if p.timeoutSource == timeoutOff {
		o.Report.Warn("running without a timeout, as --timeout 0 asks: nothing bounds how long the run takes")
	}
	if o.RecordPath != "" {
		if p.out, err = openRecord(o.RecordPath, *spec, o.Report); err != nil {
			return nil, recordOpenError(o.RecordPath, err)
		}
	}
	// The record is made for every run: for the store, the summary of
	// what the run blocked, and --audit-json.
	p.rec = p.newRecord()
	if err := p.openRecorder(); err != nil {
		return nil, err
	}
	if m := o.Policy.Managed; m != "" {
		if abs, err := filepath.Abs(m); err == nil {
			spec.ReadOnly = append(spec.ReadOnly, abs)
		}
	}
	spec.RecordChanges = p.out != nil
	runID := p.rec.ID
	if o.Dirs.State != "" {
		// An init warden serve keeps started, when it runs.
		spec.Warm = filepath.Join(o.Dirs.State, sandbox.WarmSocket)
		// The post-run check moves what the run planted there, made
		// (0700) only when needed.
		spec.Quarantine = filepath.Join(o.Dirs.State, "quarantine", runID)
	}
	// The only way out: the egress proxy and the DNS stub, here, outside
	// the sandbox.
	if p.eg, err = p.newEgress(runID); err != nil {
		return nil, err
	}
	spec.Network = p.eg.Network()
	spec.Env = append(spec.Env, p.eg.Env()...)
	if err := p.maskWarden(); err != nil {
		return nil, err
	}
	if b := p.eg.TrustBundle(); b != "" && spec.Readable != nil {
		// Under a list of readable paths, the trust bundle the command
		// is pointed at is one.
		spec.Readable = append(spec.Readable, b)
	}
	if b := p.eg.TrustBundle(); b != "" && os.Getuid() == 0 && !slices.Contains(spec.ReadOnly, b) {
		// A root caller's command is an unprivileged uid, which cannot
		// search root's home where the trust bundle is: bound, it is
		// visible there (and read-only).
		spec.ReadOnly = append(spec.ReadOnly, b)
	}
	p.approval = policyfile.ApprovalOnRequest
	if o.PolicyPath != "" && p.lp.File.Sandbox.Approval != "" {
		p.approval = p.lp.File.Sandbox.Approval
	}
	if p.rec != nil {
		p.rec.Approval = string(p.approval)
	}
	return p, nil
}

// close releases what the plan holds.
func (p *plan) close() {
	if p.eg != nil {
		p.eg.Close()
	}
	if p.out != nil {
		p.out.abandon()
	}
	if p.held != nil {
		p.held.Close()
	}
}

// loadPolicy loads the run's policy and applies its sandbox section. The
// policy file is read from a descriptor opened one checked component at a
// time, refusing a path that is a symbolic link itself or that goes
// through one in a directory the run can write (the project and the run
// cache; planning the run checks its read_write paths too), so that a
// link planted by an earlier run cannot choose the policy; the file kept
// read-only in the run is the one read (Spec.Pinned).
func (p *plan) loadPolicy() error {
	path := p.o.PolicyPath
	if path == "" {
		if len(p.o.Providers) > 0 {
			return badInput("--provider applies to an OpenShell policy, and the run's is Warden's embedded default",
				"give the OpenShell policy with --policy")
		}
		if p.o.Default != nil {
			p.lp = p.o.Default
			return nil
		}
		var err error
		p.lp, err = config.Load("", p.o.Policy)
		return err
	}
	file, id, err := sandbox.OpenHostFile(p.spec, path)
	var le *sandbox.LinkError
	switch {
	case errors.As(err, &le):
		return unavailable(fmt.Sprintf("--policy %s: %v", path, le),
			"pass the real path of the policy file: warden run reads and protects only a file reached without a link a run could have planted")
	case err != nil:
		return badInput(fmt.Sprintf("loading policy: %v", err), "check the path given to --policy")
	}
	p.held = file
	src, err := io.ReadAll(io.LimitReader(file, policyfile.MaxSize+1))
	if err != nil {
		return badInput(fmt.Sprintf("loading policy: %s: %v", path, err))
	}
	if openshell.Detect(src) {
		if err := p.loadOpenShell(path, src); err != nil {
			return err
		}
	} else if len(p.o.Providers) > 0 {
		return badInput(fmt.Sprintf("--provider applies to an OpenShell policy, and %s is a Warden policy", path),
			"a Warden policy names its credentials under network.credentials")
	} else if p.lp, err = config.Parse(path, src, p.o.Policy); err != nil {
		return err
	}
	if p.o.PolicyRevision != "" && p.lp.Revision != p.o.PolicyRevision {
		return unavailable(fmt.Sprintf("policy %s changed while the run started (%s, was %s)", path, p.lp.Revision, p.o.PolicyRevision),
			"run it again: 'warden policy show' says which policy is in force")
	}
	if err := applySandbox(&p.spec, p.lp.File.Sandbox, !p.o.TimeoutSet); err != nil {
		return err
	}
	// The policy must not be the governed command's to rewrite: kept
	// read-only wherever it is (inside the project, it would be writable
	// otherwise), and the file kept is the one read.
	p.spec.ReadOnly = append(p.spec.ReadOnly, id.Path)
	p.spec.Pinned = append(p.spec.Pinned, id)
	return nil
}

// loadOpenShell loads an OpenShell policy file: its network policies
// decide every destination (package egress), and Warden's embedded
// default everything else. What the file asks that warden run does not
// apply yet stops the run: it never runs with less than the policy asks.
func (p *plan) loadOpenShell(path string, src []byte) error {
	osp, err := openshell.Parse(path, src)
	if err != nil {
		return badInput(err.Error(), "check the file against OpenShell's policy schema; every error names its line and column")
	}
	if osp, err = ComposeProviders(osp, p.o.Providers); err != nil {
		return err
	}
	// What the run does not apply stops it, unless --lossy: then each
	// is said on stderr and in the record (Degraded).
	var notYet error
	skip := func(pos openshell.Pos, what string) {
		if p.o.Lossy {
			p.lossy = append(p.lossy, fmt.Sprintf("openshell %s (%s)", what, pos))
			p.o.Report.Warn(fmt.Sprintf("running without %s: %s, as --lossy asks", pos, what))
			return
		}
		if notYet == nil {
			notYet = unavailable(fmt.Sprintf("sandbox unavailable: %s: %s is not applied by warden run yet (warden never runs with less than the policy asks)", pos, what),
				"remove it from the file to run with the network policies alone, run with --lossy to run without it, saying so, or translate the file with warden policy import openshell")
		}
	}
	if pr := osp.Process; pr != nil && (!sandboxUser(pr.RunAsUser) || !sandboxUser(pr.RunAsGroup)) {
		// OpenShell's "sandbox" user is an unprivileged one of its
		// own, as Warden's command is (uid 65534 inside); a number
		// asks for a uid Warden does not give.
		skip(pr.Pos, "process: run_as_user or run_as_group other than sandbox")
	}
	for _, mw := range osp.Middlewares {
		skip(mw.Pos, "network_middlewares."+mw.Key)
	}
	for _, np := range osp.Network {
		for i, e := range np.Endpoints {
			for _, opt := range e.Options {
				if opt == "credential_binding" && len(p.o.Providers) > 0 {
					// Applied: Compose bound the provider's
					// credentials to it.
					continue
				}
				skip(e.Pos, fmt.Sprintf("network_policies.%s.endpoints[%d].%s", np.Key, i, opt))
			}
		}
	}
	for _, bc := range osp.Bound {
		for _, opt := range bc.Credential.Options {
			skip(bc.Credential.Pos, fmt.Sprintf("provider %s credential %s: %s (Warden resolves placeholders with values from its environment, never mints a token, and never puts a credential in a URL path)", bc.Provider, bc.Credential.Name, opt))
		}
	}
	if notYet != nil {
		return notYet
	}
	if p.lp, err = config.Load("", p.o.Policy); err != nil {
		return err
	}
	if p.lp.Managed != nil && p.lp.Managed.Network.Set {
		return unavailable("sandbox unavailable: the managed tier has network rules, which an OpenShell policy's run does not apply yet",
			"run with a Warden policy, which the managed tier's network rules limit too")
	}
	p.openShell = osp
	if osp.Filesystem != nil {
		return p.openShellFiles(osp)
	}
	return nil
}

// ComposeProviders composes the OpenShell provider profiles in files into
// p, as OpenShell composes a sandbox's attached providers; a file that
// does not load, or a composition OpenShell refuses, is bad input.
func ComposeProviders(p *openshell.Policy, files []string) (*openshell.Policy, error) {
	if len(files) == 0 {
		// A credential_binding is then refused as not applied (or
		// left out with --lossy).
		return p, nil
	}
	var profiles []*openshell.Profile
	for _, f := range files {
		src, err := readSmall(f, policyfile.MaxSize)
		if err != nil {
			return nil, badInput(fmt.Sprintf("--provider: %v", err), "give the file openshell provider profile export ID -o yaml writes")
		}
		pr, err := openshell.ParseProfile(f, src)
		if err != nil {
			return nil, badInput(err.Error(), "check the file against OpenShell's provider profile schema; every error names its line and column")
		}
		profiles = append(profiles, pr)
	}
	c, err := openshell.Compose(p, profiles)
	if err != nil {
		return nil, badInput(err.Error(), "every credential_binding names a --provider without endpoints, and every endpoint a credential goes to is protocol: rest without tls: skip")
	}
	return c, nil
}

// readSmall reads the file at path, at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return b, nil
}

// openShellBaseline are the paths OpenShell's supervisor adds to a
// filesystem_policy, read-only (/tmp, read-write in OpenShell, is the
// sandbox's private scratch, writable anyway), and those Warden adds so
// that programs start: /bin, /sbin and /lib64, which are links into /usr
// on most systems.
var openShellBaseline = []string{"/usr", "/lib", "/etc", "/var/log", "/app", "/bin", "/sbin", "/lib64"}

// sandboxUser reports whether an OpenShell process user or group is
// what Warden's command runs as: the unprivileged "sandbox", or unset.
func sandboxUser(u string) bool { return u == "" || u == "sandbox" }

// private reports whether path is in one of the sandbox's private
// scratch mounts, which hold nothing of the host's.
func private(path string) bool {
	for _, m := range []string{"/tmp", "/dev/shm", "/run"} {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// openShellFiles applies an OpenShell filesystem_policy: the command may
// read only the baseline, read_only, read_write and (include_workdir)
// the project, and write only read_write, the project when included and
// the scratch mounts. A listed path that is missing is skipped, unless
// landlock.compatibility is hard_requirement, which stops the run.
func (p *plan) openShellFiles(osp *openshell.Policy) error {
	fs := osp.Filesystem
	readable := slices.Clone(openShellBaseline)
	for _, list := range [][]string{fs.ReadOnly, fs.ReadWrite} {
		for _, path := range list {
			if _, err := os.Stat(path); err != nil {
				if osp.Landlock == "hard_requirement" {
					return unavailable(fmt.Sprintf("sandbox unavailable: %s: filesystem_policy names %s, which cannot be reached (%v), and landlock.compatibility is hard_requirement", fs.Pos, path, err),
						"create it, remove it from the file, or say best_effort")
				}
				continue
			}
			readable = append(readable, path)
		}
	}
	for _, path := range fs.ReadWrite {
		if private(path) {
			// OpenShell's /tmp is its container's own: here it is the
			// sandbox's private scratch, writable anyway. The host's is
			// never bound in.
			continue
		}
		if _, err := os.Stat(path); err == nil {
			p.spec.ReadWrite = append(p.spec.ReadWrite, path)
		}
	}
	if fs.IncludeWorkdir {
		readable = append(readable, p.spec.Project)
	} else {
		// The project is neither readable (unless listed) nor
		// writable.
		p.spec.Mode = sandbox.ReadOnly
	}
	p.spec.Readable = readable
	return nil
}

// newEgress builds the run's way out from the policy's network section.
// A section that does not compile is bad input, as for warden net check;
// a way out that cannot be built leaves the sandbox unavailable.
func (p *plan) newEgress(runID string) (*egress.Boundary, error) {
	tiers, err := p.lp.NetTiers()
	if err != nil {
		return nil, err
	}
	var specs []credential.Spec
	for _, c := range p.lp.File.Network.Credentials {
		specs = append(specs, credential.Spec{Name: c.Name, From: c.From, Hosts: c.Hosts})
	}
	eg, err := egress.New(egress.Config{
		RunID:       runID,
		Tiers:       tiers,
		FileRules:   p.lp.File.Network.EgressRules(),
		Credentials: specs,
		CADir:       p.o.Dirs.CA,
		TrustBundle: p.o.Dirs.TrustBundle,
		HostAddrs:   p.o.HostAddrs,
		OpenShell:   p.openShell,
	})
	if err != nil {
		var ue *egress.UnavailableError
		if !errors.As(err, &ue) {
			return nil, unavailable("sandbox unavailable: " + err.Error())
		}
		var hints []string
		if ue.Hint != "" {
			hints = []string{ue.Hint}
		}
		return nil, unavailable(ue.Error(), hints...)
	}
	return eg, nil
}

// applySandbox copies what the sandbox enforces from the policy's
// sandbox section and refuses what it cannot enforce yet: warden never
// runs with less than the policy asks.
func applySandbox(spec *sandbox.Spec, sb policyfile.Sandbox, useTimeout bool) error {
	notYet := func(what string) error {
		return unavailable(fmt.Sprintf(
			"sandbox unavailable: %s is not enforced yet (remove it from the policy; warden never runs with less than the policy asks)", what))
	}
	switch sb.Mode {
	case "", policyfile.WorkspaceWrite:
	case policyfile.ReadOnly:
		spec.Mode = sandbox.ReadOnly
	case policyfile.FullAccess:
		spec.Mode = sandbox.FullAccess
	default:
		return notYet("sandbox.mode " + string(sb.Mode))
	}
	l := sb.Limits
	spec.HideHome = sb.Filesystem.Home == policyfile.HomeHidden
	for _, p := range sb.Filesystem.ReadWrite {
		spec.ReadWrite = append(spec.ReadWrite, hostPath(p, spec.Home, spec.Project))
	}
	for _, p := range sb.Filesystem.ReadOnly {
		spec.ReadOnly = append(spec.ReadOnly, hostPath(p, spec.Home, spec.Project))
	}
	spec.Protect = append(spec.Protect, sb.Filesystem.Protect...)
	// Each limit set here is enforced or the run fails (125); the ones
	// left at zero take the sandbox's defaults.
	spec.Limits = sandbox.Limits{
		Memory: l.Memory.Bytes,
		Pids:   l.Pids,
		CPU:    l.CPU,
		Nofile: l.Nofile,
		Fsize:  l.Fsize.Bytes,
		Disk:   l.Disk.Bytes,
		Inodes: l.Inodes,
		Output: l.Output.Bytes,
	}
	if useTimeout {
		spec.Timeout = l.Timeout
	}
	for _, h := range sb.Filesystem.Hide {
		// Relative entries stay relative: they are patterns matched
		// throughout the project.
		if rest, ok := strings.CutPrefix(h, "~/"); ok && spec.Home != "" {
			h = filepath.Join(spec.Home, rest)
		}
		spec.Hide = append(spec.Hide, h)
	}
	for _, name := range sb.Env.Pass {
		if v, ok := os.LookupEnv(name); ok {
			spec.Env = append(spec.Env, name+"="+v)
		}
	}
	keys := make([]string, 0, len(sb.Env.Set))
	for k := range sb.Env.Set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		spec.Env = append(spec.Env, k+"="+sb.Env.Set[k])
	}
	return nil
}

// hostPath makes a policy path absolute: "~/" is the caller's home, a
// relative path is in the project.
func hostPath(p, home, project string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if p == "~" && home != "" {
		return home
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(project, p)
	}
	return p
}

// runCache is the cache directory of runs in project, under the user's
// cache directory: one per project, so that a project's runs cannot
// poison the build caches of another's (nor the caller's own, which stay
// read-only). Empty when the user has no cache directory.
func runCache(cache, project string) string {
	if cache == "" {
		return ""
	}
	return filepath.Join(RunCacheRoot(cache), projectKey(project))
}

// RunCacheRoot is where every project's run cache is, under the user's
// cache directory.
func RunCacheRoot(cache string) string {
	return filepath.Join(cache, "warden", "run-cache")
}

func projectKey(project string) string {
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	sum := sha256.Sum256([]byte(project))
	return hex.EncodeToString(sum[:8])
}
