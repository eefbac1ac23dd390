// Package agenttools holds deterministic tools that keep state, in the shapes
// agents use (a key-value store, a file system, an issue tracker, an order
// desk, web search and fetch), for the agent corpus (tests/agents) and its
// benchmark. State lives in a World carried by the execution's context, so
// every execution starts from the same fixture and a read that ran before a
// write it should have followed returns the old value: a stale read shows in
// the program's result.
package agenttools

import (
	"context"
	"encoding/json"
	"sync"
)

// Entry is one tool call as the world saw it, in the order calls reached
// their result (the order of the plain program when it runs alone).
type Entry struct {
	Tool      string
	Args      json.RawMessage
	Result    json.RawMessage // nil when the call failed
	Error     string
	Effectful bool
	// Reads and Writes are the tool's declared resources (host.ToolSpec):
	// nil means everything.
	Reads, Writes []string
}

// World is the state of one execution's tools. Reads take their snapshot
// when the call starts; writes apply when the call ends, so any overlap of a
// read with a write it should follow returns the old state.
type World struct {
	mu     sync.Mutex
	kv     map[string]json.RawMessage
	files  map[string]string
	issues []*issue
	orders map[string]*order
	log    []Entry
}

type worldKey struct{}

// WithWorld returns ctx carrying w: the tools of an execution run with that
// world when the execution's context is derived from ctx.
func WithWorld(ctx context.Context, w *World) context.Context {
	return context.WithValue(ctx, worldKey{}, w)
}

func worldOf(ctx context.Context) *World {
	w, _ := ctx.Value(worldKey{}).(*World)
	return w
}

// NewWorld is the fixture every execution starts from.
func NewWorld() *World {
	w := &World{kv: map[string]json.RawMessage{}, files: map[string]string{}, orders: map[string]*order{}}
	for k, v := range fixtureKV {
		w.kv[k] = json.RawMessage(v)
	}
	for path, text := range fixtureFiles {
		w.files[path] = text
	}
	for _, i := range fixtureIssues() {
		w.issues = append(w.issues, i)
	}
	for _, o := range fixtureOrders() {
		w.orders[o.ID] = o
	}
	return w
}

// Log is every call the world answered, in order.
func (w *World) Log() []Entry {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Entry(nil), w.log...)
}

// Effects is the effectful calls, in the order they happened.
func (w *World) Effects() []Entry {
	var out []Entry
	for _, e := range w.Log() {
		if e.Effectful {
			out = append(out, e)
		}
	}
	return out
}

func (w *World) record(e Entry) {
	w.mu.Lock()
	w.log = append(w.log, e)
	w.mu.Unlock()
}
