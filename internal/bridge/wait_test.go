package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// A call the program starts itself (`now`) may be effectful, is not early,
// and a wait wakes when it is done; a wait with nothing done ends at its time
// or at the context's end, and says which.
func TestWaitWakesWhenAProgramsOwnCallIsDone(t *testing.T) {
	release := make(chan struct{})
	effect, err := NewTool("effect", "", nil, false, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return json.RawMessage(`"did"`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSession(ctx, Config{Tools: map[string]*Tool{"effect": effect}, Workers: make(chan struct{})})
	defer s.Close()
	request := []byte(`{"args":{},"tool":"effect"}`)
	if s.Prepare(request) != 0 {
		t.Fatal("an effectful tool was prepared as a guess")
	}
	handle := s.Prepare([]byte(`{"args":{},"now":true,"tool":"effect"}`))
	if handle == 0 {
		t.Fatal("the program's own call was refused (it takes no worker slot)")
	}
	wait := func(ms int) string {
		raw, _ := json.Marshal(protocol.WaitRequest{Handles: []uint64{handle, 999}, Ms: float64(ms)})
		_, response, _ := s.Answer(protocol.CrossWait, 0, raw)
		return string(response)
	}
	// 999 is no handle of this session: reported done at once, its resolve answers.
	if got := wait(60000); got != `{"done":[999]}` {
		t.Fatalf("wait with a foreign handle: %s", got)
	}
	raw, _ := json.Marshal(protocol.WaitRequest{Handles: []uint64{handle}, Ms: 1})
	if _, response, _ := s.Answer(protocol.CrossWait, 0, raw); string(response) != `{"done":[]}` {
		t.Fatalf("wait past its time: %s", response)
	}
	close(release)
	raw, _ = json.Marshal(protocol.WaitRequest{Handles: []uint64{handle}, Ms: 60000})
	if _, response, _ := s.Answer(protocol.CrossWait, 0, raw); string(response) != `{"done":[`+jsonNumber(handle)+`]}` {
		t.Fatalf("wait for a finished call: %s", response)
	}
	if got := s.Resolve(handle, request); string(got) != `{"value":"did"}` {
		t.Fatalf("resolve: %s", got)
	}
	calls := s.Calls()
	if len(calls) != 1 || calls[0].Early || calls[0].Claimed || calls[0].Error != "" {
		t.Fatalf("trace %+v: want one plain call", calls)
	}
	if _, response, _ := s.Answer(protocol.CrossWait, 0, []byte(`{"handles":"x"}`)); string(response) != `{"error":"malformed wait request"}` {
		t.Fatalf("malformed wait: %s", response)
	}
	pending := s.Prepare([]byte(`{"args":{},"now":true,"tool":"effect"}`))
	cancel()
	raw, _ = json.Marshal(protocol.WaitRequest{Handles: []uint64{pending}, Ms: 60000})
	if _, _, reason := s.Answer(protocol.CrossWait, 0, raw); reason != Cancelled {
		t.Fatalf("a wait when the context ends: reason %v, want Cancelled", reason)
	}
}

func jsonNumber(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// An effectful call cancels the guesses it may make stale, never a read the
// program started itself to await: that read is the program's own, concurrent
// with the write by its choice. A write the program starts itself to await
// cancels the guesses like a plain call.
func TestAProgramsOwnReadIsNotMadeStale(t *testing.T) {
	read := testTool(t, "read", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	read.Reads = []string{"k"}
	write, err := NewTool("write", "", nil, false, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	write.Writes = []string{"k"}
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"read": read, "write": write}})
	guess := s.Prepare([]byte(`{"args":{},"tool":"read"}`))
	own := s.Prepare([]byte(`{"args":{},"now":true,"tool":"read"}`))
	if guess == 0 || own == 0 {
		t.Fatalf("prepared %d and %d", guess, own)
	}
	if handle := s.Prepare([]byte(`{"args":{},"now":true,"tool":"write"}`)); handle == 0 {
		t.Fatal("the program's own write was refused")
	}
	s.mu.Lock()
	_, guessKept := s.handles[guess]
	_, ownKept := s.handles[own]
	s.mu.Unlock()
	if guessKept || !ownKept {
		t.Fatalf("after the write: guess kept %v, own read kept %v; want only the own read", guessKept, ownKept)
	}
	s.Close()
	for _, c := range s.Calls() {
		if c.Stale != (c.Tool == "read" && c.Early) {
			t.Fatalf("trace %+v: only the guessed read is stale", s.Calls())
		}
	}
}

// The program's own call of an effectful tool (async code) ran once, so its
// response is never dropped to be run again, even past the host byte
// budget: the effect happens once and the program stops with `limit`.
func TestAProgramsOwnEffectIsNeverEvicted(t *testing.T) {
	var runs atomic.Int32
	big := json.RawMessage(`"` + strings.Repeat("x", 4096) + `"`)
	write, err := NewTool("write", "", nil, false, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		runs.Add(1)
		return big, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(context.Background(), Config{Tools: map[string]*Tool{"write": write},
		Limits: Limits{MaxHostBytes: 2048}})
	defer s.Close()
	request := []byte(`{"args":{},"now":true,"tool":"write"}`)
	handle := s.Prepare(request)
	if handle == 0 {
		t.Fatal("the program's own write was refused")
	}
	response := s.Resolve(handle, request)
	if runs.Load() != 1 {
		t.Fatalf("the effectful tool ran %d times, want once", runs.Load())
	}
	if !strings.Contains(string(response), strings.Repeat("x", 4096)) {
		t.Fatalf("the response was not the tool's: %.120s", response)
	}
	if !strings.HasPrefix(s.LimitExceeded(), "host memory limit") {
		t.Fatalf("limit %q: want the host memory limit", s.LimitExceeded())
	}
}
