package agenttools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Latency is how long each tool takes: PerTool[name] when set, else Default.
type Latency struct {
	Default time.Duration
	PerTool map[string]time.Duration
}

func (l Latency) of(name string) time.Duration {
	if d, ok := l.PerTool[name]; ok {
		return d
	}
	return l.Default
}

// def is one tool: run reads or changes the world under its lock and returns
// the value the program receives (encoded under the lock, so it never
// aliases state that a later call changes).
type def struct {
	name, description, schema string
	effectful                 bool
	// resource is the part of the world the tool reads (speculative) or
	// writes (effectful); "" for a tool whose value depends on nothing any
	// tool changes (search, fetch, weather: the web is fixed).
	resource string
	run      func(w *World, args json.RawMessage) (any, error)
}

var errNoWorld = errors.New("agenttools: the execution's context carries no World (use WithWorld)")

// Tools returns every tool of the world. Speculative tools (reads) take
// their snapshot when they start, then wait; effectful tools wait, then
// apply their change: a read that overlaps a write it should have followed
// sees the old state.
func Tools(latency Latency) []host.Tool {
	var tools []host.Tool
	for _, d := range defs() {
		tools = append(tools, d.tool(latency.of(d.name)))
	}
	return tools
}

// Effectful says whether the tool of that name changes the world.
func Effectful(name string) bool {
	for _, d := range defs() {
		if d.name == name {
			return d.effectful
		}
	}
	return false
}

func (d def) tool(latency time.Duration) host.Tool {
	spec := host.ToolSpec{Name: d.name, Description: d.description, Speculative: !d.effectful,
		Schema: json.RawMessage(d.schema)}
	// Declared precisely, so a read of the issues is not held back by a
	// write to the files, while a read of what an earlier effect wrote is.
	switch {
	case d.effectful:
		spec.Writes = []string{d.resource}
	case d.resource == "":
		spec.Reads = []string{}
	default:
		spec.Reads = []string{d.resource}
	}
	return host.NewTool(spec, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		w := worldOf(ctx)
		if w == nil {
			return nil, errNoWorld
		}
		var value json.RawMessage
		var err error
		if !d.effectful {
			value, err = w.apply(d, args)
		}
		if werr := wait(ctx, latency); werr != nil {
			return nil, werr
		}
		if d.effectful {
			value, err = w.apply(d, args)
		}
		entry := Entry{Tool: d.name, Args: append(json.RawMessage(nil), args...), Effectful: d.effectful,
			Reads: spec.Reads, Writes: spec.Writes}
		if err != nil {
			entry.Error = err.Error()
		} else {
			entry.Result = value
		}
		w.record(entry)
		return value, err
	})
}

func (w *World) apply(d def, args json.RawMessage) (json.RawMessage, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, err := d.run(w, args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decode reads a tool's arguments into T (the schema has already checked them).
func decode[T any](name string, args json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(args, &v); err != nil {
		return v, fmt.Errorf("%s: %v", name, err)
	}
	return v, nil
}

func defs() []def {
	var all []def
	all = append(all, kvDefs()...)
	all = append(all, fsDefs()...)
	all = append(all, issueDefs()...)
	all = append(all, orderDefs()...)
	all = append(all, webDefs()...)
	return all
}
