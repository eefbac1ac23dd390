package main

import (
	"math/rand"
	"sync"
	"syscall"
	"time"
)

// killer sends SIGKILL to a young sandboxed child picked at random, at random
// intervals (exponential, of mean `every`), as an OOM killer or an operator
// would. Each kill is recorded with its time, so that a crashed submission can
// be matched to the kill that explains it.
type killer struct {
	every time.Duration
	// younger: only children younger than this are killed. A child busy for
	// long runs a hostile program to its end (a flood, say), and would
	// otherwise take nearly every kill, its class never showing its outcome.
	younger time.Duration
	rng     *rand.Rand
	stop    chan struct{}
	done    chan struct{}

	mu    sync.Mutex
	kills []kill
}

// kill is when one SIGKILL was sent: between before and after (the signal
// lands somewhere in between, and the run it hits may start or end there).
type kill struct{ before, after time.Time }

const (
	sysPidfdOpen       = 434 // pidfd_open(2), x86_64 and arm64 alike
	sysPidfdSendSignal = 424 // pidfd_send_signal(2)
)

func startKiller(every, younger time.Duration, seed int64) *killer {
	k := &killer{every: every, younger: younger, rng: rand.New(rand.NewSource(seed)), stop: make(chan struct{}), done: make(chan struct{})}
	go k.loop()
	return k
}

func (k *killer) loop() {
	defer close(k.done)
	for {
		select {
		case <-k.stop:
			return
		case <-time.After(time.Duration(k.rng.ExpFloat64() * float64(k.every))):
		}
		var children []process
		for _, c := range sandboxChildren() {
			if age(c) < k.younger {
				children = append(children, c)
			}
		}
		if len(children) == 0 {
			continue
		}
		victim := children[k.rng.Intn(len(children))]
		before := time.Now()
		if killChild(victim) {
			k.mu.Lock()
			k.kills = append(k.kills, kill{before, time.Now()})
			k.mu.Unlock()
		}
	}
}

// killChild kills p only if it is still the process found: the pid is pinned
// by a pidfd first, then checked to still be a child of the same parent, so a
// recycled pid (another program's process) is never hit.
func killChild(p process) bool {
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(p.pid), 0, 0)
	if errno != 0 {
		return false
	}
	defer syscall.Close(int(fd))
	now, ok := stat(p.pid)
	if !ok || now.ppid != p.ppid || now.comm != p.comm || now.state == "Z" {
		return false
	}
	_, _, errno = syscall.Syscall6(sysPidfdSendSignal, fd, uintptr(syscall.SIGKILL), 0, 0, 0, 0)
	return errno == 0
}

// halt stops the killer and returns the kills it made.
func (k *killer) halt() []kill {
	close(k.stop)
	<-k.done
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]kill(nil), k.kills...)
}
