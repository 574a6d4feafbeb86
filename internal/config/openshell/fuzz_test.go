// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell_test

import (
	"errors"
	"testing"
	"time"

	"warden.dev/warden/internal/config/openshell"
	"warden.dev/warden/internal/netpolicy"
)

// FuzzParse checks, for any input, that Parse does not panic; that an
// error comes alone and is a *ParseError with a position in the file;
// that a policy it accepts can be asked about connections and requests
// without panicking; and that the rules Import gives it compile. Seeds are the corpus policies.
func FuzzParse(f *testing.F) {
	for _, cf := range loadCorpus(f) {
		f.Add([]byte(cf.Policy))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := openshell.Parse("fuzz.yaml", src)
		if err != nil {
			if p != nil {
				t.Fatalf("Parse returned a policy with error %v", err)
			}
			var pe *openshell.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if pe.Line < 1 || pe.Col < 1 || pe.File != "fuzz.yaml" {
				t.Fatalf("error has a bad position: %#v", pe)
			}
			return
		}
		for _, o := range []openshell.Options{{}, {EndpointOnly: true}} {
			rules := openshell.Import(p, o).Rules
			if _, err := netpolicy.Compile(rules); err != nil {
				t.Fatalf("Import's rules do not compile: %v", err)
			}
			// What is imported exports to a file OpenShell reads.
			if _, err := openshell.ExportNetwork(rules, time.Unix(0, 0)); err != nil {
				t.Fatal(err)
			}
		}
		ev := openshell.NewEvaluator(p, openshell.Options{})
		for _, np := range p.Network {
			for _, e := range np.Endpoints {
				host := e.Host
				if host == "" {
					host = "any.example"
				}
				for _, b := range np.Binaries {
					c := openshell.Conn{Host: host, Port: e.Ports[0], Binary: b.Path}
					ev.Connect(c)
					r := openshell.Request{Conn: c, Method: "GET", Target: "/a/../b%2Fc?q=1"}
					d := ev.Request(r)
					openshell.DenialBody(r, d)
				}
			}
		}
	})
}

// FuzzRequest checks, for any request, that the evaluator does not panic,
// that an allowed request's canonical path is itself canonical (judging
// it again gives the same decision), and that a denial has a reason.
func FuzzRequest(f *testing.F) {
	files := loadCorpus(f)
	cf := files["example_a.yaml"]
	p, err := openshell.Parse("example_a.yaml", []byte(cf.Policy))
	if err != nil {
		f.Fatal(err)
	}
	ev := openshell.NewEvaluator(p, openshell.Options{})
	for _, c := range cf.Cases {
		c.fill(cf.Defaults)
		f.Add(c.Host, c.Bin, c.Method, c.Target)
	}
	f.Fuzz(func(t *testing.T, host, bin, method, target string) {
		r := openshell.Request{Conn: openshell.Conn{Host: host, Port: 443, Binary: bin}, Method: method, Target: target}
		d := ev.Request(r)
		if d.Verdict != openshell.Allow && d.Reason == "" {
			t.Fatalf("%v without a reason for %+v", d.Verdict, r)
		}
		if d.Layer == openshell.L7 && d.Path != "" {
			r2 := r
			r2.Target = d.Path
			if d2 := ev.Request(r2); d2.Path != d.Path {
				t.Fatalf("canonical path %q is not canonical: judged again it is %q", d.Path, d2.Path)
			}
		}
		openshell.DenialBody(r, d)
	})
}

// FuzzParseProfile checks, for any input, that ParseProfile does not
// panic, that an error comes alone and is a *ParseError with a position,
// and that a profile it accepts composes into a policy (or is refused
// with a position) whose bound endpoints can be asked about requests.
func FuzzParseProfile(f *testing.F) {
	f.Add([]byte(githubProfile))
	f.Add([]byte("id: v\ncredentials: [{name: t, env_vars: [V], refresh: {strategy: static}}]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		pr, err := openshell.ParseProfile("fuzz.yaml", src)
		if err != nil {
			var pe *openshell.ParseError
			if pr != nil || !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("ParseProfile = %v, %#v", pr, err)
			}
			return
		}
		c, err := openshell.Compose(&openshell.Policy{Version: 1}, []*openshell.Profile{pr})
		if err != nil {
			var pe *openshell.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Compose error %T: %v", err, err)
			}
			return
		}
		for _, b := range c.Bound {
			for _, e := range b.Endpoints {
				e.Serves(e.Host, e.Ports[0], "/a/../b%2F")
			}
		}
	})
}
