package host

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Request is one program to run.
type Request struct {
	// Source is the Python program. It reads `inputs` and sets `result`.
	Source string
	// Inputs is the JSON value bound to `inputs` (default {}).
	Inputs json.RawMessage
	// Tools names the engine's tools this program may call (nil: all of them).
	Tools []string
	// PLM starts independent speculative tool calls as soon as their arguments
	// are known, without changing what the program means.
	PLM bool
	// Native compiles eligible functions to native code (NativeEager,
	// NativeAuto); the engine needs WithNative. Default NativeOff.
	Native NativeMode
	// Limits tighten the engine's limits for this request only: each field
	// that is set (non-zero) and lower than the engine's takes its place
	// (min(engine, request)); a larger one is ignored, so a request can never
	// loosen what the engine allows. A negative Fanout turns PLM's loop
	// fan-out off. Limits that cannot work together (HostBytes not above
	// twice StdoutBytes) are an ErrBadRequest.
	Limits Limits
	// Stdout and Stderr, when set, receive the program's output live, as it
	// writes it: each line once it ends (or 8 KiB, or an explicit flush),
	// and the rest when the program ends. They receive exactly what
	// Response.Stdout and Response.Stderr hold, capped at
	// Limits.StdoutBytes each; writes are sequential, from one goroutine at
	// a time, and none starts after Execute (or Finish) returns. A Write
	// that blocks holds the program (it waits, like a full pipe) until its
	// deadline; one still blocked ToolGrace after the deadline is given up
	// on, and nothing more is written to that writer.
	Stdout, Stderr io.Writer
	// Name is the program's file in its traceback
	// (`File "agent/plan.py", line 3, in f`); default "<spine>". At most 256
	// characters, without control characters.
	Name string
	// RequireApproval names tools whose calls need a decision in this
	// execution, besides those whose ToolSpec.Approval says so: the program
	// stops at such a call (StatusSuspended, ErrSuspended) and
	// Response.Journal holds what Engine.Resume needs to continue it.
	RequireApproval []string

	replay      *Journal              // Resume: the journal the program retraces
	decision    bridge.Decision       // Resume: what the pending call gets
	determinism *protocol.Determinism // a journaled execution's repeatable sources
	session     string                // the session whose namespace it runs in (session.go)

	// Program is a program compiled by Engine.Compile, run instead of
	// Source (leave Source empty); its PLM and Name apply unless the
	// request sets them. Execute only; a Stream refuses it.
	Program *Program

	// compileOnly makes the execution Engine.Compile's: compile, do not run.
	compileOnly bool
	// kept is the program's kept native plan and code (keptplan.go);
	// keepPlan asks the guest to hand over its own when it makes one.
	kept     json.RawMessage // a protocol.Compiled
	keepPlan bool
}

// Status is how an execution ended; exactly one per execution.
type Status string

// The statuses.
const (
	StatusOK        Status = "ok"           // the program finished
	StatusError     Status = "error"        // the program raised
	StatusTimeout   Status = "timeout"      // the deadline passed
	StatusCancelled Status = "cancelled"    // the caller cancelled the context
	StatusLimit     Status = "limit"        // a limit (tool calls, result size or depth) was exceeded
	StatusMemory    Status = "memory"       // the program ran out of memory (sandbox)
	StatusOutput    Status = "output_limit" // the guest wrote more than allowed (sandbox)
	StatusCrashed   Status = "crashed"      // the guest process died, or the guest could not run the request
	StatusViolation Status = "violation"    // a policy or protocol breach: a forbidden system call, a frame or result the host refused
)

// Response is the outcome of one execution.
type Response struct {
	Status Status
	// Isolation is the level the execution ran at ("sandbox", "inproc").
	Isolation string
	// Value is the JSON of the program's `result` ("null" when it set none).
	Value json.RawMessage
	// Error is the program's error as "Type: message" ("" on success).
	Error string
	// Line is the program's line where the error was raised (0 if none).
	Line int
	// Traceback lists the program's own frames of the error.
	Traceback string
	// Stdout and Stderr are what the program printed, up to Limits.StdoutBytes each.
	Stdout, Stderr                   string
	StdoutTruncated, StderrTruncated bool
	// Transformed is the program as PLM rewrote it ("" when it did not),
	// clipped to 128 Ki characters.
	Transformed string
	// Calls is the trace of tool calls, in order of start.
	Calls []Call
	// Emitted is what tools passed to Emit, in order.
	Emitted []json.RawMessage
	// Elapsed is the wall time of the execution.
	Elapsed time.Duration
	// Native lists the program's module-level functions and whether each ran
	// native code (only when the request asked for Native).
	Native []NativeFunction
	// Chunks is when each chunk of a streamed program arrived (Stream.Feed),
	// on the time base of Calls; the program itself ran from the end of the
	// stream (Stream.Finish), for Elapsed. Empty unless streamed.
	Chunks []Chunk
	// Journal is set when Status is StatusSuspended: give it to
	// Engine.Resume with a decision (it is JSON: store it, resume anywhere).
	Journal *Journal
}

// Call is one tool call of the trace.
type Call struct {
	Tool     string
	Args     json.RawMessage
	Start    time.Duration // offset from the start of the execution
	End      time.Duration
	Error    string // the tool's error, "" on success
	Early    bool   // started before the program reached it (PLM or prefix)
	Stream   bool   // started while the program was still arriving
	Claimed  bool   // an early call whose result the program used
	Mismatch bool   // the program's call did not match what was prepared, and ran again
	// ArgsTruncated: the host refused the request (malformed, unknown tool,
	// over a limit, arguments the schema refuses) and Args is not its
	// arguments but a JSON string holding the start (256 bytes at most) of
	// what the program sent.
	ArgsTruncated bool
	Stale         bool // an early call cancelled before use: an effectful call changed what it reads
	Replayed      bool // answered from the journal of a resumed execution: its tool did not run
}

// checkName refuses a program name that would garble a traceback.
func checkName(name string) error {
	if utf8.RuneCountInString(name) > protocol.MaxNameChars || !utf8.ValidString(name) {
		return &ExecError{Kind: ErrBadRequest, Message: fmt.Sprintf("Request.Name must be valid UTF-8 of at most %d characters", protocol.MaxNameChars)}
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '"' {
			return &ExecError{Kind: ErrBadRequest, Message: fmt.Sprintf("Request.Name must not hold control characters or quotes: %q", name)}
		}
	}
	return nil
}

// live names the streams the request reads live, for the guest.
func (r Request) live() []string {
	var streams []string
	if r.Stdout != nil {
		streams = append(streams, "stdout")
	}
	if r.Stderr != nil {
		streams = append(streams, "stderr")
	}
	return streams
}
