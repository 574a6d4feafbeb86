// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

// Package ocsf turns Warden's audit events into OCSF 1.1.0 events, for
// `warden audit export --ocsf` and whatever a security team feeds them to:
//
//   - a run's execution record: Process Activity (1007), Launch;
//   - a network attempt: DNS Activity (4003), Query, for a question to
//     the DNS stub; HTTP Activity (4002) when the proxy read an HTTP
//     method (CONNECT included); else Network Activity (4001), Open when
//     allowed and Refuse when denied;
//   - a decision on a file tool (Write, Edit, Read, write_file, replace,
//     apply_patch…): File System Activity (1001), Read, Update or Delete;
//   - a decision on any other tool, and an MCP call: API Activity (6003);
//   - a refused system call: Detection Finding (2004), Create.
//
// Each event has class_uid, category_uid, activity_id, type_uid
// (class_uid × 100 + activity_id), time (milliseconds since the epoch),
// severity_id (informational for an allow, low for a prompt, medium for a
// deny), status_id, disposition_id (allowed or blocked) and metadata
// naming Warden and the OCSF version; Warden's own event is kept whole
// under unmapped. The package does no I/O of its own: it reads events and
// returns values.
package ocsf

import (
	"net/netip"
	"strconv"
	"strings"
	"time"

	"warden.dev/warden/internal/audit"
)

// SchemaVersion is the OCSF version the events follow.
const SchemaVersion = "1.1.0"

// The classes used, with their categories.
const (
	ClassFileSystem     = 1001
	ClassProcess        = 1007
	ClassDetection      = 2004
	ClassNetwork        = 4001
	ClassHTTP           = 4002
	ClassDNS            = 4003
	ClassAPI            = 6003
	CategorySystem      = 1
	CategoryFindings    = 2
	CategoryNetwork     = 4
	CategoryApplication = 6
)

// Severity ids.
const (
	SeverityInformational = 1
	SeverityLow           = 2
	SeverityMedium        = 3
)

// Event is one OCSF event. Fields a class does not have are omitted.
type Event struct {
	ClassUID      int      `json:"class_uid"`
	ClassName     string   `json:"class_name"`
	CategoryUID   int      `json:"category_uid"`
	CategoryName  string   `json:"category_name"`
	ActivityID    int      `json:"activity_id"`
	ActivityName  string   `json:"activity_name"`
	TypeUID       int      `json:"type_uid"`
	Time          int64    `json:"time"`
	SeverityID    int      `json:"severity_id"`
	Severity      string   `json:"severity"`
	StatusID      int      `json:"status_id"`
	Status        string   `json:"status"`
	DispositionID int      `json:"disposition_id,omitempty"`
	Disposition   string   `json:"disposition,omitempty"`
	Message       string   `json:"message,omitempty"`
	Metadata      Metadata `json:"metadata"`

	Actor        *Actor        `json:"actor,omitempty"`
	Process      *Process      `json:"process,omitempty"`
	File         *File         `json:"file,omitempty"`
	API          *API          `json:"api,omitempty"`
	DstEndpoint  *Endpoint     `json:"dst_endpoint,omitempty"`
	HTTPRequest  *HTTPRequest  `json:"http_request,omitempty"`
	HTTPResponse *HTTPResponse `json:"http_response,omitempty"`
	Traffic      *Traffic      `json:"traffic,omitempty"`
	FindingInfo  *FindingInfo  `json:"finding_info,omitempty"`
	Query        *DNSQuery     `json:"query,omitempty"`

	// Unmapped is Warden's own event, whole.
	Unmapped audit.Event `json:"unmapped"`
}

// Metadata names the product and the schema version.
type Metadata struct {
	Product Product `json:"product"`
	Version string  `json:"version"`
	// UID is the event's place in Warden's store, when it has one.
	UID string `json:"uid,omitempty"`
}

// Product is Warden.
type Product struct {
	Name       string `json:"name"`
	VendorName string `json:"vendor_name"`
	Version    string `json:"version"`
}

// Actor is who acted: the agent.
type Actor struct {
	AppName string   `json:"app_name,omitempty"`
	Session *Session `json:"session,omitempty"`
}

// Session is the agent's session.
type Session struct {
	UID string `json:"uid"`
}

// Process is a process launched.
type Process struct {
	CmdLine string `json:"cmd_line,omitempty"`
	UID     string `json:"uid,omitempty"`
	// Cwd is the process's working directory: the project.
	Cwd string `json:"cwd,omitempty"`
}

// File is a file acted on.
type File struct {
	Path string `json:"path"`
	Name string `json:"name"`
}

// API is a tool call, as an API operation.
type API struct {
	Operation string   `json:"operation"`
	Service   *Service `json:"service,omitempty"`
}

// Service is the API's provider: the agent, or the MCP server.
type Service struct {
	Name string `json:"name"`
}

// Endpoint is a destination.
type Endpoint struct {
	Hostname string `json:"hostname,omitempty"`
	IP       string `json:"ip,omitempty"`
	Port     int    `json:"port,omitempty"`
}

// HTTPRequest is an HTTP request through the proxy.
type HTTPRequest struct {
	HTTPMethod string `json:"http_method"`
	URL        URL    `json:"url"`
}

// URL is a request's URL.
type URL struct {
	Hostname string `json:"hostname"`
	Port     int    `json:"port,omitempty"`
	Path     string `json:"path,omitempty"`
	Scheme   string `json:"scheme,omitempty"`
}

// HTTPResponse is the proxy's answer.
type HTTPResponse struct {
	Code int `json:"code"`
}

// DNSQuery is a question to the DNS stub.
type DNSQuery struct {
	Hostname string `json:"hostname"`
	Type     string `json:"type,omitempty"`
}

// Traffic counts bytes.
type Traffic struct {
	BytesOut int64 `json:"bytes_out"`
	BytesIn  int64 `json:"bytes_in"`
}

// FindingInfo describes a finding.
type FindingInfo struct {
	Title string   `json:"title"`
	UID   string   `json:"uid"`
	Types []string `json:"types,omitempty"`
}

// FromEvent maps ev. uid is its place in the store ("" for none);
// version is Warden's.
func FromEvent(ev audit.Event, uid, version string) Event {
	o := Event{
		Time:     ev.Time.UnixMilli(),
		Metadata: Metadata{Product: Product{Name: "Warden", VendorName: "Warden", Version: version}, Version: SchemaVersion, UID: uid},
		Unmapped: ev,
	}
	switch {
	case ev.Decision != nil:
		decision(&o, ev.Decision)
	case ev.Run != nil:
		run(&o, ev.Run)
	case ev.Network != nil:
		network(&o, ev.Network)
	case ev.MCP != nil:
		mcp(&o, ev.MCP)
	case ev.Syscall != nil:
		syscall(&o, ev.Syscall, ev.Time)
	}
	o.TypeUID = o.ClassUID*100 + o.ActivityID
	return o
}

func (o *Event) class(uid int, name string, cat int, catName string) {
	o.ClassUID, o.ClassName, o.CategoryUID, o.CategoryName = uid, name, cat, catName
}

// verdict sets severity, status and disposition from a verdict.
func (o *Event) verdict(v string) {
	switch v {
	case "allow":
		o.SeverityID, o.Severity = SeverityInformational, "Informational"
		o.StatusID, o.Status = 1, "Success"
		o.DispositionID, o.Disposition = 1, "Allowed"
	case "prompt":
		o.SeverityID, o.Severity = SeverityLow, "Low"
		o.StatusID, o.Status = 99, "Other"
		o.DispositionID, o.Disposition = 99, "Other"
	default:
		o.SeverityID, o.Severity = SeverityMedium, "Medium"
		o.StatusID, o.Status = 2, "Failure"
		o.DispositionID, o.Disposition = 2, "Blocked"
	}
}

// fileTools are the agents' tools that read or write one file, with the
// File System Activity they are.
var fileTools = map[string]int{
	"Read": 2, "read_file": 2, "read_many_files": 2,
	"Write": 3, "write_file": 3, "Edit": 3, "MultiEdit": 3, "NotebookEdit": 3, "replace": 3, "apply_patch": 3,
}

var fileActivities = map[int]string{2: "Read", 3: "Update", 4: "Delete"}

func decision(o *Event, d *audit.Decision) {
	o.verdict(d.Answered)
	o.Message = d.Tool + ": " + d.Subject
	if d.Reason != "" {
		o.Message += " (" + d.Reason + ")"
	}
	o.Actor = &Actor{AppName: d.Agent}
	if d.Session != "" {
		o.Actor.Session = &Session{UID: d.Session}
	}
	if act, ok := fileTools[d.Tool]; ok {
		for _, c := range d.Classes {
			if c == "fileDelete" {
				act = 4
			}
		}
		o.class(ClassFileSystem, "File System Activity", CategorySystem, "System Activity")
		o.ActivityID, o.ActivityName = act, fileActivities[act]
		name := d.Subject
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		o.File = &File{Path: d.Subject, Name: name}
		return
	}
	o.class(ClassAPI, "API Activity", CategoryApplication, "Application Activity")
	o.ActivityID, o.ActivityName = 99, "Other"
	o.API = &API{Operation: d.Tool, Service: &Service{Name: d.Surface}}
}

func run(o *Event, r *audit.Run) {
	o.class(ClassProcess, "Process Activity", CategorySystem, "System Activity")
	o.ActivityID, o.ActivityName = 1, "Launch"
	switch {
	case r.Denied:
		o.verdict("deny")
	default:
		o.verdict("allow")
		if r.Status != 0 {
			o.StatusID, o.Status = 2, "Failure"
		}
	}
	o.Message = "warden run: " + strings.Join(r.Command, " ") + " (status " + strconv.Itoa(r.Status) + ")"
	if r.Error != "" {
		o.Message += ": " + r.Error
	}
	o.Process = &Process{CmdLine: strings.Join(r.Command, " "), UID: r.ID, Cwd: r.Project}
	if r.Agent != "" {
		o.Actor = &Actor{AppName: r.Agent}
	}
}

// httpActivities are HTTP Activity's activity ids, by method (1.1.0 has
// no PATCH: Other).
var httpActivities = map[string]int{
	"CONNECT": 1, "DELETE": 2, "GET": 3, "HEAD": 4, "OPTIONS": 5, "POST": 6, "PUT": 7, "TRACE": 8,
}

func network(o *Event, a *audit.NetworkAttempt) {
	o.verdict(a.Verdict)
	o.DstEndpoint = &Endpoint{Hostname: a.Host, Port: a.Port}
	if ap, err := netip.ParseAddrPort(a.Addr); err == nil {
		o.DstEndpoint.IP = ap.Addr().String()
	}
	o.Traffic = &Traffic{BytesOut: a.BytesUp, BytesIn: a.BytesDown}
	o.Message = a.Host + ": " + a.Verdict
	if a.Reason != "" {
		o.Message += " (" + a.Reason + ")"
	}
	if a.Via == audit.ViaDNS {
		o.class(ClassDNS, "DNS Activity", CategoryNetwork, "Network Activity")
		o.ActivityID, o.ActivityName = 1, "Query"
		o.Query = &DNSQuery{Hostname: a.Host, Type: a.Method}
		o.Traffic = nil
		return
	}
	if a.Method != "" {
		o.class(ClassHTTP, "HTTP Activity", CategoryNetwork, "Network Activity")
		act, ok := httpActivities[a.Method]
		name := strings.ToUpper(a.Method[:1]) + strings.ToLower(a.Method[1:])
		if !ok {
			act = 99
		}
		o.ActivityID, o.ActivityName = act, name
		o.HTTPRequest = &HTTPRequest{HTTPMethod: a.Method, URL: URL{Hostname: a.Host, Port: a.Port, Path: a.Path, Scheme: a.Protocol}}
		if a.Status != 0 {
			o.HTTPResponse = &HTTPResponse{Code: a.Status}
		}
		return
	}
	o.class(ClassNetwork, "Network Activity", CategoryNetwork, "Network Activity")
	if a.Verdict == audit.VerdictAllow {
		o.ActivityID, o.ActivityName = 1, "Open"
	} else {
		o.ActivityID, o.ActivityName = 5, "Refuse"
	}
}

func mcp(o *Event, c *audit.MCPCall) {
	o.class(ClassAPI, "API Activity", CategoryApplication, "Application Activity")
	o.ActivityID, o.ActivityName = 99, "Other"
	o.verdict(c.Decision)
	o.API = &API{Operation: c.Tool, Service: &Service{Name: "mcp:" + c.Server}}
	o.Message = "mcp:" + c.Server + "/" + c.Tool + ": " + c.Decision + " (" + c.Status + ")"
}

func syscall(o *Event, s *audit.Syscall, t time.Time) {
	o.class(ClassDetection, "Detection Finding", CategoryFindings, "Findings")
	o.ActivityID, o.ActivityName = 1, "Create"
	o.verdict("deny")
	o.Message = "the sandbox refused " + s.Syscall + " to " + s.Command
	o.FindingInfo = &FindingInfo{Title: "refused system call " + s.Syscall, UID: s.RunID + "/" + s.Syscall + "/" + strconv.FormatInt(t.UnixNano(), 10), Types: []string{"sandbox"}}
	if s.Command != "" {
		o.Process = &Process{CmdLine: s.Command}
	}
}
