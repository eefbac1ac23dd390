package main

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"sort"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The paced sandbox's tail, taken apart: where the time of each execution
// went (from the response's own timestamps) and whether a Go collection ran
// during it, for all executions and for the slowest 1%. A wall-clock tail on
// a shared machine mixes the neighbours' load with our own causes; the
// stages say which part of an execution grew in the slow ones.

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
}

var gcSample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}

func gcCycles() uint64 {
	metrics.Read(gcSample)
	return gcSample[0].Value.Uint64()
}

// tracedExec runs req once and splits its time into stages. The core program
// makes exactly one tool call.
func tracedExec(e *host.Engine, req host.Request) stageSample {
	before := gcCycles()
	start := time.Now()
	resp, err := e.Execute(context.Background(), req)
	total := time.Since(start)
	if err != nil || len(resp.Calls) != 1 {
		fmt.Fprintln(os.Stderr, "enginebench: traced execution:", err)
		os.Exit(1)
	}
	c := resp.Calls[0]
	return stageSample{total: total, outside: total - resp.Elapsed, toCall: c.Start, call: c.End - c.Start,
		afterCall: resp.Elapsed - c.End, gc: gcCycles() != before}
}

// printTailComposition prints, per stage, the median over all executions
// and over the slowest 1%, and how many of each overlapped a collection.
func printTailComposition(samples []stageSample) {
	sorted := append([]stageSample(nil), samples...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].total < sorted[j].total })
	slow := sorted[len(sorted)*99/100:]
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
	fmt.Printf("| executions during which a Go collection ran | %.1f%% | %.1f%% |\n\n", 100*gcShare(sorted), 100*gcShare(slow))
}

func medianOf(samples []stageSample, of func(stageSample) time.Duration) time.Duration {
	values := make([]time.Duration, len(samples))
	for i, s := range samples {
		values[i] = of(s)
	}
	sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
	return values[len(values)/2]
}

func gcShare(samples []stageSample) float64 {
	n := 0
	for _, s := range samples {
		if s.gc {
			n++
		}
	}
	return float64(n) / float64(len(samples))
}
