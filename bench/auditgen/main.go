// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command auditgen fills a state directory's store with N events spread
// evenly over the last D days, for bench/audit.sh: decisions of three
// agents with every verdict, network attempts and refused system calls,
// appended in batches of 10,000 through the store's own AppendBatch, so
// that the chain is a real one.
//
//	auditgen -dir STATE -n 1000000 -days 30
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/store"
)

func main() {
	dir := flag.String("dir", "", "state `directory`")
	n := flag.Int("n", 1000000, "events")
	days := flag.Int("days", 30, "spread the events over this many `days` back from now")
	flag.Parse()
	if err := run(*dir, *n, *days); err != nil {
		fmt.Fprintln(os.Stderr, "auditgen:", err)
		os.Exit(1)
	}
}

func run(dir string, n, days int) error {
	ctx := context.Background()
	s, err := store.Open(ctx, dir)
	if err != nil {
		return err
	}
	defer s.Close()
	now := time.Now()
	span := time.Duration(days) * 24 * time.Hour
	agents := []string{"claude-code", "codex", "gemini"}
	verdicts := []string{"allow", "allow", "allow", "prompt", "deny"}
	const batch = 10000
	evs := make([]audit.Event, 0, batch)
	for i := range n {
		t := now.Add(-span + time.Duration(int64(span)/int64(n)*int64(i)))
		switch i % 10 {
		case 8:
			evs = append(evs, audit.NetworkEvent(&audit.NetworkAttempt{RunID: "r", Time: t, Via: "connect", Host: "pypi.org", Port: 443,
				Method: "CONNECT", Protocol: "https", Verdict: verdicts[i%5], Rule: "pip"}))
		case 9:
			evs = append(evs, audit.SyscallEvent(t, &audit.Syscall{RunID: "r", Syscall: "ptrace", Errno: "EPERM", Count: 1, Command: "strace"}))
		default:
			v := verdicts[i%5]
			evs = append(evs, audit.DecisionEvent(t, &audit.Decision{Surface: "hook " + agents[i%3], Agent: agents[i%3], Session: "s",
				Project: "/home/u/project", Tool: "Bash", Subject: fmt.Sprintf("go test ./pkg%d/...", i%100), Classes: []string{"processSpawn"},
				Verdict: v, Answered: v, Rule: "builtin:processSpawn", Policy: "default"}))
		}
		if len(evs) == batch || i == n-1 {
			if _, err := s.AppendBatch(ctx, evs); err != nil {
				return err
			}
			evs = evs[:0]
		}
	}
	return nil
}
