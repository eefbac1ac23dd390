//go:build cgo

package inproc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// endlessAnalysis is a chunk whose analysis, with the guest's own budget
// lifted, takes hours: each `z.append(1)` makes the analysis walk y (20,000
// containers) for every known name. Its first statement starts `started`,
// which tells the test the analysis is under way.
var endlessAnalysis = "a = started()\nx = [0] * 65536\ny = [x] * 20000\nz = []\n" +
	strings.Repeat("z.append(1)\n", 100000)

// An entry still running when its session's context ends is interrupted
// wherever it is (it runs no program code, so the interrupt cannot wait for
// program frames): the entry fails with the interrupt at once, not after the
// analysis.
func TestEntryRunningWhenItsContextEndsIsInterrupted(t *testing.T) {
	running := make(chan struct{})
	tool, err := bridge.NewTool("started", "", json.RawMessage(`{"type":"object"}`), true,
		func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			close(running)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{Tools: map[string]*bridge.Tool{"started": tool},
		Workers: make(chan struct{}, 1)})
	defer s.Close()
	// The host never lifts the budget; the test does, to stand for analysis
	// the guest does not bound.
	begin := `{"stream":"endless","inputs":{},"manifest":[{"name":"started","speculative":true}],` +
		`"budget":{"statement_steps":1e15,"statement_ms":1e12,"stream_ms":1e12}}`
	if err := Entry(s, protocol.EntryPrefixBegin, []byte(begin)); err != nil {
		t.Fatal(err)
	}
	feed, _ := json.Marshal(protocol.PrefixFeed{Stream: "endless", Chunk: endlessAnalysis})
	done := make(chan error, 1)
	go func() { done <- Entry(s, protocol.EntryPrefixFeed, feed) }()
	select {
	case <-running:
	case err := <-done:
		t.Fatalf("the analysis ended before it started its call: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "Interrupt") {
			t.Fatalf("feed after its context ended: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the feed ran on after its context ended")
	}
	// The stream's state goes whatever the context: the abort runs.
	if err := Entry(s, protocol.EntryPrefixAbort, []byte("endless")); err != nil {
		t.Fatalf("abort under an ended context: %v", err)
	}
}
