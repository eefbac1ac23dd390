package main

import (
	"runtime"
	"sync/atomic"
	"time"
)

// sampler reads the host's RSS every second. Past the bound the invariant
// has failed and the time is noted; the run goes on so that its other
// figures still come. Past the abort level it trips once: the run stops
// submitting and cancels what runs, since a shared machine must not be
// swapped out to prove a leak.
type sampler struct {
	bound, abort  int64 // KiB
	peak, last    atomic.Int64
	overAt, trips atomic.Int64 // unix ms of the first sample past the bound, past the abort level; 0: none
	stop, done    chan struct{}
	trip          func()
}

func startSampler(boundKiB, abortKiB int64, trip func()) *sampler {
	s := &sampler{bound: boundKiB, abort: abortKiB, stop: make(chan struct{}), done: make(chan struct{}), trip: trip}
	s.sample()
	go func() {
		defer close(s.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-tick.C:
				s.sample()
			}
		}
	}()
	return s
}

func (s *sampler) sample() int64 {
	kib := rssKiB()
	s.last.Store(kib)
	if kib > s.peak.Load() {
		s.peak.Store(kib)
	}
	if kib > s.bound {
		s.overAt.CompareAndSwap(0, time.Now().UnixMilli())
	}
	if kib > s.abort && s.trips.CompareAndSwap(0, time.Now().UnixMilli()) {
		s.trip()
	}
	return kib
}

func (s *sampler) halt() {
	close(s.stop)
	<-s.done
}

// resources are the host's counts that must come back to where they were.
type resources struct {
	fds, goroutines, children int
}

func measure() resources {
	return resources{fds: openFDs(), goroutines: runtime.NumGoroutine(), children: len(sandboxChildren())}
}

func (r resources) within(base resources) bool {
	return r.fds <= base.fds && r.goroutines <= base.goroutines && r.children <= base.children
}

// steady waits until the counts stop changing for a second (at most limit),
// and returns them: the baseline, taken with the pool refilled.
func steady(limit time.Duration) resources {
	prev := measure()
	stable := 0
	for deadline := time.Now().Add(limit); time.Now().Before(deadline) && stable < 4; {
		time.Sleep(250 * time.Millisecond)
		now := measure()
		if now == prev {
			stable++
		} else {
			stable = 0
		}
		prev = now
	}
	return prev
}

// settle waits (at most limit) until the counts are back within base, and
// returns the last counts and how long it took.
func settle(base resources, limit time.Duration) (resources, time.Duration, bool) {
	start := time.Now()
	for {
		now := measure()
		if now.within(base) {
			return now, time.Since(start), true
		}
		if time.Since(start) > limit {
			return now, time.Since(start), false
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// seesSandbox reports whether the harness saw what it measures: the
// sandboxed children at the baseline (the pool keeps spares, so there are
// some) and, when it was to kill them, kills sent. Without it the kills and
// the children's return to baseline would pass unseen.
func seesSandbox(base resources, killEvery time.Duration, kills int) bool {
	return base.children > 0 && (killEvery == 0 || kills > 0)
}
