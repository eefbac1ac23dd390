package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// maxKeptValue bounds the value kept per record; every expected value is shorter.
const maxKeptValue = 256

// record is one submission and what it got back.
type record struct {
	id         int64
	class      *class
	start, end time.Time
	out        outcome
}

// ledger holds every submission, those still in flight, and the effects of
// `emit` counted per submission id where they happen: in the tool itself,
// whatever the response says.
type ledger struct {
	mu       sync.Mutex
	records  []record
	inflight map[int64]record
	emits    map[int64]int
	unread   int // emits whose arguments named no submission
}

func newLedger() *ledger {
	return &ledger{inflight: map[int64]record{}, emits: map[int64]int{}}
}

func (l *ledger) begin(id int64, c *class) {
	l.mu.Lock()
	l.inflight[id] = record{id: id, class: c, start: time.Now()}
	l.mu.Unlock()
}

func (l *ledger) end(id int64, o outcome) {
	l.mu.Lock()
	r := l.inflight[id]
	delete(l.inflight, id)
	r.end, r.out = time.Now(), o
	if len(r.out.value) > maxKeptValue {
		// A hostile value (60 MiB, say) is not kept: the harness must not be
		// what grows the host.
		r.out.value = strings.Clone(r.out.value[:maxKeptValue]) + "..."
	}
	l.records = append(l.records, r)
	l.mu.Unlock()
}

func (l *ledger) emitted(args json.RawMessage) {
	var in struct {
		Value *int64 `json:"value"`
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if json.Unmarshal(args, &in) != nil || in.Value == nil {
		l.unread++
		return
	}
	l.emits[*in.Value]++
}

// forgetEffects drops the effects counted so far (those of the warm-up).
func (l *ledger) forgetEffects() {
	l.mu.Lock()
	l.emits, l.unread = map[int64]int{}, 0
	l.mu.Unlock()
}

// snapshot returns the finished records, those still in flight, and the
// effect counts.
func (l *ledger) snapshot() ([]record, []record, map[int64]int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var open []record
	for _, r := range l.inflight {
		open = append(open, r)
	}
	emits := make(map[int64]int, len(l.emits))
	for id, n := range l.emits {
		emits[id] = n
	}
	return append([]record(nil), l.records...), open, emits, l.unread
}

// tools are the demo tools, with `emit` counting its effects into the
// ledger, and `stubborn`: a speculative tool that ignores its context.
func (l *ledger) tools() []host.Tool {
	var tools []host.Tool
	for _, t := range demotools.Tools() {
		if t.Spec.Name == "emit" {
			inner := t.Handler
			t.Handler = func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
				l.emitted(args)
				return inner(ctx, args)
			}
		}
		tools = append(tools, t)
	}
	return append(tools, stubborn())
}

const stubbornFor = 15 * time.Second

func stubborn() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "stubborn", Description: "Wait 15 s whatever the context says, then return value.", Speculative: true,
		Schema: json.RawMessage(`{"type":"object","properties":{"value":{}},"required":["value"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		time.Sleep(stubbornFor)
		var in struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		return in.Value, nil
	})
}
