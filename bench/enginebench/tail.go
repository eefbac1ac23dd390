package main

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"sort"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/spine-sandbox/spine/host"
)

// The paced sandbox's tail, taken apart: where the time of each execution
// went (from the response's own timestamps) and whether a Go collection ran
// during it, for all executions and for the slowest 1%. A wall-clock tail on
// a shared machine mixes the neighbours' load with our own causes; the
// stages say which part of an execution grew in the slow ones. The pool's
// own gauge (spine.pool.children, state "starting": forked and not yet
// confined and warmed up) is read just before and just after each
// execution: whether a replacement child's fork and warm-up shared the
// machine with it; its counter spine.pool.beside_start, read likewise, says
// whether one ran beside the execution without the pool's creation gate
// holding it back (a stopped child counts as starting, not as beside).

// stageSample is one execution: its wall time, split at the response's
// timestamps.
type stageSample struct {
	total time.Duration
	// outside: before the execution's clock starts (request checks,
	// encoding) and after it stops (the response built).
	outside time.Duration
	// toCall: from the start to the tool call (a child taken from the pool,
	// the request sent, the child's decoding, compiling and running).
	toCall time.Duration
	call   time.Duration // the tool call, as the host ran it
	// afterCall: from the tool's answer to the end (the child's result,
	// its decoding, the child released).
	afterCall time.Duration
	gc        bool // a Go collection cycle ended or began during it
	// startingBefore, startingAfter: children starting just before the
	// execution began and just after it returned (-1: not watched).
	startingBefore, startingAfter int64
	// beside: the pool counted this execution among those during which a
	// child was being created beside them.
	beside bool
}

// poolWatch reads an engine's pool gauges on demand. It is read twice per
// execution, outside the execution's clock but not outside its process: what
// a read allocates brings the next Go collection nearer, and a collection
// slows the executions it overlaps. So the watch keeps only the two
// instruments it reads (every other one is dropped before aggregation) and
// collects into one reused ResourceMetrics: about 2 KB per read instead of
// the 23 KB that collecting every instrument afresh cost, twice the
// execution's own allocation.
type poolWatch struct {
	reader *sdkmetric.ManualReader
	rm     metricdata.ResourceMetrics
}

// The instruments the watch reads.
const (
	poolChildren    = "spine.pool.children"
	poolBesideStart = "spine.pool.beside_start"
)

// newPoolWatch returns a watch and the option that gives it an engine's
// metrics.
func newPoolWatch() (*poolWatch, host.Option) {
	reader := sdkmetric.NewManualReader()
	onlyRead := func(i sdkmetric.Instrument) (sdkmetric.Stream, bool) {
		if i.Name == poolChildren || i.Name == poolBesideStart {
			return sdkmetric.Stream{}, false // the default stream
		}
		return sdkmetric.Stream{Aggregation: sdkmetric.AggregationDrop{}}, true
	}
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithView(onlyRead))
	return &poolWatch{reader: reader}, host.WithMeterProvider(provider)
}

// read returns how many of the pool's children are starting now, and how
// many executions so far ran beside a child's creation (-1: not watched).
func (w *poolWatch) read() (starting, beside int64) {
	starting, beside = -1, -1
	if w == nil {
		return
	}
	if err := w.reader.Collect(context.Background(), &w.rm); err != nil {
		return
	}
	for _, scope := range w.rm.ScopeMetrics {
		for _, m := range scope.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Gauge[int64]:
				for _, point := range data.DataPoints {
					if state, _ := point.Attributes.Value("spine.pool.state"); m.Name == poolChildren && state.AsString() == "starting" {
						starting = point.Value
					}
				}
			case metricdata.Sum[int64]:
				for _, point := range data.DataPoints {
					if m.Name == poolBesideStart {
						beside = point.Value
					}
				}
			}
		}
	}
	return
}

// settle waits, up to 10 s, until none of the pool's children is starting:
// the paced run then begins with the spares its warm-up took replaced.
func (w *poolWatch) settle() {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if starting, _ := w.read(); starting <= 0 {
			return
		}
	}
}

var gcSample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}

func gcCycles() uint64 {
	metrics.Read(gcSample)
	return gcSample[0].Value.Uint64()
}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// heapAllocated is the bytes this process has allocated on the Go heap so
// far: what brings the next collection nearer.
func heapAllocated() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

// tracedExec runs req once and splits its time into stages. The core program
// makes exactly one tool call.
func tracedExec(e *host.Engine, req host.Request, watch *poolWatch) stageSample {
	startingBefore, besideBefore := watch.read()
	before := gcCycles()
	start := time.Now()
	resp, err := e.Execute(context.Background(), req)
	total := time.Since(start)
	if err != nil || len(resp.Calls) != 1 {
		fmt.Fprintln(os.Stderr, "enginebench: traced execution:", err)
		os.Exit(1)
	}
	c := resp.Calls[0]
	gc := gcCycles() != before
	startingAfter, besideAfter := watch.read()
	return stageSample{total: total, outside: total - resp.Elapsed, toCall: c.Start, call: c.End - c.Start,
		afterCall: resp.Elapsed - c.End, gc: gc, startingBefore: startingBefore, startingAfter: startingAfter,
		beside: besideAfter > besideBefore}
}

// printTailComposition prints, per stage, the median over all executions
// and over the slowest 1%, and how many of each overlapped a collection.
func printTailComposition(samples []stageSample) {
	sorted, slow := bySpeed(samples)
	stages := []struct {
		name string
		of   func(stageSample) time.Duration
	}{
		{"whole execution", func(s stageSample) time.Duration { return s.total }},
		{"to the tool call (child taken, request sent, decoded, compiled, run)", func(s stageSample) time.Duration { return s.toCall }},
		{"the tool call", func(s stageSample) time.Duration { return s.call }},
		{"after the tool call (result sent and decoded, child released)", func(s stageSample) time.Duration { return s.afterCall }},
		{"outside the execution's clock (request checked and encoded, response built)", func(s stageSample) time.Duration { return s.outside }},
	}
	fmt.Printf("Where the paced sandbox's time goes (%d executions; the slowest 1%% are the %d above the 99th percentile):\n\n", len(samples), len(slow))
	fmt.Println("| stage | median, all | median, slowest 1% |")
	fmt.Println("| --- | ---: | ---: |")
	for _, st := range stages {
		fmt.Printf("| %s | %s | %s |\n", st.name, us(medianOf(sorted, st.of)), us(medianOf(slow, st.of)))
	}
	fmt.Printf("| executions during which a Go collection ran | %.1f%% | %.1f%% |\n", 100*share(sorted, func(s stageSample) bool { return s.gc }),
		100*share(slow, func(s stageSample) bool { return s.gc }))
	before := func(s stageSample) bool { return s.startingBefore > 0 }
	after := func(s stageSample) bool { return s.startingAfter > 0 }
	beside := func(s stageSample) bool { return s.beside }
	fmt.Printf("| executions that began while a child was starting (asked for, not yet confined and warmed up; stopped by the creation gate or not) | %.1f%% | %.1f%% |\n", 100*share(sorted, before), 100*share(slow, before))
	fmt.Printf("| executions that returned while a child was starting | %.1f%% | %.1f%% |\n", 100*share(sorted, after), 100*share(slow, after))
	fmt.Printf("| executions during which a child was being created beside them (a fork under way, or a starting child the gate did not stop) | %.1f%% | %.1f%% |\n\n", 100*share(sorted, beside), 100*share(slow, beside))
}

// bySpeed returns the samples fastest first, and the slowest 1% of them.
func bySpeed(samples []stageSample) (sorted, slow []stageSample) {
	sorted = append([]stageSample(nil), samples...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].total < sorted[j].total })
	return sorted, sorted[len(sorted)*99/100:]
}

// besideShares is the share of all executions, and of the slowest 1%, that
// ran beside a child's creation.
func besideShares(samples []stageSample) (all, slow float64) {
	sorted, slowest := bySpeed(samples)
	beside := func(s stageSample) bool { return s.beside }
	return share(sorted, beside), share(slowest, beside)
}

func medianOf(samples []stageSample, of func(stageSample) time.Duration) time.Duration {
	values := make([]time.Duration, len(samples))
	for i, s := range samples {
		values[i] = of(s)
	}
	sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
	return values[len(values)/2]
}

func share(samples []stageSample, holds func(stageSample) bool) float64 {
	n := 0
	for _, s := range samples {
		if holds(s) {
			n++
		}
	}
	return float64(n) / float64(len(samples))
}
