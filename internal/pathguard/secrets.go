// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package pathguard

import (
	"os"
	"path"
	"strings"
	"sync"
)

// fileID is a file's identity: device and inode.
type fileID struct{ dev, ino uint64 }

type kind uint8

const (
	kindOther kind = iota
	kindFile
	kindDir
	kindLink
)

// node is what the walk needs to know about one directory entry.
type node struct {
	kind  kind
	id    fileID
	nlink uint64
	known bool // id and nlink are valid
}

// secretFiles are the known secrets under the home directory whose device
// and inode are remembered, so that a hard link or a bind mount reaching
// them under another name is still sensitive: every file entry of the
// sensitive set without a wildcard, at the home, and the usual names of
// those with one. Made on first use.
var secretFiles = sync.OnceValue(func() []string {
	var out []string
	for _, e := range sensitiveTable {
		p := strings.TrimPrefix(e.Pattern, "~/")
		if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.ContainsAny(p, "*?") {
			continue
		}
		out = append(out, p)
	}
	return append(out,
		".cargo/credentials.toml", ".cargo/credentials",
		".terraform.d/credentials.tfrc.json",
		".m2/settings.xml", ".m2/settings-security.xml",
	)
})

// secretDirs are the directories under home whose own identity and whose
// files' identities are remembered. private-keys-v1.d is where GnuPG keeps
// the private keys themselves.
var secretDirs = []string{
	".ssh",
	".gnupg",
	".gnupg/private-keys-v1.d",
	".kube",
	".docker",
	".config/gcloud",
}

// secret names a known secret found by identity.
type secret struct {
	name string // ~/.ssh/id_rsa
	dir  bool
}

// loadSecrets stats the known secrets under home and returns them by
// identity. It is cheap on purpose: a fixed list of stats and three
// directory reads, done once per Resolver. Extra patterns anchored at / or
// ~/ without a glob are included. Errors are ignored: a secret that
// cannot be stat'ed is not present, and the name checks still apply.
func loadSecrets(home string, extra []string) map[fileID]secret {
	set := make(map[fileID]secret)
	add := func(p, name string, wantDir bool) {
		// Follow links: ~/.netrc may be a link into a vault, and the
		// vault file is the secret.
		n, err := stat(p)
		if err != nil || !n.known || (n.kind == kindDir) != wantDir || (!wantDir && n.kind != kindFile) {
			return
		}
		if _, dup := set[n.id]; !dup {
			set[n.id] = secret{name: name, dir: wantDir}
		}
	}
	if path.IsAbs(home) {
		for _, f := range secretFiles() {
			add(path.Join(home, f), "~/"+f, false)
		}
		for _, d := range secretDirs {
			dir := path.Join(home, d)
			add(dir, "~/"+d+"/", true)
			ents, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				add(path.Join(dir, e.Name()), "~/"+d+"/"+e.Name(), false)
			}
		}
	}
	for _, x := range extra {
		if strings.ContainsAny(x, "*?") {
			continue
		}
		dir := strings.HasSuffix(x, "/")
		switch {
		case strings.HasPrefix(x, "/"):
			add(x, x, dir)
		case strings.HasPrefix(x, "~/") && path.IsAbs(home):
			add(path.Join(home, x[2:]), x, dir)
		}
	}
	return set
}
