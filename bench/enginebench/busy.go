package main

import (
	"fmt"
	"runtime"
	"time"
)

// busyTally is how much of the machine the paced sandbox kept busy: the CPU
// of this process and of its child processes (the zygotes, their children,
// the Monty server) during the paced sandbox's rounds, over the wall time of
// those rounds times the cores. The other peers are idle meanwhile, so
// nearly all of it is the paced sandbox's: its executions, the creation of
// their children and the host's runtime. A tail target assumes room between
// executions; when this nears 100% (a slow spell of the VM makes every
// process's CPU costlier), creation can no longer wait for the gaps and no
// pool keeps its children ready.
type busyTally struct {
	host, children, wall time.Duration
}

// around runs f, counting the CPU and wall time it took.
func (t *busyTally) around(f func()) {
	if t == nil {
		f()
		return
	}
	before, start := processCPU(), time.Now()
	f()
	host, children := processCPU().minus(before)
	t.wall += time.Since(start)
	t.host += host
	t.children += children
}

func (t *busyTally) String() string {
	capacity := float64(t.wall) * float64(runtime.NumCPU())
	if capacity == 0 {
		return "not measured"
	}
	return fmt.Sprintf("the %d cores %.0f%% busy (the host process %.0f%%, zygotes and children %.0f%%)",
		runtime.NumCPU(), 100*float64(t.host+t.children)/capacity, 100*float64(t.host)/capacity, 100*float64(t.children)/capacity)
}
