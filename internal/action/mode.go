// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package action

// Mode is the autonomy dial of a space: a named profile over the policy,
// not a second mechanism. The empty Mode means "unset", which behaves as
// [ActWithApproval].
type Mode string

// The three autonomy modes, from least to most autonomous.
const (
	ProposeOnly     Mode = "proposeOnly"
	ActWithApproval Mode = "actWithApproval"
	ActFreely       Mode = "actFreely"
)

// ParseMode parses a mode name; only the three canonical spellings are
// accepted (the hyphenated forms are display text, not values).
func ParseMode(s string) (Mode, bool) {
	switch m := Mode(s); m {
	case ProposeOnly, ActWithApproval, ActFreely:
		return m, true
	}
	return "", false
}

// Effective returns m, or ActWithApproval when m is unset.
func (m Mode) Effective() Mode {
	if m == "" {
		return ActWithApproval
	}
	return m
}

// rank orders modes by autonomy; unset ranks as actWithApproval.
func (m Mode) rank() int {
	switch m.Effective() {
	case ProposeOnly:
		return 0
	case ActFreely:
		return 2
	}
	return 1
}

// MoreFree reports whether m grants more autonomy than o.
func (m Mode) MoreFree(o Mode) bool { return m.rank() > o.rank() }

// Least returns the less autonomous of m and o.
func (m Mode) Least(o Mode) Mode {
	if o.Effective().rank() < m.Effective().rank() {
		return o.Effective()
	}
	return m.Effective()
}
