// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package credential

import (
	"fmt"
	"log/slog"
)

// redactedText is what a [Redacted] prints instead of its value.
const redactedText = "[redacted]"

// Redacted holds a secret value. Every way Go has of printing or encoding
// a value — fmt with any verb (%v, %+v, %#v, %s, %q, %x), String,
// GoString, JSON, text marshalling and slog — shows "[redacted]", so a
// Redacted inside an error, a log line, an audit record or a struct dump
// never leaks the secret. [Redacted.Reveal] is the only way to the value;
// grep for it to find every place a secret is used.
//
// The zero Redacted holds no value.
type Redacted struct {
	v string
}

// NewRedacted wraps a secret value.
func NewRedacted(v string) Redacted { return Redacted{v: v} }

// Reveal returns the secret value. Call it only where the value leaves
// Warden for the place it is meant for (an upstream request), never to
// print, log or record it.
func (r Redacted) Reveal() string { return r.v }

// IsZero reports whether r holds no value (or the empty string).
func (r Redacted) IsZero() bool { return r.v == "" }

// String returns "[redacted]".
func (r Redacted) String() string { return redactedText }

// GoString returns "[redacted]", for %#v.
func (r Redacted) GoString() string { return redactedText }

// Format prints "[redacted]" for every verb and flag, so that neither %x
// nor %q nor a width shows any part or the length of the value.
func (r Redacted) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(redactedText)) }

// MarshalText returns "[redacted]"; encoding/json uses it too.
func (r Redacted) MarshalText() ([]byte, error) { return []byte(redactedText), nil }

// MarshalJSON returns the JSON string "[redacted]".
func (r Redacted) MarshalJSON() ([]byte, error) { return []byte(`"` + redactedText + `"`), nil }

// LogValue makes slog print "[redacted]".
func (r Redacted) LogValue() slog.Value { return slog.StringValue(redactedText) }
