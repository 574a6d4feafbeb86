// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Command packaging builds Warden's Debian package: the static binary,
// a manual page per command and the shell completions (both made by the
// binary from each command's --help), and a commented example of the
// managed tier. It is a module of its own so that the packager's
// dependencies never reach Warden's.
//
//	cd packaging && go run . -out ../dist
//
// The version is -version, else the repository's "git describe", made a
// Debian version ("v1.2.3" → "1.2.3"; no tag → "0.0.0~git<commit>").
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
)

func main() {
	root := flag.String("root", "..", "the Warden repository")
	out := flag.String("out", "dist", "the directory the package is written to")
	version := flag.String("version", "", "the package's version (default: from git describe)")
	flag.Parse()
	p, err := build(*root, *out, *version)
	if err != nil {
		fmt.Fprintf(os.Stderr, "packaging: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(p)
}

// build stages the package's files and writes the .deb; it returns its
// path.
func build(root, out, version string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if version == "" {
		version = gitVersion(root)
	}
	stage, err := os.MkdirTemp("", "warden-package-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	bin := filepath.Join(stage, "warden")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/warden")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, b)
	}
	man := filepath.Join(stage, "man")
	if err := os.Mkdir(man, 0o755); err != nil {
		return "", err
	}
	if b, err := exec.Command(bin, "man", "--dir", man).CombinedOutput(); err != nil {
		return "", fmt.Errorf("warden man: %v\n%s", err, b)
	}
	contents := files.Contents{
		{Source: bin, Destination: "/usr/bin/warden", FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: filepath.Join(root, "packaging", "managed.yaml.example"), Destination: "/etc/warden/managed.yaml.example", Type: files.TypeConfigNoReplace,
			FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: filepath.Join(root, "README.md"), Destination: "/usr/share/doc/warden/README.md", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: filepath.Join(root, "packaging", "warden-serve.service"), Destination: "/usr/lib/systemd/user/warden-serve.service",
			FileInfo: &files.ContentFileInfo{Mode: 0o644}},
	}
	pages, err := os.ReadDir(man)
	if err != nil {
		return "", err
	}
	for _, p := range pages {
		gz, err := gzipFile(filepath.Join(man, p.Name()))
		if err != nil {
			return "", err
		}
		contents = append(contents, &files.Content{Source: gz, Destination: "/usr/share/man/man1/" + p.Name() + ".gz", FileInfo: &files.ContentFileInfo{Mode: 0o644}})
	}
	for _, c := range []struct{ shell, dst string }{
		{"bash", "/usr/share/bash-completion/completions/warden"},
		{"zsh", "/usr/share/zsh/vendor-completions/_warden"},
		{"fish", "/usr/share/fish/vendor_completions.d/warden.fish"},
	} {
		b, err := exec.Command(bin, "completion", c.shell).Output()
		if err != nil {
			return "", fmt.Errorf("warden completion %s: %v", c.shell, err)
		}
		src := filepath.Join(stage, "completion."+c.shell)
		if err := os.WriteFile(src, b, 0o644); err != nil {
			return "", err
		}
		contents = append(contents, &files.Content{Source: src, Destination: c.dst, FileInfo: &files.ContentFileInfo{Mode: 0o644}})
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:        "warden",
		Arch:        runtime.GOARCH,
		Platform:    "linux",
		Version:     version,
		Section:     "utils",
		Priority:    "optional",
		Maintainer:  "The Warden Authors <warden@warden.dev>",
		Description: "guardrails and containment for AI coding agents\nOne deterministic policy engine decides what an agent may ask for (agent CLI hooks, an MCP gateway); warden run puts commands behind filesystem, network, process, credential and time boundaries that hold when the policy was fooled.",
		Homepage:    "https://warden.dev",
		License:     "Apache-2.0",
		Overridables: nfpm.Overridables{
			Contents:   contents,
			Recommends: []string{"bash-completion"},
		},
	})
	if err := nfpm.Validate(info); err != nil {
		return "", err
	}
	pkgr, err := nfpm.Get("deb")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(out, pkgr.ConventionalFileName(info))
	var b bytes.Buffer
	if err := pkgr.Package(info, &b); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, b.Bytes(), 0o644)
}

// gitVersion is the Debian version of the repository's git describe.
func gitVersion(root string) string {
	cmd := exec.Command("git", "describe", "--tags", "--match", "v[0-9]*", "--always", "--dirty")
	cmd.Dir = root
	b, err := cmd.Output()
	d := strings.TrimSpace(string(b))
	switch {
	case err != nil || d == "":
		return "0.0.0~dev"
	case strings.HasPrefix(d, "v"):
		return strings.ReplaceAll(strings.TrimPrefix(d, "v"), "-", "~")
	}
	return "0.0.0~git" + strings.ReplaceAll(d, "-", "~")
}

// gzipFile writes p.gz beside p, as Debian keeps manual pages.
func gzipFile(p string) (string, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(src); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return p + ".gz", os.WriteFile(p+".gz", b.Bytes(), 0o644)
}
