// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command proctime is the measuring half of bench/sandbox.sh. It times
// commands as processes, round-robin, samples the memory of a process
// tree, and summarises WARDEN_SANDBOX_TRACE output:
//
//	proctime time -rounds N -warmup W [-gap D] [-samples FILE] [-pairs A:B,...] LINES
//	proctime mem [-interval 50ms] [-runs R] -- CMD...
//	proctime stages < TRACE
//	proctime cgjoin [-runs R] [-idle 100ms]
//	proctime serve [-tls] ADDR BYTES
//	proctime relay ADDR UPSTREAM
//
// LINES has one command per line: a label, then the argv, separated by
// tabs; NAME=value words before the command set its environment. Each round runs every line once, starting one line further on
// than the round before, so that no line always follows the same one.
// An invocation is timed from just before fork to the return of wait4,
// with stdin, stdout and stderr on /dev/null, and, with -gap, an idle
// pause after each (an agent's tool calls are spaced: a run that follows
// another at once finds part of the kernel's work already done, the RCU
// grace period of a cgroup v1 move among it); the fork, exec and wait
// overhead this adds is the same for every line and is what the
// /bin/true line measures. time prints, per line, "label median p10 p90
// runs failed" in microseconds, the warm-up rounds dropped; then, for
// each pair A:B, "pair A B median p25 p75" of A − B within the same
// round, which a change of load between rounds does not blur.
//
// mem runs CMD R times and samples its process tree (the child and all
// its descendants, through /proc/PID/task/TID/children) every interval.
// It prints the median over the runs of: the tree's peak total RSS
// (the largest sum of VmRSS seen at one sample), the last VmHWM seen of
// the child (the root of the tree) and the largest of its own children,
// and the ru_maxrss of wait4 (the largest single process of the tree,
// as GNU time's %M), in KiB.
//
// stages reads the "warden: trace:" lines of many runs (each run's lines
// start again from a small cumulative time) and prints, per stage in
// the order stages first appear, the median of its own duration and of
// the cumulative time at which it ended, in milliseconds.
//
// serve serves a file of BYTES zero bytes over HTTP (HTTPS with -tls,
// a self-signed certificate) on ADDR, at any path, ranges included.
//
// relay listens on ADDR (port 0: any, printed on stdout) and copies each
// connection's bytes both ways to a connection of its own to UPSTREAM,
// as Go's io.Copy does between two TCP sockets (splice(2)): one more hop
// with nothing judged, the floor of what any proxy costs
// (bench/proxy.sh).
//
// cgjoin measures what moving a process into a cgroup v1 costs on this
// host (warden's parent does it once per run): R times, a fresh process
// that has been left alone for the idle time is written to cgroup.procs
// of a new directory of the caller's pids hierarchy, then at once to a
// second one. It prints "first median p10 p90" and "second median p10
// p90" in microseconds. It needs root and a cgroup v1 pids hierarchy.
package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "time":
		err = timeCmd(os.Args[2:])
	case "mem":
		err = memCmd(os.Args[2:])
	case "stages":
		err = stagesCmd(os.Stdin, os.Stdout)
	case "cgjoin":
		err = cgjoinCmd(os.Args[2:])
	case "serve":
		err = serveCmd(os.Args[2:])
	case "relay":
		err = relayCmd(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "proctime: error: %v\n", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: proctime time -rounds N -warmup W [-gap D] [-samples FILE] [-pairs A:B,...] LINES | mem [-interval D] [-runs R] -- CMD... | stages < TRACE | cgjoin [-runs R] [-idle D] | serve [-tls] ADDR BYTES | relay ADDR UPSTREAM")
	os.Exit(2)
}

type line struct {
	label string
	env   []string // NAME=value, added to the environment
	path  string
	argv  []string
	us    []int64       // kept samples
	round map[int]int64 // kept samples by round
	fails int
}

func timeCmd(args []string) error {
	fs := flag.NewFlagSet("time", flag.ExitOnError)
	rounds := fs.Int("rounds", 100, "rounds to keep")
	warmup := fs.Int("warmup", 3, "rounds run first and dropped")
	samples := fs.String("samples", "", "write every kept sample, \"label round µs\", to `FILE`")
	pairs := fs.String("pairs", "", "comma-separated `A:B` label pairs whose per-round difference to print")
	gap := fs.Duration("gap", 0, "idle time after each run")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	lines, err := readLines(fs.Arg(0))
	if err != nil {
		return err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	attr := &os.ProcAttr{Env: os.Environ(), Files: []*os.File{null, null, null}}
	var sw *bufio.Writer
	if *samples != "" {
		f, err := os.Create(*samples)
		if err != nil {
			return err
		}
		defer f.Close()
		sw = bufio.NewWriter(f)
		defer sw.Flush()
	}
	for r := 0; r < *warmup+*rounds; r++ {
		for k := range lines {
			l := lines[(r+k)%len(lines)]
			us, ok := timeOnce(l, attr)
			time.Sleep(*gap)
			if r < *warmup {
				continue
			}
			if !ok {
				l.fails++
				continue
			}
			l.us = append(l.us, us)
			l.round[r] = us
			if sw != nil {
				fmt.Fprintf(sw, "%s %d %d\n", l.label, r-*warmup, us)
			}
		}
	}
	for _, l := range lines {
		slices.Sort(l.us)
		fmt.Printf("%s %d %d %d %d %d\n", l.label, pct(l.us, 50), pct(l.us, 10), pct(l.us, 90), len(l.us), l.fails)
	}
	byLabel := map[string]*line{}
	for _, l := range lines {
		byLabel[l.label] = l
	}
	for _, p := range strings.Split(*pairs, ",") {
		a, b, ok := strings.Cut(p, ":")
		la, lb := byLabel[a], byLabel[b]
		if !ok || la == nil || lb == nil {
			continue // a line that is not there (an unavailable peer)
		}
		var d []int64
		for r, ua := range la.round {
			if ub, ok := lb.round[r]; ok {
				d = append(d, ua-ub)
			}
		}
		slices.Sort(d)
		fmt.Printf("pair %s %s %d %d %d\n", a, b, pct(d, 50), pct(d, 25), pct(d, 75))
	}
	return nil
}

// timeOnce runs l once and reports its wall-clock time in microseconds and
// whether it exited with status 0.
func timeOnce(l *line, attr *os.ProcAttr) (int64, bool) {
	if len(l.env) > 0 {
		a := *attr
		a.Env = append(slices.Clip(attr.Env), l.env...)
		attr = &a
	}
	t0 := time.Now()
	p, err := os.StartProcess(l.path, l.argv, attr)
	if err != nil {
		return 0, false
	}
	st, err := p.Wait()
	us := time.Since(t0).Microseconds()
	return us, err == nil && st.Success()
}

// envWord is an environment assignment at the start of a line's command.
var envWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func readLines(name string) ([]*line, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var lines []*line
	for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(s, "\t")
		if len(f) < 2 {
			return nil, fmt.Errorf("%s: %q: want a label and a command", name, s)
		}
		// NAME=value words before the command set its environment, as
		// env(1) would without a process of its own.
		l := &line{label: f[0], round: map[int]int64{}}
		argv := f[1:]
		for len(argv) > 1 && envWord.MatchString(argv[0]) {
			l.env = append(l.env, argv[0])
			argv = argv[1:]
		}
		path, err := exec.LookPath(argv[0])
		if err != nil {
			return nil, err
		}
		l.path, l.argv = path, argv
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: no commands", name)
	}
	return lines, nil
}

// pct is the p-th percentile of sorted v, by nearest rank.
func pct(v []int64, p int) int64 {
	if len(v) == 0 {
		return 0
	}
	i := (p*len(v) + 99) / 100
	return v[max(i-1, 0)]
}

func memCmd(args []string) error {
	fs := flag.NewFlagSet("mem", flag.ExitOnError)
	interval := fs.Duration("interval", 50*time.Millisecond, "sampling interval")
	runs := fs.Int("runs", 5, "runs, of which the medians are printed")
	fs.Parse(args)
	if fs.NArg() == 0 {
		usage()
	}
	path, err := exec.LookPath(fs.Arg(0))
	if err != nil {
		return err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	var tree, root, child, maxrss []int64
	for range *runs {
		p, err := os.StartProcess(path, fs.Args(), &os.ProcAttr{Env: os.Environ(), Files: []*os.File{null, null, null}})
		if err != nil {
			return err
		}
		done := make(chan *os.ProcessState, 1)
		go func() {
			st, _ := p.Wait()
			done <- st
		}()
		var peak, hwmRoot, hwmChild int64
		tick := time.NewTicker(*interval)
		var st *os.ProcessState
		for st == nil {
			procs := treeOf(p.Pid)
			var sum int64
			for i, pr := range procs {
				sum += pr.rss
				switch {
				case i == 0:
					hwmRoot = max(hwmRoot, pr.hwm)
				case pr.parent == p.Pid:
					hwmChild = max(hwmChild, pr.hwm)
				}
			}
			peak = max(peak, sum)
			select {
			case st = <-done:
			case <-tick.C:
			}
		}
		tick.Stop()
		if !st.Success() {
			return fmt.Errorf("%q: %v", fs.Args(), st)
		}
		tree, root, child = append(tree, peak), append(root, hwmRoot), append(child, hwmChild)
		maxrss = append(maxrss, st.SysUsage().(*syscall.Rusage).Maxrss)
	}
	for _, v := range [][]int64{tree, root, child, maxrss} {
		slices.Sort(v)
	}
	fmt.Printf("tree_peak_kb %d\nroot_hwm_kb %d\nchild_hwm_kb %d\nmaxrss_kb %d\n",
		pct(tree, 50), pct(root, 50), pct(child, 50), pct(maxrss, 50))
	return nil
}

type proc struct {
	pid, parent int
	rss, hwm    int64 // KiB
}

// treeOf lists root and its descendants, root first, with their memory.
// Processes that exit while it reads are skipped.
func treeOf(root int) []proc {
	var out []proc
	var walk func(pid, parent int)
	walk = func(pid, parent int) {
		rss, hwm, err := memOf(pid)
		if err != nil {
			return
		}
		out = append(out, proc{pid, parent, rss, hwm})
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, t := range tasks {
			b, _ := os.ReadFile(t)
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					walk(c, pid)
				}
			}
		}
	}
	walk(root, 0)
	return out
}

// memOf reads VmRSS and VmHWM of pid in KiB.
func memOf(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, s := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(s, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if k == "VmRSS" {
			rss = n
		} else {
			hwm = n
		}
	}
	if rss == 0 && hwm == 0 {
		// A zombie, or a kernel thread: nothing mapped.
		return 0, 0, errors.New("no memory")
	}
	return rss, hwm, nil
}

// stagesCmd summarises trace lines such as
//
//	warden: trace:   33.820ms   29.807ms parent: rlimits, cgroup join, configuration sent
func stagesCmd(r io.Reader, w io.Writer) error {
	var order []string
	own, end := map[string][]float64{}, map[string][]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "warden: trace:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 3 {
			continue
		}
		cum, err1 := strconv.ParseFloat(strings.TrimSuffix(f[0], "ms"), 64)
		d, err2 := strconv.ParseFloat(strings.TrimSuffix(f[1], "ms"), 64)
		if err1 != nil || err2 != nil {
			continue
		}
		name := strings.Join(f[2:], " ")
		if _, seen := own[name]; !seen {
			order = append(order, name)
		}
		own[name] = append(own[name], d)
		end[name] = append(end[name], cum)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, name := range order {
		slices.Sort(own[name])
		slices.Sort(end[name])
		fmt.Fprintf(w, "%.3f\t%.3f\t%d\t%s\n", median(own[name]), median(end[name]), len(own[name]), name)
	}
	return nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func cgjoinCmd(args []string) error {
	fs := flag.NewFlagSet("cgjoin", flag.ExitOnError)
	runs := fs.Int("runs", 20, "processes to move")
	idle := fs.Duration("idle", 100*time.Millisecond, "time each process is left alone first")
	fs.Parse(args)
	own, err := ownV1Dir("pids")
	if err != nil {
		return err
	}
	var first, second []int64
	for i := range *runs {
		dirs := []string{
			filepath.Join(own, fmt.Sprintf("proctime-%d-%d-a", os.Getpid(), i)),
			filepath.Join(own, fmt.Sprintf("proctime-%d-%d-b", os.Getpid(), i)),
		}
		for _, d := range dirs {
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
		}
		c := exec.Command("sleep", "10")
		if err := c.Start(); err != nil {
			return err
		}
		time.Sleep(*idle)
		pid := []byte(strconv.Itoa(c.Process.Pid))
		var us [2]int64
		for k, d := range dirs {
			t0 := time.Now()
			err = os.WriteFile(filepath.Join(d, "cgroup.procs"), pid, 0)
			us[k] = time.Since(t0).Microseconds()
			if err != nil {
				break
			}
		}
		c.Process.Kill()
		c.Wait()
		for _, d := range dirs {
			os.Remove(d)
		}
		if err != nil {
			return err
		}
		first, second = append(first, us[0]), append(second, us[1])
	}
	slices.Sort(first)
	slices.Sort(second)
	fmt.Printf("first %d %d %d\nsecond %d %d %d\n", pct(first, 50), pct(first, 10), pct(first, 90),
		pct(second, 50), pct(second, 10), pct(second, 90))
	return nil
}

// ownV1Dir is this process's directory in the cgroup v1 hierarchy that has
// controller ctrl.
func ownV1Dir(ctrl string) (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	path := ""
	for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(s, ":", 3)
		if len(f) == 3 && slices.Contains(strings.Split(f[1], ","), ctrl) {
			path = f[2]
		}
	}
	if path == "" {
		return "", fmt.Errorf("no cgroup v1 hierarchy with %s", ctrl)
	}
	b, err = os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	for _, s := range strings.Split(string(b), "\n") {
		pre, post, ok := strings.Cut(s, " - ")
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if !ok || len(pf) < 5 || len(qf) < 3 || qf[0] != "cgroup" || !slices.Contains(strings.Split(qf[2], ","), ctrl) {
			continue
		}
		if rel, ok := strings.CutPrefix(path, pf[3]); ok {
			return filepath.Join(pf[4], rel), nil
		}
	}
	return "", fmt.Errorf("the cgroup v1 %s hierarchy is not mounted here", ctrl)
}

// serveCmd serves BYTES zero bytes at http://ADDR/bulk until killed, from
// a file (net/http sends a file with sendfile), for bench/proxy.sh's
// transfer through warden run; with -tls, at https://ADDR/bulk, with a
// certificate made at start (clients skip its verification).
func serveCmd(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	useTLS := fs.Bool("tls", false, "serve HTTPS")
	fs.Parse(args)
	args = fs.Args()
	if len(args) != 2 {
		usage()
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp("", "proctime-bulk-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Truncate(size); err != nil {
		return err
	}
	l, err := net.Listen("tcp", args[0])
	if err != nil {
		return err
	}
	f.Close()
	if *useTLS {
		cert, err := selfSigned()
		if err != nil {
			return err
		}
		l = tls.NewListener(l, &tls.Config{Certificates: []tls.Certificate{cert}})
	}
	return http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g, err := os.Open(f.Name())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer g.Close()
		http.ServeContent(w, r, "bulk", time.Time{}, g)
	}))
}

func relayCmd(args []string) error {
	if len(args) != 2 {
		usage()
	}
	l, err := net.Listen("tcp", args[0])
	if err != nil {
		return err
	}
	fmt.Println(l.Addr())
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("tcp", args[1])
			if err != nil {
				return
			}
			defer u.Close()
			done := make(chan struct{})
			go func() {
				io.Copy(u, c)
				u.(*net.TCPConn).CloseWrite()
				close(done)
			}()
			io.Copy(c, u)
			c.(*net.TCPConn).CloseWrite()
			<-done
		}()
	}
}

// selfSigned makes a certificate for serve -tls.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "proctime"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
