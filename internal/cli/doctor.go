// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"warden.dev/warden/internal/adapter"
	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/contain"
	"warden.dev/warden/internal/hook"
	"warden.dev/warden/internal/policyfile"
	"warden.dev/warden/internal/report"
	"warden.dev/warden/internal/sandbox"
	"warden.dev/warden/internal/store"
)

//go:embed help/doctor.txt
var doctorSynopsis string

func runDoctor(ctx context.Context, args []string) error {
	fs := newFlags("doctor", doctorSynopsis)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	policyPath := fs.String("policy", "", "policy `FILE` whose sandbox.filesystem.home mode to report (default: the one discovery finds, see warden policy show)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return badInput(fmt.Sprintf("doctor takes no arguments, got %q", rest[0]), "run warden doctor, or warden doctor --json")
	}
	lp, err := loadPolicy(*policyPath)
	if err != nil {
		return err
	}
	home := homeModeInForce(lp, lp.Path)
	exempt := lp.File.Policy.Exempt
	// The trial's cache sits where runs keep theirs.
	o := sandbox.ProbeOptions{Home: homeDir()}
	if cache := ownDirs().Cache; cache != "" {
		o.CacheRoot = contain.RunCacheRoot(cache)
	}
	r := sandbox.Probe(ctx, o)
	adapters := adapter.Matrix()
	hooks, problems := installedHooks()
	rec := recordingOf(lp.File.Audit)
	if *asJSON {
		b, err := json.MarshalIndent(struct {
			sandbox.HostReport
			Adapters  []adapter.Honesty `json:"adapters"`
			Home      string            `json:"home"`
			Exempt    []string          `json:"governance_exempt"`
			Hooks     []hook.Entry      `json:"hooks"`
			Recording recording         `json:"recording"`
		}{r, adapters, string(home.mode), append([]string{}, exempt...), append([]hook.Entry{}, hooks...), rec}, "", "  ")
		if err != nil {
			return fmt.Errorf("internal error: %v", err)
		}
		fmt.Fprintf(Stdout, "%s\n", b)
	} else {
		report.WriteDoctor(Stdout, r)
		fmt.Fprintf(Stdout, "\nHome: %s\n", home.text)
		fmt.Fprintf(Stdout, "Governance paths exempted by the policy: %s\n", report.Exemptions(exempt))
		fmt.Fprintf(Stdout, "Recording: audit: %s (%s); the store %s; warden serve %s\n", rec.Audit, rec.Means, rec.Store, rec.Serve)
		fmt.Fprintf(Stdout, "Approving itself: %s\n", rec.SelfApproval)
		report.WriteAdapters(Stdout, adapters)
		report.WriteHooks(Stdout, hooks, problems)
	}
	if len(r.Findings()) > 0 {
		return errFindings
	}
	for _, e := range hooks {
		if e.Dead != "" || e.Refuses != "" || e.ShortTimeout != "" || e.OldMatcher != "" {
			return errFindings
		}
	}
	return nil
}

// installedHooks are the Warden hook entries of every agent in the
// user's settings files and the current project's, each checked that its
// command still starts; problems are the files that could not be read.
func installedHooks() (entries []hook.Entry, problems []string) {
	dir := cwd()
	for _, ag := range adapter.Agents() {
		for _, project := range []bool{false, true} {
			o := hook.InstallOptions{Project: project, Dir: dir, Home: homeDir(), Getenv: os.Getenv}
			if project && (dir == "" || dir == o.Home) {
				// The project's file is the user's, or there is none.
				continue
			}
			es, err := hook.Entries(ag, o, exec.LookPath)
			if err != nil {
				if !project || !errors.Is(err, os.ErrNotExist) {
					problems = append(problems, fmt.Sprintf("%s: %v", ag.Name(), err))
				}
				continue
			}
			entries = append(entries, es...)
		}
	}
	return entries, problems
}

// homeMode is the home mode a run is in, and what it shows, in words.
type homeMode struct {
	mode policyfile.HomeMode
	text string
}

// homeModeInForce is the home mode of the policy lp read from path (""
// for a run without --policy, which has the default).
func homeModeInForce(lp *config.Policy, path string) homeMode {
	m := policyfile.HomeVisible
	from := "the default"
	if path != "" {
		if h := lp.File.Sandbox.Filesystem.Home; h != "" {
			m, from = h, "as "+path+" sets"
		} else {
			from = "the default, which " + path + " keeps"
		}
	}
	return homeMode{m, report.Home(m, from)}
}

// recording is what doctor says of the store: the policy's audit mode and
// what it means, where the store is, and whether warden serve runs.
type recording struct {
	Audit string `json:"audit"`
	Means string `json:"means"`
	Store string `json:"store"`
	Serve string `json:"serve"`
	// SelfApproval says what keeps an agent from answering its own
	// questions, and where that rests on what.
	SelfApproval string `json:"self_approval"`
}

func recordingOf(mode policyfile.AuditMode) recording {
	r := recording{Audit: string(policyfile.AuditRequired), Means: "a decision, run or gateway that cannot be recorded is refused"}
	if mode == policyfile.AuditBestEffort {
		r.Audit, r.Means = string(mode), "what cannot be recorded is decided anyway, with a warning"
	}
	dir := contain.StateDir()
	switch {
	case dir == "":
		r.Store = "has no place: no state directory can be named (set WARDEN_STATE_DIR)"
	default:
		r.Store = "is " + filepath.Join(dir, store.DBName)
		if _, err := os.Stat(filepath.Join(dir, store.DBName)); err != nil {
			r.Store += " (not made yet)"
		}
		if store.Spooled(dir) {
			r.Store += "; hooks' decisions are spooled in " + filepath.Join(dir, store.SpoolName) + " until the next command that reads or writes the store takes them in"
		}
	}
	r.SelfApproval = "an agent contained by warden run (a hook's --wrap included) cannot reach the state directory, the socket or the token: structural; an uncontained agent at this uid is kept from them, and from warden approvals and warden serve, by the policy's floor and the shell analysis behind it only"
	r.Serve = "is not running: questions nobody in an agent can answer are denied, and every warden run starts its own sandbox"
	if serveRunning(dir) {
		r.Serve = "runs on " + filepath.Join(dir, socketName) + ": questions nobody in an agent can answer wait for a person there, and it takes what runs and hooks spool into the store every two seconds"
		if _, err := os.Stat(filepath.Join(dir, sandbox.WarmSocket)); err == nil {
			r.Serve += "; it keeps a sandbox started for the next warden run"
		}
	}
	return r
}
