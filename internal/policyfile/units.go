// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// sizeUnits are the units a size may carry. Binary units come first so
// that Format prefers them when it picks a unit itself.
var sizeUnits = []struct {
	name string
	mult int64
}{
	{"TiB", 1 << 40},
	{"GiB", 1 << 30},
	{"MiB", 1 << 20},
	{"KiB", 1 << 10},
	{"TB", 1e12},
	{"GB", 1e9},
	{"MB", 1e6},
	{"KB", 1e3},
	{"kB", 1e3},
	{"B", 1},
}

func unitMult(unit string) int64 {
	for _, u := range sizeUnits {
		if u.name == unit {
			return u.mult
		}
	}
	return 0
}

// parseSize parses a positive byte count: a bare integer, or an integer
// followed by one of the units (1GiB, 512MiB, 100MB, 1024B).
func parseSize(s string) (Size, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	if num == "" || strings.HasPrefix(unit, ".") {
		return Size{}, fmt.Errorf("%q is not a size; want a whole number with an optional unit, such as 512MiB or 1GiB", s)
	}
	if unit == "" {
		unit = "B"
	}
	mult := unitMult(unit)
	if mult == 0 {
		return Size{}, fmt.Errorf("unknown size unit %q in %q; want B, KiB, MiB, GiB, TiB, kB, MB, GB or TB", unit, s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return Size{}, fmt.Errorf("size %q is too large", s)
	}
	if n == 0 {
		return Size{}, fmt.Errorf("size must be positive, got %q", s)
	}
	return Size{Bytes: n * mult, Unit: unit}, nil
}

// String returns s as Format writes it: in its own unit when that divides
// it exactly, otherwise in the largest binary unit that does.
func (s Size) String() string {
	if m := unitMult(s.Unit); m != 0 && s.Bytes%m == 0 {
		if s.Unit == "B" {
			return strconv.FormatInt(s.Bytes, 10)
		}
		return strconv.FormatInt(s.Bytes/m, 10) + s.Unit
	}
	for _, u := range sizeUnits {
		if strings.HasSuffix(u.name, "iB") && s.Bytes != 0 && s.Bytes%u.mult == 0 {
			return strconv.FormatInt(s.Bytes/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(s.Bytes, 10)
}

// parseDuration parses a positive Go duration such as 10m or 1h30m.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return 0, fmt.Errorf("duration %q needs a unit, such as %ss", s, s)
		}
		return 0, fmt.Errorf("%q is not a duration; want a number with a unit, such as 90s, 10m or 1h30m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration must be positive, got %q", s)
	}
	return d, nil
}

// formatDuration writes d as time.Duration does, without the zero
// trailing units: 10m rather than 10m0s, 1h rather than 1h0m0s.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
