package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The child's own timer interrupts a spinning program at its deadline, so it
// ends as a clean timeout that keeps what it printed, not a kill after the
// grace (which loses it). The zygote's preloads must leave the timer's
// handler in place: re-executing `_signal` would reset it.
func TestSandboxDeadlineInterruptsTheProgramAndKeepsItsOutput(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	resp, _ := e.Execute(context.Background(), host.Request{Source: "print('before')\nwhile True:\n    pass"})
	if resp == nil || resp.Status != host.StatusTimeout || resp.Stdout != "before\n" {
		t.Fatalf("%+v", resp)
	}
}
