// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package cli

// warden mcp is the MCP gateway: the agent speaks MCP to warden, warden
// speaks it to the server, and every tools/call is decided on the way
// (package adapter/mcp holds the rules). This file is the plumbing:
//
//   - stdio: warden starts the server, reads the client's lines on stdin
//     and the server's on its stdout, one goroutine each; the server's
//     stderr is passed through. The client's end of input closes the
//     server's stdin, and warden waits for it; when the server exits,
//     warden exits with its status (128+signal when killed).
//   - Lines longer than adapter/mcp.MaxLine are refused, not buffered: the
//     client's with a JSON-RPC error, the server's dropped with a warning.
//   - The policy is loaded once, at start; a policy that does not load
//     stops the gateway before the server starts.
//   - A call that prompts is asked about with elicitation/create when the
//     client declared it can answer and --headless is not given; a
//     question unanswered after mcpAskTimeout refuses the call.
//   - streamable HTTP (--listen, --upstream): see mcphttp.go.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"warden.dev/warden/internal/adapter/mcp"
	"warden.dev/warden/internal/audit"
	"warden.dev/warden/internal/gitindex"
	"warden.dev/warden/internal/policy"
	"warden.dev/warden/internal/request"
)

// mcpAskTimeout is how long a call that prompts waits for the user's
// answer to the gate's elicitation before it is refused.
var mcpAskTimeout = 5 * time.Minute

const mcpUsage = `mcp [--policy FILE] [--tools DECL.yaml|filesystem] [--name SERVER] [--project DIR] [--audit-json FILE] [--sandbox] [--headless] -- SERVER CMD...
       warden mcp [flags] --listen ADDR --upstream URL`

func runMCP(ctx context.Context, args []string) error {
	fs := newFlags("mcp", mcpUsage)
	policyPath := fs.String("policy", "", "policy `file` (default: the embedded default policy)")
	toolsPath := fs.String("tools", "", "declaration `file` of the server's tools, or the name of a built-in one (filesystem)")
	name := fs.String("name", "", "the server's `name` in tool names mcp:NAME/TOOL (default: the declaration's server, else the command's base name)")
	project := fs.String("project", "", "the project `dir` paths are judged against (default: the git work tree of the current directory)")
	headless := fs.Bool("headless", false, "never ask the user: a call that prompts is refused even when the client can answer an elicitation")
	auditPath := fs.String("audit-json", "", "append one JSON line per tools/call to `file`")
	listen := fs.String("listen", "", "serve MCP over streamable HTTP on `addr` (loopback only) instead of stdio")
	upstream := fs.String("upstream", "", "with --listen: the streamable-HTTP `url` of the server")
	sandboxed := fs.Bool("sandbox", false, "run the server under warden run (with the same --policy and --project); its calls are then decided as contained")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return badInput(err.Error())
	}
	argv := fs.Args()
	if (*listen == "") != (*upstream == "") {
		return badInput("--listen and --upstream go together")
	}
	if *listen == "" && len(argv) == 0 {
		return badInput("warden mcp needs the server's command after --", "warden "+strings.SplitN(mcpUsage, "\n", 2)[0])
	}
	if *listen != "" && len(argv) > 0 {
		return badInput("give --upstream or a server command, not both")
	}
	if *listen != "" && *sandboxed {
		return badInput("--sandbox runs a server command; an --upstream server runs elsewhere")
	}

	g, proj, err := newMCPGate(*policyPath, *toolsPath, *name, *project, argv, *sandboxed)
	if err != nil {
		return err
	}
	if *sandboxed {
		// The server runs contained: warden run with the gate's policy
		// and project, so the floor holds even for a call the policy
		// was fooled into allowing (a tool declared wrongly).
		exe, err := os.Executable()
		if err != nil {
			return badInput(fmt.Sprintf("--sandbox: cannot find the warden binary: %v", err))
		}
		argv = sandboxedServer(exe, proj, *policyPath, argv)
	}
	rec, err := openMCPAudit(*auditPath)
	if err != nil {
		return err
	}
	defer rec.close()
	if *listen != "" {
		// Over HTTP the gate does not ask: a question would have to ride
		// the SSE stream of the call's POST, which this version does not.
		return serveMCPHTTP(ctx, g, rec, *listen, *upstream)
	}
	g.Elicit = !*headless
	var prefix [8]byte
	if _, err := rand.Read(prefix[:]); err != nil {
		return badInput(fmt.Sprintf("random id prefix: %v", err))
	}
	g.AskPrefix = hex.EncodeToString(prefix[:])
	return runMCPStdio(ctx, g, rec, argv)
}

// sandboxedServer is the command that runs a server under warden run
// (binary exe) with the gate's project and policy. --server: a server is
// long-lived by nature, and has no default timeout.
func sandboxedServer(exe, project, policyPath string, argv []string) []string {
	wrapped := []string{exe, "run", "--server", "--project", project}
	if policyPath != "" {
		abs, _ := filepath.Abs(policyPath)
		wrapped = append(wrapped, "--policy", abs)
	}
	return append(append(wrapped, "--"), argv...)
}

// newMCPGate loads the policy and the declaration and builds the gate;
// it returns the project the gate judges paths against too. contained
// says the server runs under warden run.
func newMCPGate(policyPath, toolsPath, name, project string, argv []string, contained bool) (*mcp.Gate, string, error) {
	if policyPath != "" {
		abs, err := filepath.Abs(policyPath)
		if err != nil {
			return nil, "", badInput(fmt.Sprintf("--policy: %v", err))
		}
		policyPath = abs
	}
	lp, err := loadPolicy(policyPath)
	if err != nil {
		return nil, "", err
	}
	var decl *mcp.Declaration
	switch {
	case toolsPath != "" && !strings.ContainsAny(toolsPath, "/."):
		d, ok := mcp.Builtin(toolsPath)
		if !ok {
			return nil, "", badInput(fmt.Sprintf("--tools: no built-in declaration %q (built in: filesystem; a file name needs a '.' or '/')", toolsPath))
		}
		decl = d
	case toolsPath != "":
		src, err := os.ReadFile(toolsPath)
		if err != nil {
			return nil, "", badInput(fmt.Sprintf("--tools: %v", err))
		}
		if decl, err = mcp.ParseDeclaration(toolsPath, src); err != nil {
			return nil, "", badInput(err.Error())
		}
	default:
		if b, ok := mcp.BuiltinFor(argv); ok {
			decl, _ = mcp.Builtin(b)
		}
	}
	if name == "" && decl != nil {
		name = decl.Server
	}
	if name == "" && len(argv) > 0 {
		name = strings.TrimSuffix(filepath.Base(argv[0]), filepath.Ext(argv[0]))
	}
	if name == "" {
		name = "upstream"
	}
	if strings.ContainsAny(name, "/: \t") {
		return nil, "", badInput(fmt.Sprintf("--name %q must not hold '/', ':' or white space", name))
	}
	dir := cwd()
	if project == "" {
		project = gitindex.WorkTree(dir)
	} else if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	decide := func(req *request.Request) mcp.Decision {
		req.Cwd, req.Project, req.Contained = dir, project, contained
		a, _, err := lp.Action(req, dir)
		if err != nil {
			return mcp.Decision{Rule: "mcp:invalid-call", Reason: err.Error()}
		}
		d, _ := lp.Engine.Evaluate(a, policy.Env{Now: now()})
		return mcp.Decision{Verdict: d.Verdict, Rule: d.Rule, Reason: d.Reason}
	}
	return &mcp.Gate{
		Server:      name,
		Declaration: decl,
		Decide:      decide,
		Listed:      decide,
	}, project, nil
}

// mcpAudit appends the gateway's records, one JSON line each
// (audit.JSONL). A record that cannot be written is warned about once;
// the gateway goes on.
type mcpAudit struct {
	sink *audit.JSONL
	f    *os.File
	// mu guards warned.
	mu     sync.Mutex
	warned bool
}

func openMCPAudit(path string) (*mcpAudit, error) {
	a := &mcpAudit{}
	if path == "" {
		return a, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, badInput(fmt.Sprintf("--audit-json: %v", err))
	}
	a.f, a.sink = f, audit.NewJSONL(f)
	return a, nil
}

func (a *mcpAudit) record(evs []audit.MCPCall) {
	if a == nil || a.sink == nil {
		return
	}
	for i := range evs {
		if err := a.sink.Write(audit.MCPEvent(now().UTC(), &evs[i])); err != nil {
			a.mu.Lock()
			if !a.warned {
				a.warned = true
				warningf("--audit-json: %v (later records are lost too)", err)
			}
			a.mu.Unlock()
		}
	}
}

func (a *mcpAudit) close() {
	if a != nil && a.f != nil {
		a.f.Close()
	}
}

// lineReader reads newline-terminated lines of at most max bytes.
type lineReader struct {
	r   *bufio.Reader
	max int
}

// next returns the next line without its newline. A longer line is
// skipped up to its newline and reported with tooLong. The last line
// may lack a newline.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > lr.max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		if err == io.EOF && len(line) > 0 {
			return line, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		return line[:len(line)-1], false, nil
	}
}

// syncWriter serialises lines written by both directions' goroutines.
type syncWriter struct {
	// mu guards w.
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) line(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := make([]byte, 0, len(b)+1)
	buf = append(append(buf, b...), '\n')
	_, err := s.w.Write(buf)
	return err
}

func runMCPStdio(ctx context.Context, g *mcp.Gate, rec *mcpAudit, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = Stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return badInput(fmt.Sprintf("starting the server: %v", err))
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return badInput(fmt.Sprintf("starting the server: %v", err))
	}
	if err := cmd.Start(); err != nil {
		return badInput(fmt.Sprintf("starting the server: %v", err))
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Signal(syscall.SIGTERM) })
	defer stop()

	client := &syncWriter{w: Stdout}
	server := &syncWriter{w: toServer}
	tr := &mcp.Tracker{}

	// Client → server. Its goroutine is left blocked on the client's
	// input when the server exits first: the process is about to.
	in := Stdin
	go func() {
		defer toServer.Close()
		lr := &lineReader{r: bufio.NewReaderSize(in, 64<<10), max: mcp.MaxLine}
		for {
			line, tooLong, err := lr.next()
			if tooLong {
				client.line(mcp.ErrorResponse(nil, mcp.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than %d bytes", mcp.MaxLine)))
			} else if line != nil {
				out := g.FromClient(line, tr)
				rec.record(out.Events)
				if out.Reply != nil {
					client.line(out.Reply)
				}
				if out.Asked != "" {
					id := out.Asked
					time.AfterFunc(mcpAskTimeout, func() {
						exp := g.Expire(tr, id)
						rec.record(exp.Events)
						if exp.Reply != nil {
							client.line(exp.Reply)
						}
					})
				}
				if out.Forward != nil {
					if server.line(out.Forward) != nil {
						return
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()

	// Server → client, until the server closes its output.
	lr := &lineReader{r: bufio.NewReaderSize(fromServer, 64<<10), max: mcp.MaxLine}
	for {
		line, tooLong, err := lr.next()
		if tooLong {
			warningf("dropped a message from the server larger than %d bytes", mcp.MaxLine)
		} else if line != nil {
			out, evs := g.FromServer(line, tr)
			rec.record(evs)
			client.line(out)
		}
		if err != nil {
			break
		}
	}
	werr := cmd.Wait()
	rec.record(tr.Drain())
	var ee *exec.ExitError
	switch {
	case werr == nil:
		return nil
	case errors.As(werr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &exitError{code: 128 + int(ws.Signal())}
		}
		return &exitError{code: ee.ExitCode()}
	default:
		return badInput(fmt.Sprintf("waiting for the server: %v", werr))
	}
}
