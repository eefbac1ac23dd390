package host

import (
	"fmt"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// ToolGrace is how long a tool may take to return once its execution's
// context has ended (deadline, cancel, or the end of the program for an
// early call nobody claimed). Past it the call is abandoned: the execution
// goes on and its trace says so (Call.Error starts with "abandoned: "), the
// tool's goroutine runs on until the tool returns, counted by
// Engine.AbandonedCalls. So Execute returns within the deadline plus
// ToolGrace plus the isolation's own grace (sandbox: 500 ms before the
// child is killed), whatever a tool does. In process, a single long C call
// cannot be interrupted: Execute returns when it ends.
const ToolGrace = bridge.Grace

// Limits bound one execution. A zero field takes its default.
type Limits struct {
	Timeout      time.Duration // wall clock per execution (default 30s); an earlier ctx deadline wins
	StdoutBytes  int           // captured stdout (and, separately, stderr) kept (default 1 MiB); the rest is dropped and flagged
	ResultBytes  int           // encoded result (default 16 MiB)
	ResultDepth  int           // nesting of the result (default 100)
	ToolCalls    int           // tool calls per execution, early and refused ones included (default 10,000)
	ToolArgBytes int           // bytes of one tool request (default 1 MiB)
	// HostBytes bounds the host memory one execution holds (default 2 x
	// StdoutBytes + 14 MiB, 16 MiB with the default StdoutBytes): its trace
	// (tool names, arguments, errors; a refused request keeps only its first
	// 256 bytes), the arguments and responses of early calls not yet
	// claimed, the values tools emit, and its captured stdout and stderr
	// (2 x StdoutBytes, set aside when it starts). A program whose own calls
	// and emitted values would take more is stopped with StatusLimit; early
	// calls give way instead (not started, or their unclaimed responses
	// dropped and run again if claimed), so PLM and streaming never make a
	// program fail that fits without them. It must exceed 2 x StdoutBytes.
	// Concurrent executions each have their own.
	HostBytes int
	Recursion int // Python recursion limit (default 1,000)
	Fanout    int // PLM: iterations of one loop prepared ahead (default 64)
}

// DefaultLimits are the limits of an engine made without WithLimits.
var DefaultLimits = Limits{
	Timeout:      30 * time.Second,
	StdoutBytes:  protocol.DefaultStdoutBytes,
	ResultBytes:  protocol.DefaultResultBytes,
	ResultDepth:  protocol.DefaultResultDepth,
	ToolCalls:    10000,
	ToolArgBytes: 1 << 20,
	HostBytes:    16 << 20,
	Recursion:    protocol.DefaultRecursion,
	Fanout:       protocol.DefaultFanout,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	pick(&l.StdoutBytes, d.StdoutBytes)
	pick(&l.ResultBytes, d.ResultBytes)
	pick(&l.ResultDepth, d.ResultDepth)
	pick(&l.ToolCalls, d.ToolCalls)
	pick(&l.ToolArgBytes, d.ToolArgBytes)
	pick(&l.HostBytes, 2*l.StdoutBytes+d.HostBytes-2*d.StdoutBytes)
	pick(&l.Recursion, d.Recursion)
	if l.Fanout < 0 {
		l.Fanout = 0
	} else if l.Fanout == 0 {
		l.Fanout = d.Fanout
	}
	return l
}

// validate rejects limits that cannot work together (after withDefaults).
func (l Limits) validate() error {
	if l.HostBytes <= 2*l.StdoutBytes {
		return fmt.Errorf("spine: Limits.HostBytes (%d) must exceed twice StdoutBytes (%d): the captured output alone takes that", l.HostBytes, l.StdoutBytes)
	}
	return nil
}

// tightened is l with every field of the request's limits r that is set
// (non-zero) and tighter taking its place: a request can only lower what
// the engine allows. A negative Fanout turns PLM's loop fan-out off.
func (l Limits) tightened(r Limits) Limits {
	lower := func(engine *int, request int) {
		if request > 0 && request < *engine {
			*engine = request
		}
	}
	if r.Timeout > 0 && r.Timeout < l.Timeout {
		l.Timeout = r.Timeout
	}
	lower(&l.StdoutBytes, r.StdoutBytes)
	lower(&l.ResultBytes, r.ResultBytes)
	lower(&l.ResultDepth, r.ResultDepth)
	lower(&l.ToolCalls, r.ToolCalls)
	lower(&l.ToolArgBytes, r.ToolArgBytes)
	lower(&l.HostBytes, r.HostBytes)
	lower(&l.Recursion, r.Recursion)
	if r.Fanout < 0 {
		l.Fanout = 0
	} else {
		lower(&l.Fanout, r.Fanout)
	}
	return l
}

// requestLimits are the limits of one request: the engine's, tightened by
// Request.Limits; a combination that cannot work is the caller's error.
func (e *Engine) requestLimits(req Request) (Limits, error) {
	l := e.limits.tightened(req.Limits)
	if err := l.validate(); err != nil {
		return l, &ExecError{Kind: ErrBadRequest, Message: "Request.Limits: " + strings.TrimPrefix(err.Error(), "spine: ")}
	}
	return l, nil
}

// guest are the limits bootstrap applies itself.
func (l Limits) guest() protocol.ExecuteLimits {
	return protocol.ExecuteLimits{StdoutBytes: l.StdoutBytes, ResultBytes: l.ResultBytes, ResultDepth: l.ResultDepth,
		Recursion: l.Recursion, Fanout: l.Fanout}
}

// result are what the host checks every result against.
func (l Limits) result() protocol.ResultLimits {
	return protocol.ResultLimits{ResultBytes: l.ResultBytes, ResultDepth: l.ResultDepth, StdoutBytes: l.StdoutBytes}
}

// Limits are the engine's limits, defaults filled in (what every execution
// runs under unless its request tightens them).
func (e *Engine) Limits() Limits { return e.limits }
