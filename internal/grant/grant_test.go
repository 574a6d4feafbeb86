// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package grant_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"warden.dev/warden/internal/grant"
)

var (
	now  = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	bind = grant.Binding{Argv: []string{"bash", "-c", "rm -rf build"}, Dir: "/p/sub", Project: "/p", Policy: "sha256:ab\x00"}
	dec  = grant.Decision{Verdict: "prompt", Rule: "builtin:fileDelete", Answered: "prompt"}
)

func issue(t *testing.T, dir string) string {
	t.Helper()
	id, err := grant.Issue(dir, bind, dec, now)
	if err != nil {
		t.Fatal(err)
	}
	if !grant.ValidID(id) {
		t.Fatalf("Issue gave id %q", id)
	}
	return id
}

// TestRedeemOnce: a grant gives its decision once; the second time the
// same id finds nothing, and the directory is left empty.
func TestRedeemOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "grants")
	id := issue(t, dir)
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("grants directory: %v %v, want mode 0700", fi, err)
	}
	got, err := grant.Redeem(dir, id, bind, now.Add(time.Minute))
	if err != nil || got != dec {
		t.Fatalf("Redeem = %+v, %v; want %+v", got, err, dec)
	}
	if _, err := grant.Redeem(dir, id, bind, now.Add(time.Minute)); !errors.Is(err, grant.ErrNotFound) {
		t.Errorf("second Redeem: %v, want ErrNotFound", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestRedeemRefuses: every grant that is not exactly the one issued for
// this binding, unexpired, is refused, and used up all the same.
func TestRedeemRefuses(t *testing.T) {
	other := func(f func(b *grant.Binding)) grant.Binding {
		b := bind
		b.Argv = append([]string(nil), bind.Argv...)
		f(&b)
		return b
	}
	for _, tt := range []struct {
		name string
		b    grant.Binding
		at   time.Time
		want error
	}{
		{"command changed", other(func(b *grant.Binding) { b.Argv[2] = "rm -rf /" }), now, grant.ErrMismatch},
		{"argument added", other(func(b *grant.Binding) { b.Argv = append(b.Argv, "x") }), now, grant.ErrMismatch},
		{"argv split differently", other(func(b *grant.Binding) { b.Argv = []string{"bash", "-c rm", "-rf build"} }), now, grant.ErrMismatch},
		{"another directory", other(func(b *grant.Binding) { b.Dir = "/p" }), now, grant.ErrMismatch},
		{"another project", other(func(b *grant.Binding) { b.Project = "/" }), now, grant.ErrMismatch},
		{"another policy", other(func(b *grant.Binding) { b.Policy = "default\x00" }), now, grant.ErrMismatch},
		{"expired", bind, now.Add(grant.TTL), grant.ErrExpired},
		{"issued in the future", bind, now.Add(-time.Second), grant.ErrExpired},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			id := issue(t, dir)
			if _, err := grant.Redeem(dir, id, tt.b, tt.at); !errors.Is(err, tt.want) {
				t.Errorf("Redeem: %v, want %v", err, tt.want)
			}
			if _, err := grant.Redeem(dir, id, bind, now); !errors.Is(err, grant.ErrNotFound) {
				t.Errorf("Redeem after a refusal: %v, want ErrNotFound (used up)", err)
			}
		})
	}
}

// TestRedeemForged: an id that was never issued, or that is not an id,
// finds nothing and touches nothing outside the directory.
func TestRedeemForged(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "grants")
	issue(t, dir)
	outside := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	os.WriteFile(outside, []byte("x"), 0o600)
	for _, id := range []string{"0123456789abcdef0123456789abcdef", "../0123456789abcdef0123456789abc", "", "0123456789ABCDEF0123456789ABCDEF", ".tmp-x"} {
		_, err := grant.Redeem(dir, id, bind, now)
		if !errors.Is(err, grant.ErrNotFound) && !errors.Is(err, grant.ErrInvalidID) {
			t.Errorf("Redeem(%q): %v, want not found or invalid", id, err)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("a file outside the directory was touched: %v", err)
	}
}

// TestRedeemPlanted: a grant file that is a link (to a real grant issued
// for the same binding, elsewhere), a hard link, or readable by others is
// refused; the link's target is left alone.
func TestRedeemPlanted(t *testing.T) {
	t.Run("symlink", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		real := issue(t, elsewhere)
		id := "0123456789abcdef0123456789abcdef"
		if err := os.Symlink(filepath.Join(elsewhere, real), filepath.Join(dir, id)); err != nil {
			t.Fatal(err)
		}
		if _, err := grant.Redeem(dir, id, bind, now); !errors.Is(err, grant.ErrUnsafe) {
			t.Errorf("Redeem of a link: %v, want ErrUnsafe", err)
		}
		if _, err := os.Stat(filepath.Join(elsewhere, real)); err != nil {
			t.Errorf("the link's target: %v, want it untouched", err)
		}
		if _, err := os.Lstat(filepath.Join(dir, id)); !os.IsNotExist(err) {
			t.Errorf("the link is still there: %v", err)
		}
	})
	t.Run("hard link", func(t *testing.T) {
		dir := t.TempDir()
		id := issue(t, dir)
		os.Link(filepath.Join(dir, id), filepath.Join(t.TempDir(), "copy"))
		if _, err := grant.Redeem(dir, id, bind, now); !errors.Is(err, grant.ErrUnsafe) {
			t.Errorf("Redeem of a hard-linked grant: %v, want ErrUnsafe", err)
		}
	})
	t.Run("readable by others", func(t *testing.T) {
		dir := t.TempDir()
		id := issue(t, dir)
		os.Chmod(filepath.Join(dir, id), 0o644)
		if _, err := grant.Redeem(dir, id, bind, now); !errors.Is(err, grant.ErrUnsafe) {
			t.Errorf("Redeem of a 0644 grant: %v, want ErrUnsafe", err)
		}
	})
	t.Run("directory is a link", func(t *testing.T) {
		root := t.TempDir()
		real := filepath.Join(root, "real")
		id := issue(t, real)
		os.Symlink(real, filepath.Join(root, "grants"))
		if _, err := grant.Redeem(filepath.Join(root, "grants"), id, bind, now); err == nil {
			t.Error("Redeem through a linked directory succeeded")
		}
		if _, err := grant.Issue(filepath.Join(root, "grants"), bind, dec, now); err == nil {
			t.Error("Issue through a linked directory succeeded")
		}
	})
	t.Run("directory others may write", func(t *testing.T) {
		dir := t.TempDir()
		id := issue(t, dir)
		os.Chmod(dir, 0o777)
		if _, err := grant.Redeem(dir, id, bind, now); !errors.Is(err, grant.ErrUnsafe) {
			t.Errorf("Redeem in a 0777 directory: %v, want ErrUnsafe", err)
		}
	})
}

// TestRedeemRace: of many redeemers of one grant, exactly one gets it.
func TestRedeemRace(t *testing.T) {
	dir := t.TempDir()
	id := issue(t, dir)
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := grant.Redeem(dir, id, bind, now); err == nil {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("%d redeemers got the grant, want 1", won)
	}
}

// TestSweep: issuing removes grants long expired and leaves fresh ones.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	old := issue(t, dir)
	old2 := time.Now().Add(-3 * grant.TTL)
	os.Chtimes(filepath.Join(dir, old), old2, old2)
	fresh := issue(t, dir)
	if _, err := grant.Issue(dir, bind, dec, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, old)); !os.IsNotExist(err) {
		t.Errorf("old grant still there: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, fresh)); err != nil {
		t.Errorf("fresh grant swept: %v", err)
	}
}
