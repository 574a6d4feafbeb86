// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/policy"
)

// Sentence renders r as one English sentence, as `warden policy enumerate`
// lists it: the decision, what it applies to, its constraints, then the
// level and reason in parentheses and the id and expiry in brackets:
//
//	deny gitPush to refs main or release/** (hard; "main is protected") [protect-main]
//	allow fileDelete of paths build/** but not **/.env, at most 50 files [bulk-delete, expires 2026-12-31]
//	prompt command "npm publish" [rule-4]
//
// The level shows when it is not hard or when a reason is given. The
// scope is not part of the sentence: enumerate groups rules by scope.
func Sentence(r *policy.Rule) string {
	var b strings.Builder
	b.WriteString(r.Decision.String())
	if len(r.Command) > 0 {
		fmt.Fprintf(&b, " command %s", strconv.Quote(strings.Join(r.Command, " ")))
	} else {
		b.WriteString(" " + r.Class.String())
	}
	var parts []string
	if len(r.Paths) > 0 {
		parts = append(parts, facetPhrase("of", "path", "paths", r.Paths))
	}
	if len(r.Refs) > 0 {
		parts = append(parts, facetPhrase("to", "ref", "refs", r.Refs))
	}
	if len(r.Hosts) > 0 {
		parts = append(parts, facetPhrase("on", "host", "hosts", r.Hosts))
	}
	if len(parts) > 0 {
		b.WriteString(" " + strings.Join(parts, ", "))
	}
	// An allow holds within its limit; a restrictive rule applies beyond
	// it ("prompt when deleting more than 100 files").
	limit := "at most"
	if r.Decision != action.Allow {
		limit = "more than"
	}
	if r.MaxCount != nil {
		fmt.Fprintf(&b, ", %s %d %s", limit, *r.MaxCount, countNoun(r, *r.MaxCount))
	}
	if r.MaxCents != nil {
		fmt.Fprintf(&b, ", costing %s %s", limit, dollars(*r.MaxCents))
	}
	switch {
	case r.Reason != "":
		fmt.Fprintf(&b, " (%s; %s)", r.Level, strconv.Quote(r.Reason))
	case r.Level != policy.Hard:
		fmt.Fprintf(&b, " (%s)", r.Level)
	}
	tags := []string{}
	if r.ID != "" {
		tags = append(tags, r.ID)
	}
	if !r.Expires.IsZero() {
		tags = append(tags, "expires "+expiry(r.Expires))
	}
	if r.Provenance != "" {
		tags = append(tags, r.Provenance)
	}
	if len(tags) > 0 {
		b.WriteString(" [" + strings.Join(tags, ", ") + "]")
	}
	return b.String()
}

// facetPhrase writes a pattern list: "to refs main or release/**",
// "of paths build/** but not **/.env", "to any ref but not main".
func facetPhrase(prep, one, many string, patterns []string) string {
	var pos, neg []string
	for _, p := range patterns {
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			neg = append(neg, pattern(rest))
		} else {
			pos = append(pos, pattern(p))
		}
	}
	var s string
	// Patterns are globs, so even one names many values: the plural
	// reads right ("to refs feature/**").
	if len(pos) == 0 {
		s = prep + " any " + one
	} else {
		s = prep + " " + many + " " + strings.Join(pos, " or ")
	}
	if len(neg) > 0 {
		s += " but not " + strings.Join(neg, " or ")
	}
	return s
}

// pattern quotes a pattern when it would not read as one word.
func pattern(p string) string {
	if p == "" || p == "or" || strings.IndexFunc(p, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r) || r == ',' || r == '"'
	}) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// countNoun names what a rule's max_count counts.
func countNoun(r *policy.Rule, n int64) string {
	noun := "actions"
	switch r.Class {
	case action.FileDelete:
		noun = "files"
	case action.GitCommit:
		noun = "commits"
	case action.PackageInstall:
		noun = "packages"
	case action.VendorSyncWrite:
		noun = "records"
	}
	if n == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	return noun
}

func dollars(cents int64) string {
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}

// expiry writes a date alone when the time is midnight UTC.
func expiry(t time.Time) string {
	if _, off := t.Zone(); off == 0 && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// NetSentence renders the network rule at index i of a file's network
// section as one line, as `warden policy remember` reports a rule it
// wrote: the verdict, what it matches, and in brackets its name in
// decisions, its expiry and its provenance:
//
//	allow pypi.org, port 443 [network.rules[2], until 2026-12-02T17:52:31Z, remembered]
//	deny *.evil.example [network.rules[0]]
//	allow any host, ports 80 or 443, protocol https, methods GET or HEAD, disabled [network.rules[1]]
func NetSentence(r NetRule, i int) string {
	var parts []string
	switch {
	case r.Host != "":
		parts = append(parts, pattern(r.Host))
	case len(r.AllowedIPs) == 0:
		parts = append(parts, "any host")
	}
	if len(r.AllowedIPs) > 0 {
		parts = append(parts, "addresses in "+strings.Join(r.AllowedIPs, " or "))
	}
	ports := r.Ports
	if r.Port != 0 {
		ports = []int{r.Port}
	}
	if len(ports) > 0 {
		s := make([]string, len(ports))
		for j, p := range ports {
			s[j] = strconv.Itoa(p)
		}
		noun := "port "
		if len(ports) > 1 {
			noun = "ports "
		}
		parts = append(parts, noun+strings.Join(s, " or "))
	}
	if r.Protocol != "" {
		parts = append(parts, "protocol "+r.Protocol)
	}
	if len(r.Methods) > 0 {
		parts = append(parts, "methods "+strings.Join(r.Methods, " or "))
	}
	if r.Enabled != nil && !*r.Enabled {
		parts = append(parts, "disabled")
	}
	verb := "deny"
	if r.Action == action.Allow {
		verb = "allow"
	}
	tags := []string{fmt.Sprintf("network.rules[%d]", i)}
	if !r.Until.IsZero() {
		tags = append(tags, "until "+expiry(r.Until))
	}
	if r.Provenance != "" {
		tags = append(tags, r.Provenance)
	}
	return fmt.Sprintf("%s %s [%s]", verb, strings.Join(parts, ", "), strings.Join(tags, ", "))
}
