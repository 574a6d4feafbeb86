// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
)

// ListenAndServe serves MCP's streamable HTTP transport on listen, a
// loopback address, and forwards to the streamable-HTTP server at
// upstream, until ctx ends. Its errors about listen and upstream are
// [*Error]s.
func (g *Gateway) ListenAndServe(ctx context.Context, listen, upstream string) error {
	rec, err := openRecorder(g.o.Audit, g.o.Store, g.warn)
	if err != nil {
		return err
	}
	defer rec.close()
	up, err := url.Parse(upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return &Error{Msg: fmt.Sprintf("--upstream %q is not an http or https URL", upstream)}
	}
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return &Error{Msg: fmt.Sprintf("--listen %q: %v", listen, err)}
	}
	if !loopbackHost(host) {
		return &Error{Msg: fmt.Sprintf("--listen %q is not a loopback address", listen),
			Hint: "the gateway serves only this machine: use 127.0.0.1:PORT, [::1]:PORT or localhost:PORT"}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return &Error{Msg: fmt.Sprintf("--listen: %v", err)}
	}
	if g.o.Note != nil {
		g.o.Note(fmt.Sprintf("serving http://%s/ for %s (tools of mcp:%s gated)", ln.Addr(), up, g.gate.Server))
	}
	srv := &http.Server{Handler: g.handler(rec, up, http.DefaultClient), ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving: %v", err)
	}
	return nil
}

// loopbackHost reports whether host (no port) names this machine only.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackOrigin reports whether an Origin header is absent or names a
// loopback host.
func loopbackOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && loopbackHost(u.Hostname())
}

// hopHeaders are not forwarded in either direction; the body may change
// length, and the transports set their own.
var hopHeaders = []string{"Connection", "Keep-Alive", "Transfer-Encoding", "Upgrade", "Te", "Trailer",
	"Proxy-Connection", "Proxy-Authorization", "Content-Length", "Host", "Accept-Encoding"}

func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
	for _, h := range hopHeaders {
		dst.Del(h)
	}
}

// handler is the gateway's HTTP handler, which calls the upstream up
// with client.
func (g *Gateway) handler(rec *recorder, up *url.URL, client *http.Client) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !loopbackHost(host) || !loopbackOrigin(r.Header.Get("Origin")) {
			http.Error(w, "warden: this MCP gateway serves loopback origins only", http.StatusForbidden)
			return
		}
		switch r.Method {
		case http.MethodPost:
			g.post(w, r, rec, up, client)
		case http.MethodGet, http.MethodDelete:
			resp, err := forward(r, up, client, nil)
			if err != nil {
				http.Error(w, "warden: upstream: "+err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			g.relay(w, resp, rec, &mcp.Tracker{}, nil)
		default:
			w.Header().Set("Allow", "GET, POST, DELETE")
			http.Error(w, "warden: method not allowed", http.StatusMethodNotAllowed)
		}
	})
}

// forward sends the client's request upstream, with body in place
// of the client's when not nil.
func forward(r *http.Request, up *url.URL, client *http.Client, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, up.String(), rd)
	if err != nil {
		return nil, err
	}
	copyHeaders(req.Header, r.Header)
	req.Header.Del("Origin") // the upstream is called by warden, not by a page
	return client.Do(req)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// post gates a POST: one message or a batch, answered by the gate or
// forwarded upstream.
func (g *Gateway) post(w http.ResponseWriter, r *http.Request, rec *recorder, up *url.URL, client *http.Client) {
	body, err := io.ReadAll(io.LimitReader(r.Body, mcp.MaxLine+1))
	if err != nil {
		http.Error(w, "warden: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > mcp.MaxLine {
		writeJSON(w, http.StatusRequestEntityTooLarge, mcp.ErrorResponse(nil, mcp.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than %d bytes", mcp.MaxLine)))
		return
	}
	// A body is one message: newlines inside it are JSON white space.
	tr := &mcp.Tracker{}
	out := g.gate.FromClient(bytes.TrimSpace(body), tr)
	rec.record(out.Events)
	if out.Forward == nil {
		if out.Reply == nil {
			writeJSON(w, http.StatusBadRequest, mcp.ErrorResponse(nil, mcp.CodeInvalidRequest, "invalid request: an empty body"))
			return
		}
		writeJSON(w, http.StatusOK, out.Reply)
		return
	}
	resp, err := forward(r, up, client, out.Forward)
	if err != nil {
		http.Error(w, "warden: upstream: "+err.Error(), http.StatusBadGateway)
		rec.record(tr.Drain())
		return
	}
	defer resp.Body.Close()
	g.relay(w, resp, rec, tr, out.Reply)
	rec.record(tr.Drain())
}

// relay passes the upstream's response to the client through the
// gate. extra is Warden's own answer to part of a batch, joined to the
// upstream's.
func (g *Gateway) relay(w http.ResponseWriter, resp *http.Response, rec *recorder, tr *mcp.Tracker, extra []byte) {
	copyHeaders(w.Header(), resp.Header)
	ct, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	switch strings.TrimSpace(strings.ToLower(ct)) {
	case "text/event-stream":
		w.WriteHeader(resp.StatusCode)
		fl, _ := w.(http.Flusher)
		if extra != nil {
			fmt.Fprintf(w, "data: %s\n\n", extra)
		}
		g.relaySSE(w, fl, resp.Body, rec, tr)
	case "application/json":
		data, err := io.ReadAll(io.LimitReader(resp.Body, mcp.MaxLine+1))
		if err != nil || len(data) > mcp.MaxLine {
			http.Error(w, "warden: the upstream's answer is unreadable or larger than 16 MiB", http.StatusBadGateway)
			return
		}
		out, evs := g.gate.FromServer(bytes.TrimSpace(data), tr)
		rec.record(evs)
		if extra != nil {
			out = joinBatches(out, extra)
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(append(out, '\n'))
	default:
		if extra != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			w.Write(append(extra, '\n'))
			return
		}
		// 202 for notifications and responses, errors: no JSON-RPC
		// message to gate.
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, io.LimitReader(resp.Body, mcp.MaxLine))
	}
}

// joinBatches joins two JSON-RPC answers into one batch.
func joinBatches(a, b []byte) []byte {
	var out []json.RawMessage
	for _, part := range [][]byte{a, b} {
		var elems []json.RawMessage
		if json.Unmarshal(part, &elems) != nil {
			elems = []json.RawMessage{part}
		}
		out = append(out, elems...)
	}
	data, _ := json.Marshal(out)
	return data
}

// relaySSE passes an SSE stream through the gate event by event: the
// data of each event is one JSON-RPC message; the other fields (id,
// event, retry, comments) pass unchanged.
func (g *Gateway) relaySSE(w io.Writer, fl http.Flusher, body io.Reader, rec *recorder, tr *mcp.Tracker) {
	lr := &lineReader{r: bufio.NewReaderSize(body, 64<<10), max: mcp.MaxLine}
	var fields []string
	var data []string
	size := 0
	flush := func() {
		if len(fields) == 0 && len(data) == 0 {
			return
		}
		var b strings.Builder
		for _, f := range fields {
			b.WriteString(f + "\n")
		}
		if len(data) > 0 {
			out, evs := g.gate.FromServer([]byte(strings.Join(data, "\n")), tr)
			rec.record(evs)
			for _, l := range strings.Split(string(out), "\n") {
				b.WriteString("data: " + l + "\n")
			}
		}
		b.WriteString("\n")
		io.WriteString(w, b.String())
		if fl != nil {
			fl.Flush()
		}
		fields, data, size = nil, nil, 0
	}
	for {
		line, tooLong, err := lr.next()
		if tooLong || size > mcp.MaxLine {
			g.warn(fmt.Sprintf("dropped an event from the upstream larger than %d bytes", mcp.MaxLine))
			return
		}
		if line != nil {
			l := strings.TrimSuffix(string(line), "\r")
			size += len(l)
			switch {
			case l == "":
				flush()
			case strings.HasPrefix(l, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(l, "data:"), " "))
			default:
				fields = append(fields, l)
			}
		}
		if err != nil {
			flush()
			return
		}
	}
}
