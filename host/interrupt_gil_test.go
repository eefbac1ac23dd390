package host_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// A deadline stops a program spinning in bytecode without waiting for
// CPython's switch interval: the interrupting thread asks the holder for the
// GIL at once. The program raises that interval to 30 s, so an interrupt
// that waited for it would return 30 s late (with the default 5 ms, every
// deadline in process ended about 5 ms late). The bound below is generous:
// it only tells "at once" from "after the interval".
func TestADeadlineDoesNotWaitForTheSwitchInterval(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{Timeout: 200 * time.Millisecond}))
		// The interval is the process's (in process, the host's own):
		// put CPython's default back for the tests after this one.
		t.Cleanup(func() { mustValueIn(t, e, "import sys\nsys.setswitchinterval(0.005)\nresult = 1", "1") })
		start := time.Now()
		resp, err := e.Execute(context.Background(), host.Request{Source: "import sys\nsys.setswitchinterval(30)\nwhile True:\n    pass"})
		took := time.Since(start)
		if !errors.Is(err, host.ErrTimeout) || resp == nil || resp.Status != host.StatusTimeout {
			t.Fatalf("err %v, response %+v: want a timeout", err, resp)
		}
		if took > 10*time.Second {
			t.Fatalf("the deadline stopped the loop %v after the execution began: the interrupt waited for the switch interval", took)
		}
		mustValueIn(t, e, "result = 2", "2")
	})
}
