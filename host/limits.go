package host

import (
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Limits bound one execution. A zero field takes its default.
type Limits struct {
	Timeout      time.Duration // wall clock per execution (default 30s); an earlier ctx deadline wins
	StdoutBytes  int           // captured stdout (and, separately, stderr) kept (default 1 MiB); the rest is dropped and flagged
	ResultBytes  int           // encoded result (default 16 MiB)
	ResultDepth  int           // nesting of the result (default 100)
	ToolCalls    int           // tool calls per execution, early ones included (default 10,000)
	ToolArgBytes int           // bytes of one tool request (default 1 MiB)
	Recursion    int           // Python recursion limit (default 1,000)
	Fanout       int           // PLM: iterations of one loop prepared ahead (default 64)
}

// DefaultLimits are the limits of an engine made without WithLimits.
var DefaultLimits = Limits{
	Timeout:      30 * time.Second,
	StdoutBytes:  protocol.DefaultStdoutBytes,
	ResultBytes:  protocol.DefaultResultBytes,
	ResultDepth:  protocol.DefaultResultDepth,
	ToolCalls:    10000,
	ToolArgBytes: 1 << 20,
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
	pick(&l.Recursion, d.Recursion)
	if l.Fanout < 0 {
		l.Fanout = 0
	} else if l.Fanout == 0 {
		l.Fanout = d.Fanout
	}
	return l
}
