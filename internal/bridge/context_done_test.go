package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
)

// Once an execution's context is done no tool starts, whether the program
// calls it now or it was prepared early: the handler never runs and the
// program gets an error (which the transport turns into the stop).
func TestNoToolStartsAfterTheContextIsDone(t *testing.T) {
	var ran atomic.Int32
	handler := func(context.Context, json.RawMessage) (json.RawMessage, error) {
		ran.Add(1)
		return json.RawMessage("1"), nil
	}
	effect, err := NewTool("effect", "", nil, false, handler)
	if err != nil {
		t.Fatal(err)
	}
	guess, err := NewTool("guess", "", nil, true, handler)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSession(ctx, Config{Tools: map[string]*Tool{"effect": effect, "guess": guess}, Workers: make(chan struct{}, 4)})
	defer s.Close()
	cancel()

	now := s.Call([]byte(`{"tool":"effect","args":{}}`))
	handle := s.Prepare([]byte(`{"tool":"guess","args":{}}`))
	resolved := s.Resolve(handle, []byte(`{"tool":"guess","args":{}}`))
	if n := ran.Load(); n != 0 {
		t.Fatalf("%d tool handlers ran under a done context", n)
	}
	for name, response := range map[string][]byte{"call": now, "early call": resolved} {
		if !strings.Contains(string(response), `"error"`) || !strings.Contains(string(response), "canceled") {
			t.Errorf("%s answered %s, want a cancellation error", name, response)
		}
	}
}
