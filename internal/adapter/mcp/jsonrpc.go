// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package mcp

// This file reads and writes JSON-RPC 2.0 messages. The rules:
//
//   - keys are matched exactly, as a JavaScript or Python server reads
//     them: encoding/json's case-insensitive struct matching would let
//     {"Name":…} be judged as one tool and run as another, so messages
//     are decoded into maps of raw values;
//   - a message the server could read otherwise than Warden is refused
//     (-32600), never forwarded: one holding, in any object however deep,
//     two keys that are one key to a reader ignoring case ("name" and
//     "Name", "params" and "paramſ", a key twice), or a key of the
//     envelope (jsonrpc, id, method, params, result, error) or of a
//     tools/call's params (name, arguments) in another case. A Go server
//     decoding into structs reads {"Method":"tools/call"} as a call that
//     Warden, reading no method, would pass as a response;
//   - a message from the client must be valid UTF-8 and valid JSON
//     (-32700 otherwise), an object with jsonrpc "2.0", an id that is a
//     string or a number when present, and a method that is a non-empty
//     string, or else a response (an id and one of result or error)
//     (-32600 otherwise);
//   - responses Warden writes are single lines with no embedded newline.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"warden.dev/warden/internal/adapter"
)

// JSON-RPC error codes Warden answers with.
const (
	CodeParse          = -32700
	CodeInvalidRequest = -32600
	CodeInvalidParams  = -32602
)

// MaxLine is the longest message a gateway reads, in bytes. A longer one
// is answered with an error and never forwarded.
const MaxLine = 16 << 20

// envelope are the keys of a JSON-RPC message.
var envelope = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// message is one JSON-RPC message, decoded shallowly.
type message struct {
	fields map[string]json.RawMessage
	// id is the raw id, nil when absent.
	id     json.RawMessage
	method string
}

// rpcError is a JSON-RPC error Warden answers a client's message with.
type rpcError struct {
	code int
	msg  string
	id   json.RawMessage // nil: null
}

// parseMessage decodes one message from the client.
func parseMessage(raw []byte) (*message, *rpcError) {
	if !utf8.Valid(raw) {
		return nil, &rpcError{code: CodeParse, msg: "parse error: the message is not valid UTF-8"}
	}
	if !json.Valid(raw) {
		return nil, &rpcError{code: CodeParse, msg: "parse error: the message is not JSON"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: a JSON-RPC message is an object"}
	}
	m := &message{fields: fields}
	var rerr *rpcError
	if id, ok := fields["id"]; ok {
		if _, ok := idKey(id); !ok {
			return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: id must be a string or a number"}
		}
		m.id = id
	}
	if err := adapter.CheckKeys(raw); err != nil {
		return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: " + err.Error() + ": a server could read the message otherwise than Warden", id: m.id}
	}
	if err := adapter.Misspelled(fields, envelope...); err != nil {
		return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: " + err.Error() + ": a server could read the message otherwise than Warden", id: m.id}
	}
	var version string
	if v, ok := fields["jsonrpc"]; !ok || json.Unmarshal(v, &version) != nil || version != "2.0" {
		rerr = &rpcError{code: CodeInvalidRequest, msg: `invalid request: jsonrpc must be "2.0"`, id: m.id}
		return nil, rerr
	}
	if raw, ok := fields["method"]; ok {
		if json.Unmarshal(raw, &m.method) != nil || m.method == "" {
			return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: method must be a non-empty string", id: m.id}
		}
		return m, nil
	}
	_, result := fields["result"]
	_, errField := fields["error"]
	if m.id == nil || result == errField {
		return nil, &rpcError{code: CodeInvalidRequest, msg: "invalid request: neither a request (no method) nor a response (an id and one of result or error)", id: m.id}
	}
	return m, nil
}

// idKey is a key that two spellings of one id share ("1", "1.0", "1e0"
// are one number; "a" and "\u0061" one string), so responses are matched
// to requests as the server sees them.
func idKey(id json.RawMessage) (string, bool) {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return "", false
	}
	switch id[0] {
	case '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return "", false
		}
		return "s:" + s, true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		f, err := strconv.ParseFloat(string(id), 64)
		if err != nil {
			return "", false
		}
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}

// marshal encodes v on one line without HTML escaping, so rewritten
// text reads as the server wrote it.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("internal error: encoding a JSON-RPC message: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func rawID(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

// ErrorResponse is a JSON-RPC error response, on one line. A nil id is
// null, as JSON-RPC wants when the id could not be read.
func ErrorResponse(id json.RawMessage, code int, msg string) []byte {
	return marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: rawID(id), Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
}

// ToolError is a tools/call response whose result is a tool error
// (isError: true) with text for the model: how the gateway refuses a
// call, so the model can adapt rather than see a protocol failure.
func ToolError(id json.RawMessage, text string) []byte {
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	return marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  struct {
			Content []content `json:"content"`
			IsError bool      `json:"isError"`
		} `json:"result"`
	}{JSONRPC: "2.0", ID: rawID(id), Result: struct {
		Content []content `json:"content"`
		IsError bool      `json:"isError"`
	}{[]content{{"text", text}}, true}})
}
