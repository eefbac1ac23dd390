package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// stopDeadline is short so the figure is the engine's reaction, not the wait.
const stopDeadline = 200 * time.Millisecond

// stopping measures how long after its deadline an execution returns, per
// isolation and per way of being busy. The unit tests only hold these to
// generous bounds (a loaded machine must not fail them); the figures live here.
func stopping(inproc, sandbox *host.Engine) {
	fmt.Println("## Stopping at the deadline: time from the deadline to the return")
	fmt.Println()
	fmt.Printf("Deadline %s; median and worst of 5 runs.\n\n", ms(stopDeadline))
	fmt.Println("| busy with | in process | sandbox |")
	fmt.Println("|---|---|---|")
	for _, c := range []struct{ name, source string }{
		{"a bytecode loop", "while True:\n    pass"},
		{"a tool that honours its context", "sleep(ms=600000)"},
		{"PLM: early calls nobody claims", "a = sleep(ms=600000)\nb = sleep(ms=600000)\nwhile True:\n    pass"},
		{"one long C call (killed after the grace)", "x = 10 ** 10 ** 8"},
	} {
		cells := []string{c.name}
		for _, e := range []*host.Engine{inproc, sandbox} {
			if e == inproc && c.source == "x = 10 ** 10 ** 8" {
				cells = append(cells, "n/a: cannot be stopped in process")
				continue
			}
			cells = append(cells, late(e, c.source))
		}
		fmt.Println("| " + strings.Join(cells, " | ") + " |")
	}
	fmt.Println()
}

// late runs source five times under stopDeadline and reports how late it
// returned: median / worst.
func late(e *host.Engine, source string) string {
	samples := make([]time.Duration, 5)
	for i := range samples {
		ctx, cancel := context.WithTimeout(context.Background(), stopDeadline)
		start := time.Now()
		_, err := e.Execute(ctx, host.Request{Source: source, PLM: true})
		samples[i] = time.Since(start) - stopDeadline
		cancel()
		if !errors.Is(err, host.ErrTimeout) {
			fmt.Fprintln(os.Stderr, "enginebench: stopping: want a timeout, got", err)
			os.Exit(1)
		}
	}
	s := summarize(samples)
	return ms(s.median) + " / " + ms(samples[len(samples)-1])
}
