// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// buildInfo is what warden version reports: the module version (a tag
// for an installed release, "(devel)" for a build from a checkout), the
// commit and whether the tree was modified, the Go version, and the
// build settings that change the binary.
type buildInfo struct {
	Version  string            `json:"version"`
	Commit   string            `json:"commit,omitempty"`
	Modified bool              `json:"modified,omitempty"`
	Go       string            `json:"go"`
	Settings map[string]string `json:"build_settings,omitempty"`
}

func readBuildInfo() buildInfo {
	v := buildInfo{Version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	v.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "CGO_ENABLED", "-tags", "-ldflags", "-trimpath", "GOARCH", "GOOS", "GOAMD64":
			if v.Settings == nil {
				v.Settings = map[string]string{}
			}
			v.Settings[s.Key] = s.Value
		}
	}
	return v
}

func runVersion(ctx context.Context, args []string) error {
	fs := newFlags("version", "version [--json]")
	asJSON := fs.Bool("json", false, "print the version, commit, Go version and build settings as JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return badInput(fmt.Sprintf("version takes no arguments, got %q", rest[0]))
	}
	v := readBuildInfo()
	if *asJSON {
		return printJSON(v)
	}
	line := "warden " + v.Version
	if v.Commit != "" {
		c := v.Commit[:min(12, len(v.Commit))]
		if v.Modified {
			c += "+modified"
		}
		line += " (" + c + ")"
	}
	fmt.Fprintf(Stdout, "%s %s\n", line, v.Go)
	return nil
}
