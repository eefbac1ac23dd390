package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/keptplan"
	"github.com/spine-sandbox/spine/internal/mcp"
	"github.com/spine-sandbox/spine/internal/native"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Isolation is where the guest runs.
type Isolation string

// The isolation levels.
const (
	// Sandbox (the default) runs every execution in a freshly forked child of
	// a spine-guest zygote: rlimits, no-new-privs, Landlock, a seccomp
	// allowlist and new namespaces; killed, never trusted, on a deadline or a
	// fault. The host side needs no cgo.
	Sandbox Isolation = "sandbox"
	// Inproc runs the guest in this process through cgo: fastest, and no
	// security boundary; for trusted code and development only.
	Inproc Isolation = "inproc"
)

// SandboxOptions configure the sandbox. Zero fields take defaults.
type SandboxOptions struct {
	// Binary is the spine-guest launcher; default: $SPINE_GUEST, else
	// spine-guest beside the running executable, else bin/spine-guest or
	// build/guest-c/sandbox/spine-guest under the module root of the
	// working directory (so `go run` and `go test` in a checkout where
	// `make build` ran find it). Not found, New says where it looked and
	// what to run.
	Binary string
	// Prefork children are kept warm beyond the busy ones: forked, confined
	// and ready, so an execution rarely waits for a fork. Taking one asks for
	// its replacement at once (default 4; never more than MaxChildren).
	Prefork int
	// OneExecution marks an engine that runs one execution and closes (a
	// command line): its Prefork children are forked at start and not
	// replaced when taken, and an execution that comes before they are ready
	// waits for them, since nothing would take another child (forked,
	// confined, warmed up and killed at exit, a few milliseconds of CPU). An
	// execution that finds no child at all still has one forked for it.
	OneExecution bool
	// MaxChildren caps the sandboxed children alive at once, busy or warm.
	// An execution waits for a child only when MaxChildren are busy, and
	// never past its deadline or its context. Default: 8 per CPU, and no
	// more than the machine's memory (or its cgroup's limit) holds if every
	// child filled MemoryBytes.
	MaxChildren int
	// MemoryBytes is each child's address-space limit (default 1 GiB).
	MemoryBytes uint64
	// CPUSeconds is each child's CPU limit (default 30).
	CPUSeconds uint64
	// AllowNoNamespaces and AllowNoLandlock lower the level explicitly:
	// without them the engine refuses to start when the layer is missing.
	AllowNoNamespaces, AllowNoLandlock bool
}

// WithSandbox configures sandbox mode.
func WithSandbox(opts SandboxOptions) Option {
	return func(c *config) error { c.sandbox = opts; return nil }
}

// Option configures an Engine; an Engine's configuration never changes.
type Option func(*config) error

type config struct {
	tools     []Tool
	limits    Limits
	workers   int
	isolation Isolation
	sandbox   SandboxOptions
	native    *NativeOptions
	hooks     []Hook
	telemetry telemetryConfig
	mcp       []*mcp.Config
}

// WithTools registers tools; names must be unique.
func WithTools(tools ...Tool) Option {
	return func(c *config) error { c.tools = append(c.tools, tools...); return nil }
}

// WithLimits sets the limits of every execution (zero fields keep defaults).
func WithLimits(limits Limits) Option {
	return func(c *config) error { c.limits = limits; return nil }
}

// WithWorkers bounds how many early (PLM, prefix) calls run at once (default 16).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("spine: workers must be positive, not %d", n)
		}
		c.workers = n
		return nil
	}
}

// WithIsolation chooses where guests run (default Sandbox).
func WithIsolation(level Isolation) Option {
	return func(c *config) error {
		if level != Inproc && level != Sandbox {
			return fmt.Errorf("spine: unknown isolation %q (have: sandbox, inproc)", level)
		}
		c.isolation = level
		return nil
	}
}

// Engine runs programs. It is safe for concurrent use; executions of the
// in-process guest take turns on the interpreter and overlap wherever they
// wait (a tool call, a host wait).
type Engine struct {
	tools       map[string]*bridge.Tool
	specs       map[string]ToolSpec // as registered
	order       []string
	manifest    []byte // manifest JSON of all tools
	manifestKey string // manifestKey(manifest), worked out once: most requests send it
	limits      Limits
	workers     chan struct{}
	guests      bridge.Transport
	level       Isolation
	native      *native.Compiler // nil: native functions are off
	plans       *keptplan.Store  // native programs' kept plans (keptplan.go)
	hotCalls    int
	closed      atomic.Bool
	running     sync.WaitGroup
	// abandoned counts tool calls given up on past bridge.Grace whose tool
	// still runs (AbandonedCalls).
	abandoned atomic.Int64

	hooks     bridge.Hooks // call hooks and the telemetry's; nil: none
	suspends  []Hook       // the hooks with a Suspend decision (journal.go)
	telemetry *telemetry   // nil: off

	mu       sync.Mutex
	streams  map[*Stream]struct{}  // open streams, aborted by Close
	sessions map[*Session]struct{} // open sessions, ended by Close (session.go)

	upstreams []*mcp.Servers // WithMCP's servers, stopped by Close
}

// New makes an engine.
func New(opts ...Option) (_ *Engine, err error) {
	cfg := config{workers: 16, isolation: Sandbox}
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	upstreams, err := startMCP(&cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			closeMCP(upstreams)
		}
	}()
	e := &Engine{tools: map[string]*bridge.Tool{}, specs: map[string]ToolSpec{}, limits: cfg.limits.withDefaults(),
		workers: make(chan struct{}, cfg.workers), streams: map[*Stream]struct{}{}, level: cfg.isolation, upstreams: upstreams}
	if err := e.limits.validate(); err != nil {
		return nil, err
	}
	for _, t := range cfg.tools {
		if _, dup := e.tools[t.Spec.Name]; dup {
			return nil, fmt.Errorf("spine: tool %q registered twice", t.Spec.Name)
		}
		bt, err := bridge.NewTool(t.Spec.Name, t.Spec.Description, t.Spec.Schema, t.Spec.Speculative, bridge.Handler(t.Handler))
		if err == nil {
			err = bt.SetResources(t.Spec.Reads, t.Spec.Writes)
		}
		if err != nil {
			return nil, fmt.Errorf("spine: %w", err)
		}
		e.tools[t.Spec.Name] = bt
		e.specs[t.Spec.Name] = t.Spec
		e.order = append(e.order, t.Spec.Name)
	}
	e.manifest = e.manifestJSON(e.order)
	e.manifestKey = manifestKey(e.manifest)
	telemetry, err := newTelemetry(cfg.telemetry)
	if err != nil {
		return nil, fmt.Errorf("spine: %w", err)
	}
	e.telemetry = telemetry
	e.hooks = newHookChain(append(cfg.hooks, e.telemetry.hook()...))
	for _, h := range cfg.hooks {
		if h.Suspend != nil {
			e.suspends = append(e.suspends, h)
		}
	}
	if err := e.start(cfg); err != nil {
		if e.native != nil {
			e.native.Close()
		}
		return nil, err
	}
	return e, nil
}

// start brings up the native compiler (if asked for) and the guests.
func (e *Engine) start(cfg config) error {
	var setup *bridge.NativeSetup
	if cfg.native != nil {
		c, err := startNative(cfg.native)
		if err != nil {
			return err
		}
		e.native, e.hotCalls = c, cfg.native.HotCalls
		if e.hotCalls == 0 {
			e.hotCalls = 1000
		}
		setup = nativeSetup(c)
		// A directory that cannot be used leaves the plans in memory: the
		// guests then plan each program once per engine.
		e.plans, _ = keptplan.Open(c.PlanDir())
	}
	guests, err := newTransport(cfg, setup, e.warmRequest())
	if err != nil {
		return err
	}
	if err := e.telemetry.watchPool(guests); err != nil {
		guests.Close()
		return err
	}
	e.guests = guests
	return nil
}

// Close stops accepting executions, aborts open streams and waits for the
// executions running.
func (e *Engine) Close() error {
	e.closed.Store(true)
	e.mu.Lock()
	open := slices.Collect(maps.Keys(e.streams))
	e.mu.Unlock()
	for _, s := range open {
		s.Abort()
	}
	e.closeSessions()
	e.running.Wait()
	closeMCP(e.upstreams)
	if e.native != nil {
		e.native.Close()
	}
	e.telemetry.close()
	return e.guests.Close()
}

// AbandonedCalls is how many tool calls this engine gave up waiting for
// (bridge.Grace after their execution's context ended) whose tool has still
// not returned. Each is reported in its execution's trace; an early one
// keeps its WithWorkers slot until its tool returns, and while every slot is
// so taken programs run their calls themselves, without a head start.
func (e *Engine) AbandonedCalls() int { return int(e.abandoned.Load()) }

// Tools returns the specs of the engine's tools, in registration order.
func (e *Engine) Tools() []ToolSpec {
	specs := make([]ToolSpec, 0, len(e.order))
	for _, name := range e.order {
		specs = append(specs, e.specs[name])
	}
	return specs
}

// manifestJSON is the manifest of the named tools. Each entry carries the
// tool's rendered signature (stubs.go), not its schemas: the guest shows it
// as the function's signature and docstring.
func (e *Engine) manifestJSON(names []string) []byte {
	entries := make([]protocol.ManifestEntry, 0, len(names))
	for _, name := range names {
		t := e.tools[name]
		signature, _ := json.Marshal(signatureOf(e.specs[name]).manifest())
		entry := protocol.ManifestEntry{Name: t.Name, Speculative: t.Speculative, Signature: signature}
		if t.Speculative && t.Reads != nil {
			entry.Reads = &t.Reads
		}
		if !t.Speculative && t.Writes != nil {
			entry.Writes = &t.Writes
		}
		entries = append(entries, entry)
	}
	encoded, _ := json.Marshal(entries)
	return encoded
}

// prepared is an execution made ready to run: its session and guest request.
type prepared struct {
	session     *bridge.Session
	sink        *emitted
	cancel      context.CancelFunc
	cancelCause context.CancelCauseFunc
	request     []byte
	inputs      json.RawMessage
	manifest    json.RawMessage
	native      *native.Session
	hot         *protocol.NativeMode
	start       time.Time
	telemetry   *execution
	limits      Limits                // the engine's, tightened by the request's
	journal     *journaled            // nil: the execution keeps no journal
	determinism *protocol.Determinism // what the guest's request carries (journal.go)
	sessionID   string                // the session whose namespace it runs in (session.go)
}

// resolveRequest checks the inputs and picks the request's tools.
func (e *Engine) resolveRequest(req Request) (json.RawMessage, map[string]*bridge.Tool, json.RawMessage, error) {
	if err := checkName(req.Name); err != nil {
		return nil, nil, nil, err
	}
	inputs := bytes.TrimSpace(req.Inputs)
	if len(inputs) == 0 {
		inputs = []byte("{}")
	} else if !json.Valid(inputs) {
		return nil, nil, nil, &ExecError{Kind: ErrBadRequest, Message: "inputs are not valid JSON"}
	}
	for _, name := range req.RequireApproval {
		if e.tools[name] == nil {
			return nil, nil, nil, &ExecError{Kind: ErrBadRequest, Message: fmt.Sprintf("approval required for unknown tool %q", name)}
		}
	}
	tools, manifest := e.tools, json.RawMessage(e.manifest)
	if req.Tools != nil {
		tools = make(map[string]*bridge.Tool, len(req.Tools))
		for _, name := range req.Tools {
			t := e.tools[name]
			if t == nil {
				return nil, nil, nil, &ExecError{Kind: ErrBadRequest, Message: fmt.Sprintf("unknown tool %q", name)}
			}
			tools[name] = t
		}
		manifest = e.manifestJSON(req.Tools)
	}
	return inputs, tools, manifest, nil
}

func (e *Engine) encodeRequest(req Request, l Limits, inputs, manifest json.RawMessage, hot *protocol.NativeMode) ([]byte, error) {
	// Inputs (checked by resolveRequest) and the manifest (the engine's own)
	// are spliced in as they are: encoding/json would validate and compact
	// both again, the largest cost of a small execution's request. The
	// manifest goes first, after its key: the guest then recognises a
	// manifest it has read before without parsing it again (ManifestKey).
	compiled := req.Program.compiledFor(req, manifest, l.Fanout)
	encoded, err := json.Marshal(protocol.ExecuteRequest{Source: req.Source, PLM: req.PLM,
		Limits: l.guest(), Native: hot, Name: req.Name, Live: req.live(),
		CompileOnly: req.compileOnly, Compiled: compiled, KeepPlan: req.keepPlan,
		Determinism: req.determinism, Session: req.session})
	if err != nil {
		return nil, &ExecError{Kind: ErrBadRequest, Message: err.Error()}
	}
	spliced := make([]byte, 0, len(encoded)+len(inputs)+len(manifest)+len(req.kept)+96)
	spliced = append(spliced, '{')
	if len(manifest) > 0 {
		spliced = append(spliced, `"manifest_key":"`...)
		spliced = append(spliced, e.keyOf(manifest)...)
		spliced = append(spliced, `","manifest":`...)
		spliced = append(spliced, manifest...)
		spliced = append(spliced, ',')
	}
	spliced = append(spliced, `"inputs":`...)
	spliced = append(spliced, inputs...)
	spliced = append(spliced, ',')
	if compiled == nil && len(req.kept) > 0 {
		// A kept plan (keptplan.go), valid JSON, spliced in like the inputs.
		spliced = append(spliced, `"compiled":`...)
		spliced = append(spliced, req.kept...)
		spliced = append(spliced, ',')
	}
	return append(spliced, encoded[1:]...), nil
}

// keyOf is manifestKey(manifest), without hashing the engine's own manifest
// again.
func (e *Engine) keyOf(manifest []byte) string {
	if len(manifest) == len(e.manifest) && len(manifest) > 0 && &manifest[0] == &e.manifest[0] {
		return e.manifestKey
	}
	return manifestKey(manifest)
}

// manifestKey names a manifest's bytes for the guest's cache of what it
// works out from them ("" for none).
func manifestKey(manifest []byte) string {
	if len(manifest) == 0 {
		return ""
	}
	sum := sha256.Sum256(manifest)
	return hex.EncodeToString(sum[:16])
}

// prepare makes an execution ready. Its context ends at the engine's timeout
// (or ctx's earlier deadline).
func (e *Engine) prepare(ctx context.Context, req Request) (*prepared, error) {
	ctx, cancel := context.WithTimeout(ctx, e.limits.tightened(req.Limits).Timeout)
	p, err := e.prepareWith(ctx, req, false)
	if err != nil {
		cancel()
		return nil, err
	}
	p.cancel = cancel
	return p, nil
}

// prepareStream makes a stream ready: no deadline until Finish starts the
// clock (a model may take long to write), which cancelCause then enforces.
func (e *Engine) prepareStream(ctx context.Context, req Request) (*prepared, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	p, err := e.prepareWith(ctx, req, true)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	p.cancelCause = cancel
	p.cancel = func() { cancel(nil) }
	return p, nil
}

// prepareWith makes an execution ready; a streamed one (its program and
// request sent by the stream) neither uses nor keeps a native plan.
func (e *Engine) prepareWith(ctx context.Context, req Request, streamed bool) (*prepared, error) {
	if e.closed.Load() {
		return nil, &ExecError{Kind: ErrClosed}
	}
	// A context already done runs nothing: a caller that retries must never
	// repeat an effect the program would have had.
	if err := ctx.Err(); err != nil {
		return nil, contextDone(err)
	}
	limits, err := e.requestLimits(req)
	if err != nil {
		return nil, err
	}
	if req, err = withProgram(req); err != nil {
		return nil, err
	}
	inputs, tools, manifest, err := e.resolveRequest(req)
	if err != nil {
		return nil, err
	}
	journal, err := e.journalFor(req, inputs, manifest, req.replay, req.decision)
	if err != nil {
		return nil, err
	}
	req.determinism = journal.determinism()
	hot, nativeSession, err := e.nativeFor(ctx, req.Native)
	if err != nil {
		return nil, err
	}
	if !streamed {
		req.kept, req.keepPlan = e.keptPlanFor(req, manifest, limits.Fanout, nativeSession)
	}
	encoded, err := e.encodeRequest(req, limits, inputs, manifest, hot)
	if err != nil {
		return nil, err
	}
	sink := &emitted{}
	if req.replay != nil {
		// What the recorded calls emitted is part of the run they resume.
		sink.values = append(sink.values, req.replay.Emitted...)
	}
	ctx = context.WithValue(ctx, emittedKey{}, sink)
	ctx, observed := e.telemetry.startExecution(ctx, req, e.level)
	config := bridge.Config{Tools: tools, Workers: e.workers, Abandoned: &e.abandoned, Result: limits.result(), Hooks: e.hooks,
		Limits: bridge.Limits{MaxToolCalls: limits.ToolCalls, MaxArgBytes: limits.ToolArgBytes,
			MaxHostBytes: limits.HostBytes, ReservedBytes: 2 * limits.StdoutBytes},
		Stdout: req.Stdout, Stderr: req.Stderr}
	if nativeSession != nil {
		config.Native = nativeSession
	}
	if journal != nil {
		config.Recorder = journal.recorder
	}
	session := bridge.NewSession(ctx, config)
	sink.charge = session.Charge
	return &prepared{session: session, sink: sink, request: encoded, inputs: inputs, manifest: manifest,
		native: nativeSession, hot: hot, start: time.Now(), telemetry: observed, limits: limits, journal: journal,
		determinism: req.determinism, sessionID: req.session}, nil
}

// Execute runs one program and returns its response. The error is nil when
// the program finished; otherwise it is an *ExecError whose kind errors.Is
// tells apart (ErrGuest, ErrTimeout (which also matches
// context.DeadlineExceeded), context.Canceled, ErrLimit, ErrSandbox,
// ErrBadRequest, ErrClosed), and the response (nil only for ErrBadRequest
// and ErrClosed) says how it ended and carries the stdout and trace of what
// ran. A context that is already done runs nothing: no guest, no tool.
// Execute returns within the deadline plus ToolGrace and the grace of its
// isolation even when a tool ignores its context.
func (e *Engine) Execute(ctx context.Context, req Request) (*Response, error) {
	e.running.Add(1)
	defer e.running.Done()
	if reason := bridge.ReasonFor(ctx); reason != bridge.NotInterrupted {
		return e.notStarted(reason)
	}
	p, err := e.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	defer p.cancel()
	g, err := e.acquire(p)
	if err != nil {
		return e.acquireFailed(ctx, p, err)
	}
	var result *bridge.Result
	runErr := p.session.Context().Err() // ended while waiting for a guest: the program never starts
	if runErr == nil {
		result, runErr = g.Execute(p.request)
	}
	// The response first: releasing a sandboxed child kills it, and its
	// teardown and its replacement's fork take the cores the caller's
	// result would otherwise wait for. Deferred, so that a panic while the
	// response is built still releases the child.
	defer g.Release()
	return e.finish(ctx, p, result, runErr)
}

// notStarted is the outcome of an execution whose context was done before
// it started.
func (e *Engine) notStarted(reason bridge.Reason) (*Response, error) {
	return interrupted(&Response{Isolation: string(e.level)}, reason,
		"the context ended before the execution started; nothing ran")
}

// acquireFailed is the outcome of an execution that found no guest to run on.
func (e *Engine) acquireFailed(parent context.Context, p *prepared, err error) (*Response, error) {
	if e.closed.Load() {
		p.session.Close()
		e.telemetry.executionEnded(p.telemetry, nil, ErrClosed)
		return nil, &ExecError{Kind: ErrClosed}
	}
	return e.finish(parent, p, nil, err)
}

// finish closes the session, turns the guest's result into a Response and
// reports it to the telemetry.
func (e *Engine) finish(parent context.Context, p *prepared, result *bridge.Result, runErr error) (*Response, error) {
	if p.journal != nil && p.journal.recorder.Halted() == bridge.Suspended {
		p.session.AwaitOwnCalls() // before Close cancels them: their effects go in the journal
	}
	resp, err := e.outcome(parent, p, result, runErr)
	if resp != nil {
		if ended, endErr, halted := p.journal.finish(resp); halted {
			resp, err = ended, endErr
		}
	}
	e.telemetry.executionEnded(p.telemetry, resp, err)
	return resp, err
}

func (e *Engine) outcome(parent context.Context, p *prepared, result *bridge.Result, runErr error) (*Response, error) {
	reason := p.session.Ended() // before Close, which ends the session's context
	p.session.Close()
	resp := &Response{Elapsed: time.Since(p.start), Emitted: p.sink.list(), Calls: convertCalls(p.session.Calls())}
	defer func() { // the live writers get the tail of what the response holds
		p.session.FinishOutput(protocol.OutputStdout, []byte(resp.Stdout))
		p.session.FinishOutput(protocol.OutputStderr, []byte(resp.Stderr))
	}()
	resp.Isolation = string(e.level)
	resp.Native = nativeTrace(nil, p.native)
	if runErr != nil {
		if result != nil {
			resp.Stdout, resp.Stderr = string(result.Stdout), string(result.Stderr)
		}
		return failed(resp, reason, runErr)
	}
	resp.Stdout, resp.Stderr = string(result.Stdout), string(result.Stderr)
	// Every transport has the session accept its result (size, depth, UTF-8
	// JSON, the outcome claimed, the interrupt reported); one that did not
	// reached here unchecked, and nothing of it is believed.
	g := result.Envelope()
	if g == nil {
		resp.Status, resp.Error = StatusViolation, "violation: the guest's result was not checked"
		return resp, &ExecError{Kind: ErrSandbox, Message: "the guest's result was not checked"}
	}
	resp.Transformed, resp.StdoutTruncated, resp.StderrTruncated = g.Transformed, g.StdoutTruncated, g.StderrTruncated
	resp.Native = nativeTrace(g.Native, p.native)
	if limit := p.session.LimitExceeded(); limit != "" {
		resp.Status, resp.Error = StatusLimit, "LimitExceeded: "+limit
		return resp, &ExecError{Kind: ErrLimit, Message: limit}
	}
	if result.Interrupted != bridge.NotInterrupted {
		if reason == bridge.NotInterrupted {
			reason = result.Interrupted
		}
		return interrupted(resp, reason, "")
	}
	if g.Error == nil {
		resp.Status, resp.Value = StatusOK, g.Value
		if len(resp.Value) == 0 {
			resp.Value = json.RawMessage("null")
		}
		return resp, nil
	}
	resp.Error, resp.Line, resp.Traceback = *g.Error, g.Line, g.Traceback
	// Only outcomes a guest may claim reach here (Accept): the program
	// raised, or its result broke the result limits. Nothing a guest says
	// makes the host blame its caller or report a host limit.
	if g.Kind == protocol.OutcomeResultLimit {
		resp.Status = StatusLimit
		return resp, &ExecError{Kind: ErrLimit, Message: *g.Error}
	}
	resp.Status = StatusError
	return resp, &ExecError{Kind: ErrGuest, Message: *g.Error, Line: g.Line,
		ToolErr: p.session.ToolError(g.Call, exceptionOf(*g.Error))}
}

// failed builds the response of an execution whose guest failed (runErr):
// a failure of the guest's own (memory, output, violation, crash) is
// reported as such; a guest killed or abandoned past its deadline, and any
// other failure once the context ended, as the timeout or cancellation. Every message carries one prefix: the status's in
// Response.Error, the kind's in ExecError.Error.
func failed(resp *Response, reason bridge.Reason, runErr error) (*Response, error) {
	status, kind, known := guestStatus(runErr)
	detail := runErr.Error()
	if known {
		detail = strings.TrimPrefix(detail, kind.Error()+": ")
	}
	if known && status != StatusTimeout {
		resp.Status, resp.Error = status, string(status)+": "+detail
		return resp, &ExecError{Kind: ErrSandbox, Message: detail}
	}
	if known {
		if reason != bridge.Cancelled {
			reason = bridge.Timeout // killed at the deadline's grace, or out of CPU seconds
		}
		return interrupted(resp, reason, detail)
	}
	if reason != bridge.NotInterrupted {
		return interrupted(resp, reason, "")
	}
	detail = strings.TrimPrefix(detail, "spine: ")
	resp.Status, resp.Error = StatusError, detail
	return resp, &ExecError{Kind: ErrGuest, Message: detail}
}

// interrupted builds the response of an execution the host stopped because
// its context ended (or, reason LimitExceeded, without the limit recorded).
func interrupted(resp *Response, reason bridge.Reason, detail string) (*Response, error) {
	switch reason {
	case bridge.Cancelled:
		if detail == "" || strings.Contains(detail, context.Canceled.Error()) {
			detail = "the caller cancelled the execution"
		}
		resp.Status, resp.Error = StatusCancelled, "Cancelled: "+detail
		return resp, &ExecError{Kind: context.Canceled, Message: detail}
	case bridge.LimitExceeded:
		resp.Status, resp.Error = StatusLimit, "LimitExceeded: the host stopped the program for a limit"
		return resp, &ExecError{Kind: ErrLimit, Message: "the host stopped the program for a limit"}
	}
	if detail == "" {
		detail = "the program was stopped at its deadline"
	}
	resp.Status, resp.Error = StatusTimeout, "TimeoutError: "+detail
	return resp, &ExecError{Kind: ErrTimeout, Message: detail}
}

// guestStatus maps the guest's terminal failures, whichever transport
// reported them, to a status and the kind they wrap.
func guestStatus(err error) (Status, error, bool) {
	for _, k := range []struct {
		kind   error
		status Status
	}{
		{bridge.ErrTimeout, StatusTimeout}, {bridge.ErrMemory, StatusMemory}, {bridge.ErrOutputLimit, StatusOutput},
		{bridge.ErrViolation, StatusViolation}, {bridge.ErrCrashed, StatusCrashed},
	} {
		if errors.Is(err, k.kind) {
			return k.status, k.kind, true
		}
	}
	return "", nil, false
}

func convertCalls(calls []bridge.Call) []Call {
	out := make([]Call, len(calls))
	for i, c := range calls {
		out[i] = Call{Tool: c.Tool, Args: c.Args, Start: c.Start, End: c.End, Error: c.Error,
			Early: c.Early, Stream: c.Stream, Claimed: c.Claimed, Mismatch: c.Mismatch, ArgsTruncated: c.ArgsTruncated,
			Stale: c.Stale, Replayed: c.Replayed}
	}
	return out
}
