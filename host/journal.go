package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// JournalVersion is the version of the journal format this engine writes
// and resumes.
const JournalVersion = 1

// Journal is the durable state of a suspended execution: plain JSON data,
// so it can be stored, moved to another process or machine, and resumed
// there (Engine.Resume). A program's only contact with the world is its
// tool calls, so the request, the calls it made with their results, and
// the readings of its clock are enough to run it again to where it stopped
// without running any of those tools again.
type Journal struct {
	Version int            `json:"version"`
	Request JournalRequest `json:"request"`
	// ProgramDigest covers the request (program, inputs, tools, PLM, name,
	// the tools that need approval); ManifestDigest the manifest of its
	// tools. A resume refuses a journal whose digests are not this
	// engine's for the same request.
	ProgramDigest  string `json:"program_digest"`
	ManifestDigest string `json:"manifest_digest"`
	// Seed seeds `random` and os.urandom (so uuid4 and secrets) in the guest.
	Seed int64 `json:"seed"`
	// Clock is every wall-clock reading of the program (UnixNano), in order.
	Clock []int64 `json:"clock"`
	// Calls are the calls answered so far, in the order the program made
	// them, each with its result.
	Calls []JournalCall `json:"calls"`
	// Pending is the call the execution suspended at, not run.
	Pending *JournalCall `json:"pending"`
	// Emitted is what the recorded calls passed to Emit: a resume's
	// Response.Emitted starts with it, as the uninterrupted run's would.
	Emitted []json.RawMessage `json:"emitted,omitempty"`
}

// JournalRequest is the request of a journaled execution, as it reruns.
type JournalRequest struct {
	Source          string          `json:"source"`
	Inputs          json.RawMessage `json:"inputs"`
	Tools           []string        `json:"tools,omitempty"`
	PLM             bool            `json:"plm,omitempty"`
	Name            string          `json:"name,omitempty"`
	RequireApproval []string        `json:"require_approval,omitempty"`
}

// JournalCall is one call of a journal. Occurrence counts the calls of the
// same tool with the same arguments before it: a replay matches each call
// the program makes to its record by tool, arguments and occurrence.
type JournalCall struct {
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	Occurrence int             `json:"occurrence"`
	// Result is the tool response the program received: {"value": ...} or
	// {"error": "...", "type": "PermissionError"}; absent on the pending call.
	Result json.RawMessage `json:"result,omitempty"`
}

// DecisionKind is what a resume does with the pending call.
type DecisionKind string

// The decisions.
const (
	DecisionApprove DecisionKind = "approve" // run the call's tool
	DecisionDeny    DecisionKind = "deny"    // the call raises PermissionError(Message) where it was made
	DecisionAnswer  DecisionKind = "answer"  // the call returns Value; its tool does not run
)

// Decision is the answer to a suspended execution's pending call.
type Decision struct {
	Kind    DecisionKind
	Message string          // Deny: the PermissionError's message ("not approved" when empty)
	Value   json.RawMessage // Answer: the JSON value the call returns
}

// Approve runs the pending call.
func Approve() Decision { return Decision{Kind: DecisionApprove} }

// Deny makes the pending call raise PermissionError(message).
func Deny(message string) Decision { return Decision{Kind: DecisionDeny, Message: message} }

// Answer makes the pending call return value without running its tool.
func Answer(value json.RawMessage) Decision { return Decision{Kind: DecisionAnswer, Value: value} }

// ErrSuspended: the execution stopped at a call that needs a decision;
// Response.Journal holds what Engine.Resume needs to continue it.
var ErrSuspended = errors.New("spine: execution suspended")

// ErrDiverged: a resumed program did not retrace its journal (it asked for
// a call, or read the clock, where the journal holds nothing); no tool ran
// for it.
var ErrDiverged = errors.New("spine: replay diverged from the journal")

// The statuses of journaled executions.
const (
	StatusSuspended Status = "suspended" // stopped at a call that needs a decision; see Response.Journal
	StatusDiverged  Status = "diverged"  // a resume whose program did not retrace its journal
)

// journaled is what an execution that keeps a journal carries.
type journaled struct {
	recorder *bridge.Recorder
	journal  Journal // request, digests and seed; calls and clock filled at the end
	resumed  bool
	refusing bool // a session's: nothing suspends, nothing is repeatable
}

// gatedTools is the set of tools a request's calls suspend at: those whose
// spec needs approval and those the request names.
func (e *Engine) gatedTools(req Request) map[string]bool {
	gated := map[string]bool{}
	for name, spec := range e.specs {
		if spec.Approval {
			gated[name] = true
		}
	}
	for _, name := range req.RequireApproval {
		gated[name] = true
	}
	return gated
}

// journalFor sets up the journal of an execution that may suspend: one
// whose request names tools needing approval (or whose spec says so), or
// on an engine with a hook that may suspend. nil: the execution keeps none.
func (e *Engine) journalFor(req Request, inputs, manifest json.RawMessage, replay *Journal, decision bridge.Decision) (*journaled, error) {
	gated := e.gatedTools(req)
	if replay == nil && len(gated) == 0 && len(e.suspends) == 0 {
		return nil, nil
	}
	if req.session != "" {
		return e.refusingJournal(gated)
	}
	j := &journaled{journal: Journal{Version: JournalVersion, Request: journalRequest(req, inputs)}}
	j.journal.ProgramDigest, j.journal.ManifestDigest = programDigest(j.journal.Request), manifestDigest(manifest, gated)
	cfg := bridge.RecorderConfig{Suspends: func(call bridge.HookCall) bool {
		return gated[call.Tool.Name] || e.hookSuspends(call)
	}}
	if replay != nil {
		j.resumed, j.journal.Seed = true, replay.Seed
		cfg.Clock, cfg.Decision = replay.Clock, decision
		cfg.Pending = &bridge.RecordedCall{Tool: replay.Pending.Tool, Args: replay.Pending.Args, Occurrence: replay.Pending.Occurrence}
		for _, c := range replay.Calls {
			cfg.Replay = append(cfg.Replay, bridge.RecordedCall{Tool: c.Tool, Args: c.Args, Occurrence: c.Occurrence, Response: c.Result})
		}
	} else {
		j.journal.Seed = randomSeed()
	}
	recorder, err := bridge.NewRecorder(cfg)
	if err != nil {
		return nil, &ExecError{Kind: ErrBadRequest, Message: "journal: " + err.Error()}
	}
	j.recorder = recorder
	return j, nil
}

func journalRequest(req Request, inputs json.RawMessage) JournalRequest {
	approval := append([]string(nil), req.RequireApproval...)
	sort.Strings(approval)
	return JournalRequest{Source: req.Source, Inputs: append(json.RawMessage(nil), inputs...), Tools: req.Tools, PLM: req.PLM,
		Name: req.Name, RequireApproval: approval}
}

func programDigest(r JournalRequest) string {
	inputs := r.Inputs
	if compact := new(bytes.Buffer); json.Compact(compact, inputs) == nil {
		inputs = compact.Bytes()
	}
	encoded, _ := json.Marshal(JournalRequest{Source: r.Source, Inputs: inputs, Tools: r.Tools, PLM: r.PLM, Name: r.Name,
		RequireApproval: r.RequireApproval})
	sum := sha256.Sum256(encoded)
	return hex.EncodeToString(sum[:])
}

func manifestDigest(manifest json.RawMessage, gated map[string]bool) string {
	names := make([]string, 0, len(gated))
	for name := range gated {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	h.Write(manifest)
	for _, name := range names {
		h.Write([]byte{0})
		h.Write([]byte(name))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func randomSeed() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.LittleEndian.Uint64(b[:]) >> 1)
}

// determinism is what the guest needs to make the program repeatable.
func (j *journaled) determinism() *protocol.Determinism {
	if j == nil || j.refusing {
		return nil
	}
	return &protocol.Determinism{Seed: j.journal.Seed}
}

// finish completes the journal of an execution that ended and reports
// how the recorder ended it: a suspension (with the journal), a
// divergence, or a replay that ended before it reached its pending call.
func (j *journaled) finish(resp *Response) (*Response, error, bool) {
	if j == nil {
		return resp, nil, false
	}
	switch j.recorder.Halted() {
	case bridge.Suspended:
		calls, clock, pending := j.recorder.Journal()
		journal := j.journal
		journal.Clock, journal.Calls = clock, make([]JournalCall, len(calls))
		for i, c := range calls {
			journal.Calls[i] = JournalCall{Tool: c.Tool, Args: c.Args, Occurrence: c.Occurrence, Result: c.Response}
		}
		journal.Pending = &JournalCall{Tool: pending.Tool, Args: pending.Args, Occurrence: pending.Occurrence}
		journal.Emitted = resp.Emitted
		resp.Status, resp.Journal = StatusSuspended, &journal
		resp.Error = fmt.Sprintf("Suspended: %s(%s) needs a decision", pending.Tool, pending.Args)
		resp.Value, resp.Line, resp.Traceback = nil, 0, ""
		return resp, &ExecError{Kind: ErrSuspended, Message: fmt.Sprintf("%s needs a decision", pending.Tool)}, true
	case bridge.Diverged:
		return diverged(resp, j.recorder.Divergence())
	}
	if j.resumed && !j.recorder.ReachedPending() {
		return diverged(resp, "the program ended before it reached the journal's pending call")
	}
	return resp, nil, false
}

func diverged(resp *Response, why string) (*Response, error, bool) {
	resp.Status, resp.Error = StatusDiverged, "ReplayDiverged: "+why
	resp.Value, resp.Line, resp.Traceback = nil, 0, ""
	return resp, &ExecError{Kind: ErrDiverged, Message: why}, true
}

// Resume continues a suspended execution: it runs the journal's program
// again from the start, answering each call the journal holds from it
// without running its tool, applies the decision to the pending call, and
// continues live from there; it may suspend again at the next call that
// needs a decision (the new journal holds every call so far). The journal
// must come from this program on an engine with the same tools (digests);
// a program that does not retrace it ends with StatusDiverged and
// ErrDiverged, having run no tool. The Response is the whole run's: the
// stdout of the replayed part included, the trace marking replayed calls.
func (e *Engine) Resume(ctx context.Context, journal *Journal, decision Decision) (*Response, error) {
	req, answer, err := e.resumeRequest(journal, decision)
	if err != nil {
		return nil, err
	}
	req.replay, req.decision = journal, answer
	return e.Execute(ctx, req)
}

// resumeRequest checks a journal and a decision against this engine.
func (e *Engine) resumeRequest(j *Journal, d Decision) (Request, bridge.Decision, error) {
	bad := func(format string, args ...any) (Request, bridge.Decision, error) {
		return Request{}, bridge.Decision{}, &ExecError{Kind: ErrBadRequest, Message: "resume: " + fmt.Sprintf(format, args...)}
	}
	if j == nil || j.Version != JournalVersion {
		return bad("not a version %d journal", JournalVersion)
	}
	if j.Pending == nil {
		return bad("the journal has no pending call")
	}
	req := Request{Source: j.Request.Source, Inputs: j.Request.Inputs, Tools: j.Request.Tools, PLM: j.Request.PLM,
		Name: j.Request.Name, RequireApproval: j.Request.RequireApproval}
	if programDigest(j.Request) != j.ProgramDigest {
		return bad("the journal's request does not match its program digest (edited program or inputs)")
	}
	_, _, manifest, err := e.resolveRequest(req)
	if err != nil {
		return Request{}, bridge.Decision{}, err
	}
	if manifestDigest(manifest, e.gatedTools(req)) != j.ManifestDigest {
		return bad("the journal was made with other tools (manifest digest differs)")
	}
	switch d.Kind {
	case DecisionApprove:
		return req, bridge.Decision{Run: true}, nil
	case DecisionDeny:
		message := d.Message
		if message == "" {
			message = "not approved"
		}
		encoded, _ := json.Marshal(protocol.ToolResponse{Error: &message, Type: protocol.ToolErrorPermission})
		return req, bridge.Decision{Response: encoded}, nil
	case DecisionAnswer:
		value := bytes.TrimSpace(d.Value)
		if len(value) == 0 || !json.Valid(value) {
			return bad("the answer is not a JSON value")
		}
		return req, bridge.Decision{Response: append(append([]byte(`{"value":`), value...), '}')}, nil
	}
	return bad("unknown decision %q (have: approve, deny, answer)", d.Kind)
}

// sessionRefusal is what a call that needs approval raises in a session:
// a session's namespace lives in its child, which no journal can rebuild,
// so its executions are never suspended.
const sessionRefusal = "needs approval, and an execution in a session cannot be suspended"

// refusingJournal is the recorder of a session's execution: the calls that
// would suspend raise PermissionError instead; nothing is journaled.
func (e *Engine) refusingJournal(gated map[string]bool) (*journaled, error) {
	recorder, err := bridge.NewRecorder(bridge.RecorderConfig{Refuse: sessionRefusal, Suspends: func(call bridge.HookCall) bool {
		return gated[call.Tool.Name] || e.hookSuspends(call)
	}})
	if err != nil {
		return nil, err
	}
	return &journaled{recorder: recorder, refusing: true}, nil
}

// hookSuspends asks the engine's Suspend hooks about a call.
func (e *Engine) hookSuspends(call bridge.HookCall) bool {
	if len(e.suspends) == 0 {
		return false
	}
	info := callInfo(call)
	for _, h := range e.suspends {
		if h.Suspend(info) {
			return true
		}
	}
	return false
}
