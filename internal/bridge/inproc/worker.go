//go:build cgo

package inproc

import "sync"

// Programs run on goroutines of their own (Execute), kept from one
// execution to the next: a new goroutine starts on a small stack, which
// the crossings into the runtime and back grow by copying, on every
// execution; a kept one has grown once. Handing a program to an idle
// worker and waiting for it keeps both on the caller's thread, as `go`
// would.

// idleWorkers bounds the workers kept idle: more executions than that at
// once start workers that end with their program.
const idleWorkers = 64

var idle struct {
	sync.Mutex
	workers []chan func()
}

// onWorker runs job on an idle worker, or on a new one when none is idle.
func onWorker(job func()) {
	idle.Lock()
	if n := len(idle.workers); n > 0 {
		jobs := idle.workers[n-1]
		idle.workers = idle.workers[:n-1]
		idle.Unlock()
		jobs <- job
		return
	}
	idle.Unlock()
	go work(make(chan func(), 1), job)
}

// work runs job, then whatever onWorker hands it while it is idle, until
// there are idleWorkers idle already.
func work(jobs chan func(), job func()) {
	for {
		job()
		idle.Lock()
		if len(idle.workers) >= idleWorkers {
			idle.Unlock()
			return
		}
		idle.workers = append(idle.workers, jobs)
		idle.Unlock()
		job = <-jobs
	}
}
