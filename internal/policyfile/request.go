// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package policyfile

// This file reads and writes the tests section. A test's action is a
// [request.Request], the JSON action of docs/spec.md §11, written in YAML.
// The rules:
//
//   - the action node is checked against the JSON form of request.Request
//     first, so that every error points at its node: keys are the exact
//     JSON field names, each given once; a string field takes a YAML string
//     (not a number, boolean or null), an integer field a YAML integer and
//     a boolean field true or false; a list or mapping may be null;
//   - the node is then turned into JSON and decoded by [request.Parse], so
//     a policy test reads exactly what `warden explain` reads;
//   - an empty list is the same as no list (JSON writes neither), and tool
//     is required; everything else an action means is checked when
//     `warden policy test` builds it;
//   - [Format] writes the action from its JSON encoding, keys in the order
//     of request.Request.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"warden.dev/warden/internal/action"
	"warden.dev/warden/internal/request"
	"warden.dev/warden/internal/yamldoc"
)

var testKeys = []string{"name", "action", "expect"}

func (d *decoder) tests(n *yaml.Node) ([]Test, error) {
	items, err := d.list(n, "tests")
	if err != nil {
		return nil, err
	}
	var tests []Test
	for _, it := range items {
		t, err := d.test(it)
		if err != nil {
			return nil, err
		}
		for _, prev := range tests {
			if prev.Name == t.Name {
				return nil, d.Errorf(it, "duplicate test name %q (first at %d:%d)", t.Name, prev.Pos.Line, prev.Pos.Col)
			}
		}
		tests = append(tests, t)
	}
	return tests, nil
}

func (d *decoder) test(n *yaml.Node) (Test, error) {
	t := Test{Pos: d.pos(n)}
	fs, err := d.Fields(n, "test", testKeys, false)
	if err != nil {
		return Test{}, err
	}
	var hasExpect bool
	for _, f := range fs {
		switch f.Key {
		case "name":
			if t.Name, err = d.nonEmpty(f.V, "test name"); err != nil {
				return Test{}, err
			}
		case "action":
			if t.Action, err = d.request(f.V); err != nil {
				return Test{}, err
			}
		case "expect":
			s, err := d.oneOf(f.V, "expect", decisionNames...)
			if err != nil {
				return Test{}, err
			}
			t.Expect, _ = action.ParseVerdict(s)
			hasExpect = true
		}
	}
	switch {
	case t.Name == "":
		return Test{}, d.Errorf(n, "test needs a name")
	case t.Action == nil:
		return Test{}, d.Errorf(n, "test %q needs an action", t.Name)
	case !hasExpect:
		return Test{}, d.Errorf(n, "test %q needs expect: allow, prompt or deny", t.Name)
	}
	return t, nil
}

// requestType is the type request.Parse decodes into.
var requestType = reflect.TypeFor[request.Request]()

// request decodes a test's action, the JSON action of docs/spec.md §11.
func (d *decoder) request(n *yaml.Node) (*request.Request, error) {
	if err := d.shape(n, requestType, ""); err != nil {
		return nil, err
	}
	data, err := d.appendJSON(nil, n)
	if err != nil {
		return nil, err
	}
	r, err := request.Parse(data)
	if err != nil {
		// shape accepts only what decodes; this is a safety net for a
		// field it does not know how to check.
		return nil, d.Errorf(n, "test %v", err)
	}
	dropEmpty(reflect.ValueOf(r))
	if strings.TrimSpace(r.Tool) == "" {
		return nil, d.Errorf(n, `test action: "tool" is required`)
	}
	// Names, numbers and combinations are checked now, so lint and fmt
	// report a misspelt class; paths are resolved only when the test runs.
	if err := r.Validate(); err != nil {
		return nil, d.Errorf(n, "test %v", err)
	}
	return r, nil
}

// jsonField is a struct field as encoding/json names it.
type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists the fields of struct type t that encoding/json decodes,
// in declaration order.
func jsonFields(t reflect.Type) []jsonField {
	var fs []jsonField
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		fs = append(fs, jsonField{name, f.Type})
	}
	return fs
}

// shape checks that n fits t the way encoding/json would decode it, but
// more strictly (field names match exactly, no duplicates, no null
// scalars) and with the position of the node at fault. path names n in
// messages: "" for the action itself, then "principal.mode", "refs[1]".
// A type it does not know is left for request.Parse to check.
func (d *decoder) shape(n *yaml.Node, t reflect.Type, path string) error {
	what := "test action"
	if path != "" {
		what += ": " + path
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if yamldoc.IsNull(n) && path != "" {
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return d.Errorf(n, "%s must be a mapping, not %s", what, d.Describe(n))
		}
		fs := jsonFields(t)
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = f.name
		}
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return d.Errorf(k, "%s keys must be strings, not %s", what, d.Describe(k))
			}
			name := k.Value
			if path != "" {
				name = path + "." + k.Value
			}
			if prev, ok := seen[k.Value]; ok {
				return d.Errorf(k, "test action: duplicate field %q (first at %d:%d)", name, prev.Line, prev.Column)
			}
			seen[k.Value] = k
			var ft reflect.Type
			for _, f := range fs {
				if f.name == k.Value {
					ft = f.typ
				}
			}
			if ft == nil {
				msg := fmt.Sprintf("test action: unknown field %q", name)
				if s := Suggest(k.Value, names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", strings.TrimSuffix(name, k.Value)+s)
				}
				return d.Errorf(k, "%s", msg)
			}
			if err := d.shape(v, ft, name); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if yamldoc.IsNull(n) {
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return d.Errorf(n, "%s must be a list, not %s", what, d.Describe(n))
		}
		for i, it := range n.Content {
			if err := d.shape(it, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode || jsonScalar(n) {
			return d.Errorf(n, "%s must be a string, not %s", what, d.Describe(n))
		}
	case reflect.Bool:
		_, err := d.boolean(n, what)
		return err
	case reflect.Int64:
		_, err := d.integer(n, what, math.MinInt64, math.MaxInt64)
		return err
	}
	return nil
}

// jsonScalar reports whether the scalar n is written in JSON as something
// other than a string: a number, a boolean or null.
func jsonScalar(n *yaml.Node) bool {
	switch n.ShortTag() {
	case "!!int", "!!float", "!!bool", "!!null":
		return true
	}
	return false
}

// appendJSON appends n as JSON: a mapping as an object with its keys'
// text, a list as an array, and a scalar by its resolved YAML type, so that
// 1 is a number, true a boolean, ~ null and "1" or a date a string.
func (d *decoder) appendJSON(b []byte, n *yaml.Node) ([]byte, error) {
	var err error
	switch n.Kind {
	case yaml.MappingNode:
		b = append(b, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, d.Errorf(k, "test action keys must be strings, not %s", d.Describe(k))
			}
			if i > 0 {
				b = append(b, ',')
			}
			key, _ := json.Marshal(k.Value)
			b = append(append(b, key...), ':')
			if b, err = d.appendJSON(b, n.Content[i+1]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case yaml.SequenceNode:
		b = append(b, '[')
		for i, it := range n.Content {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = d.appendJSON(b, it); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case yaml.ScalarNode:
		var v any = n.Value
		if jsonScalar(n) {
			if err := n.Decode(&v); err != nil {
				return nil, d.Errorf(n, "test action: %s: %v", n.Value, err)
			}
		}
		text, err := json.Marshal(v)
		if err != nil {
			// Infinity and NaN have no JSON form.
			return nil, d.Errorf(n, "test action: %s is not a JSON number", n.Value)
		}
		return append(b, text...), nil
	}
	return nil, d.Errorf(n, "YAML aliases are not allowed in a policy file")
}

// dropEmpty sets the empty lists in a decoded request to nil, in its
// structs too. JSON's omitempty writes an empty list and no list alike, so
// without this Parse(Format(f)) would differ from f by [] against nil.
func dropEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			dropEmpty(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			dropEmpty(v.Field(i))
		}
	case reflect.Slice:
		if v.Len() == 0 && !v.IsNil() && v.CanSet() {
			v.SetZero()
		}
	}
}

// quotedFields are the action's fields whose strings Format always
// quotes: commands, paths, refs and addresses, like a rule's patterns.
var quotedFields = map[string]bool{
	"command": true, "commands": true, "path": true, "paths": true,
	"url": true, "refs": true, "hosts": true, "cwd": true, "project": true,
}

func formatTest(t *Test) *mapping {
	m := &mapping{block: true}
	m.add("name", str(t.Name))
	m.add("action", formatRequest(t.Action))
	m.add("expect", str(t.Expect.String()))
	return m
}

// formatRequest writes r as its JSON encoding reads in YAML: objects as
// mappings in the same key order, arrays as lists.
func formatRequest(r *request.Request) value {
	data, err := json.Marshal(r)
	if err != nil {
		panic("internal error: encoding a test action: " + err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return jsonValue(dec, "")
}

// jsonValue reads the next JSON value from dec, which holds the output of
// json.Marshal. key is the object key the value is under, at any depth of
// lists.
func jsonValue(dec *json.Decoder, key string) value {
	tok, err := dec.Token()
	if err != nil {
		panic("internal error: reading an encoded test action: " + err.Error())
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '{' {
			m := &mapping{}
			for dec.More() {
				k, _ := dec.Token()
				ks, _ := k.(string)
				m.add(ks, jsonValue(dec, ks))
			}
			dec.Token()
			return m
		}
		s := &seq{}
		for dec.More() {
			s.items = append(s.items, jsonValue(dec, key))
		}
		dec.Token()
		return s
	case string:
		if quotedFields[key] {
			return quote(tok)
		}
		return str(tok)
	case json.Number:
		return rawVal(tok.String())
	case bool:
		return rawVal(strconv.FormatBool(tok))
	}
	return rawVal("null")
}
