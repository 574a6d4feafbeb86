// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package openshell

import (
	"encoding/json"
)

// l4Body is the body of a denied connection (CONNECT) or of a denied
// plain HTTP request through the forward proxy, which has no reason.
type l4Body struct {
	Error  string `json:"error"`
	Detail string `json:"detail"`
	Reason string `json:"reason,omitempty"`
}

// l7Body is the body of a denied inspected request.
type l7Body struct {
	Error       string      `json:"error"`
	Policy      string      `json:"policy"`
	Rule        string      `json:"rule"`
	Detail      string      `json:"detail"`
	Layer       string      `json:"layer"`
	Protocol    string      `json:"protocol"`
	Method      string      `json:"method"`
	Path        string      `json:"path"`
	Host        string      `json:"host"`
	Port        int         `json:"port"`
	Binary      string      `json:"binary"`
	RuleMissing ruleMissing `json:"rule_missing"`
	NextSteps   []string    `json:"next_steps"`
}

type ruleMissing struct {
	Type   string `json:"type"`
	Layer  string `json:"layer"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Host   string `json:"host"`
	Port   int    `json:"port"`
	Binary string `json:"binary"`
}

// DenialBody returns the JSON body of OpenShell's 403 policy_denied
// response for a denied decision d of r (research note §8), or nil when d
// does not deny (an Audit is forwarded). A connection denied at L4 gets
// {error, detail: "CONNECT host:port not permitted by policy", reason}
// when r has no method, and {error, detail: "METHOD host:port/path not
// permitted by policy"} when it is a plain HTTP request. A request denied
// at L7 gets the inspected body, with next_steps empty (Warden has no
// policy advisor); such a response also carries the header
// X-OpenShell-Policy: d.Policy. The path is the canonical one, with no
// query, so that no query-borne secret is echoed.
func DenialBody(r Request, d Decision) []byte {
	if d.Verdict != Deny {
		return nil
	}
	host, err := normalHost(r.Host)
	if err != nil {
		host = r.Host
	}
	hp := hostPort(host, r.Port)
	var v any
	switch {
	case d.Layer == L4 && r.Method == "":
		v = l4Body{Error: "policy_denied", Detail: "CONNECT " + hp + " not permitted by policy", Reason: d.Reason}
	case d.Layer == L4:
		path, _, _ := cutQuery(r.Target)
		v = l4Body{Error: "policy_denied", Detail: r.Method + " " + hp + path + " not permitted by policy"}
	default:
		path := d.Path
		if path == "" {
			path, _, _ = cutQuery(r.Target)
		}
		proto := ""
		if d.Endpoint != nil {
			proto = d.Endpoint.Protocol
		}
		v = l7Body{
			Error: "policy_denied", Policy: d.Policy, Rule: r.Method + " " + path, Detail: d.Reason,
			Layer: L7, Protocol: proto, Method: r.Method, Path: path, Host: host, Port: r.Port, Binary: r.Binary,
			RuleMissing: ruleMissing{Type: proto + "_allow", Layer: L7, Method: r.Method, Path: path, Host: host, Port: r.Port, Binary: r.Binary},
			NextSteps:   []string{},
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		// The bodies are plain structs of strings and ints.
		panic("internal error: marshalling a denial: " + err.Error())
	}
	return b
}

func cutQuery(target string) (string, string, bool) {
	for i := 0; i < len(target); i++ {
		if target[i] == '?' {
			return target[:i], target[i+1:], true
		}
	}
	return target, "", false
}

// mismatchBody is the body of a request refused for carrying a
// credential's placeholder outside the credential's endpoints.
type mismatchBody struct {
	Error      string `json:"error"`
	Detail     string `json:"detail"`
	Provider   string `json:"provider"`
	Credential string `json:"credential"`
	Method     string `json:"method"`
	Path       string `json:"path"`
	Host       string `json:"host"`
	Port       int    `json:"port"`
}

// MismatchBody returns the JSON body of OpenShell's 403
// credential_endpoint_mismatch: a request to host:port carried the
// placeholder of variable, a credential of provider, outside the
// endpoints it is bound to. The path is as the request sent it, without
// its query.
func MismatchBody(provider, variable, host string, port int, method, path string) []byte {
	b, err := json.Marshal(mismatchBody{
		Error:    "credential_endpoint_mismatch",
		Detail:   "credential placeholder " + variable + " is not bound to " + method + " " + hostPort(host, port) + path,
		Provider: provider, Credential: variable, Method: method, Path: path, Host: host, Port: port,
	})
	if err != nil {
		panic("internal error: marshalling a denial: " + err.Error())
	}
	return b
}
