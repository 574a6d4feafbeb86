// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package contain

// What a run masks of Warden's own, whatever the policy says (docs/spec.md
// §13: the agent never reaches them): the files the policy's credentials
// are read from, the interception CA, Warden's state and configuration
// directories, and the hooks' state.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"warden.dev/warden/internal/config"
	"warden.dev/warden/internal/sandbox"
)

// wardenMasks lists what spec must mask of Warden's own: the files lp's
// credentials are read from (files), and the CA directory, the state and
// configuration directories, and the hook state kept with the caches
// (dirs, sandbox.Spec.MaskOwn: only Warden writes there). A run cache
// inside one of them stays visible: the directories around it are masked
// entry by entry instead.
func wardenMasks(spec sandbox.Spec, lp *config.Policy, own Dirs) (files, dirs []string, err error) {
	for _, c := range lp.File.Network.Credentials {
		if p, ok := strings.CutPrefix(c.From, "file:"); ok && p != "" {
			// As credential.Load read it: relative to warden's own
			// working directory.
			if abs, err := filepath.Abs(p); err == nil {
				files = append(files, abs)
			}
		}
	}
	ownDirs := append([]string{own.CA, own.State}, own.Config...)
	ownDirs = append(ownDirs, own.HookState)
	for _, d := range ownDirs {
		if d == "" {
			continue
		}
		if spec.Project == d || within(spec.Project, d) {
			return nil, nil, unavailable(fmt.Sprintf("sandbox unavailable: the project %s is inside %s, which Warden keeps from every run", spec.Project, d),
				"run from a project directory outside Warden's state and configuration directories")
		}
		dirs = append(dirs, maskAround(d, spec.Cache)...)
	}
	return files, dirs, nil
}

// maskAround returns dir, or, when keep is inside it, the entries of dir
// and of each directory down to keep that do not lead to keep.
func maskAround(dir, keep string) []string {
	if keep == "" || !within(keep, dir) {
		return []string{dir}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return []string{dir}
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case p == keep:
		case within(keep, p):
			out = append(out, maskAround(p, keep)...)
		default:
			out = append(out, p)
		}
	}
	return out
}

func within(p, dir string) bool {
	return dir != "" && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// maskWarden adds Warden's own secrets to spec's masks, and, with the home
// hidden, binds back the trust bundle of the CA that the command is told
// to trust.
func (p *plan) maskWarden() error {
	spec, caBundle := &p.spec, p.eg.TrustBundle()
	files, dirs, err := wardenMasks(*spec, p.lp, p.o.Dirs)
	if err != nil {
		return err
	}
	spec.Mask = append(spec.Mask, files...)
	spec.MaskOwn = append(spec.MaskOwn, dirs...)
	if spec.HideHome && caBundle != "" && !slices.Contains(spec.ReadOnly, caBundle) {
		spec.ReadOnly = append(spec.ReadOnly, caBundle)
	}
	return nil
}
