package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// A call running inline that the transport abandons is traced once, as
// abandoned, and counted until its tool returns; the program then receives
// the abandoned error, and nothing more reaches the caller's writers.
func TestAbandonInlineTracesTheCallOnceAndCountsItUntilItReturns(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	stuck := testTool(t, "stuck", func(context.Context, json.RawMessage) (json.RawMessage, error) {
		close(entered)
		<-release
		return json.RawMessage("1"), nil
	})
	var abandoned atomic.Int64
	var stdout bytes.Buffer
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"stuck": stuck}, Abandoned: &abandoned, Stdout: &stdout})
	s.RunToolsInline()
	if s.AbandonInline() {
		t.Fatal("abandoned a call while none ran")
	}
	answered := make(chan []byte)
	go func() { answered <- s.Call([]byte(`{"tool": "stuck", "args": {}}`)) }()
	<-entered
	if !s.AbandonInline() {
		t.Fatal("the running call was not abandoned")
	}
	s.Close()
	calls := s.Calls()
	if len(calls) != 1 || calls[0].Error != AbandonedError || abandoned.Load() != 1 {
		t.Fatalf("trace %+v, %d abandoned", calls, abandoned.Load())
	}
	close(release)
	if response := <-answered; !strings.Contains(string(response), "abandoned") {
		t.Fatalf("the program received %s", response)
	}
	if n := len(s.Calls()); n != 1 || abandoned.Load() != 0 {
		t.Fatalf("%d trace entries, %d abandoned after the tool returned", n, abandoned.Load())
	}
	s.Output(protocol.OutputStdout, []byte("late\n"))
	if stdout.Len() != 0 {
		t.Fatalf("output after the abandonment reached the writer: %q", stdout.String())
	}
}
