package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// The sandbox pool under demand: n executions start at once, each waiting
// in a tool (`sleep`), and the wall time until the last one ends is compared
// with the ideal, ceil(n / MaxChildren) waits. Prefork is the number of warm
// spares; the pool grows to MaxChildren as executions take children. The
// row with MaxChildren equal to Prefork is how the pool behaved when Prefork
// was the cap on concurrent executions. Measured here, not asserted in unit
// tests: on shared cores wall time is noise (the tests assert by events).

const poolToolWait = 300 * time.Millisecond

func poolSection() {
	fmt.Println("## Sandbox pool under demand")
	fmt.Println()
	fmt.Printf("Each execution is `result = sleep(ms=%d)`; all start at once. Ideal: ceil(executions / MaxChildren) x %s.\n\n",
		poolToolWait.Milliseconds(), ms(poolToolWait))
	fmt.Println("| executions | Prefork | MaxChildren | wall time | ideal |")
	fmt.Println("| ---: | ---: | ---: | ---: | ---: |")
	for _, c := range []struct{ executions, prefork, maxChildren int }{
		{16, 2, 2}, {16, 2, 16}, {64, 4, 16},
	} {
		wall := burst(c.executions, c.prefork, c.maxChildren)
		waves := (c.executions + c.maxChildren - 1) / c.maxChildren
		fmt.Printf("| %d | %d | %d | %s | %s |\n", c.executions, c.prefork, c.maxChildren, ms(wall), ms(time.Duration(waves)*poolToolWait))
	}
	fmt.Println()
}

// burst starts n executions at once on a fresh sandbox engine (its warm
// spares ready first) and returns the time until the last one ended.
func burst(n, prefork, maxChildren int) time.Duration {
	e, err := host.New(host.WithTools(demotools.Tools()...), host.WithLimits(host.Limits{Timeout: time.Minute}),
		host.WithSandbox(host.SandboxOptions{Prefork: prefork, MaxChildren: maxChildren}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench:", err)
		os.Exit(1)
	}
	defer e.Close()
	exec1(e, host.Request{Source: "result = 1"}) // the zygote is up and its spares forked
	time.Sleep(100 * time.Millisecond)
	req := host.Request{Source: fmt.Sprintf("result = sleep(ms=%d, value=1)", poolToolWait.Milliseconds())}
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := e.Execute(context.Background(), req); err != nil || string(resp.Value) != "1" {
				fmt.Fprintln(os.Stderr, "enginebench: pool burst:", err)
				os.Exit(1)
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}
