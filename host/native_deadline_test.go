package host_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// An eager execution whose wait for the compiler is cut by its deadline ends
// as a timeout: the program must not go on in Python past its deadline and
// report ok (the compile wait is a crossing like a tool call, and the answer
// after the deadline stops the program). The compile must outlast the
// 500 ms deadline on any machine: two hundred unrolled lines took g++ only
// 415 ms on a quiet one, so fifteen hundred are used, within the 64 KiB
// source limit (the cancelled compile is killed at the deadline, so its
// size costs nothing more).
func TestNativeEagerWaitCutByTheDeadlineIsATimeout(t *testing.T) {
	var source strings.Builder
	source.WriteString("def unrolled(x: int) -> int:\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&source, "    x = (x * %d + %d) %% 1000003\n", 37+i%5, i)
	}
	source.WriteString("    return x\n\nresult = unrolled(1)\n")
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		// Several runs: the Python fallback racing the deadline's interrupt
		// won only some of the time before the answer itself stopped it.
		for run := 0; run < 3; run++ {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			resp, err := e.Execute(ctx, host.Request{Native: host.NativeEager, Source: source.String()})
			cancel()
			if !errors.Is(err, host.ErrTimeout) || resp == nil || resp.Status != host.StatusTimeout {
				t.Fatalf("run %d: err %v, response %+v", run, err, resp)
			}
		}
		mustValue(t, e, "result = 'next'", `{}`, `"next"`)
	})
}
