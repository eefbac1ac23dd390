package host_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// A context that is already done runs nothing: no line of the program and no
// tool, and no stream starts, so a caller that retries never repeats an
// effect. The program here
// would emit first thing; the error says why nothing ran, as the matching
// context error and (for a deadline) ErrTimeout.
func testExecuteWithDoneContextRunsNothing(t *testing.T, m isolationMode) {
	e := m.engine(t)
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelExpired()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		kind []error
	}{
		{"expired", expired, []error{host.ErrTimeout, context.DeadlineExceeded}},
		{"cancelled", cancelled, []error{context.Canceled}},
	} {
		resp, err := e.Execute(c.ctx, host.Request{Source: "emit(value='sent')\nresult = 1"})
		var exec *host.ExecError
		if !errors.As(err, &exec) {
			t.Fatalf("%s: err %v (%T), want an *ExecError", c.name, err, err)
		}
		for _, kind := range c.kind {
			if !errors.Is(err, kind) {
				t.Errorf("%s: err %v does not match %v", c.name, err, kind)
			}
		}
		if resp != nil && (len(resp.Emitted) != 0 || len(resp.Calls) != 0) {
			t.Errorf("%s: the program ran under a done context: emitted %s, calls %+v", c.name, resp.Emitted, resp.Calls)
		}
	}
	stream, err := e.Stream(cancelled, host.Request{})
	if stream != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Stream under a cancelled context: %v, %v", stream, err)
	}
	mustValue(t, e, "result = emit(value='once')", `{}`, `1`)
}
