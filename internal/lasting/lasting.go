// Package lasting starts child processes from one thread that lives as long
// as the host.
//
// A child started with a parent-death signal (SysProcAttr.Pdeathsig) gets it
// when the *thread* that forked it exits, not the process (prctl(2),
// PR_SET_PDEATHSIG). The Go runtime ends a thread whenever a goroutine
// locked to it returns without unlocking, which the in-process interpreter
// and any code of the host embedding spine may do: a child started from an
// ordinary goroutine could be killed at any moment. Every such child is
// therefore started from one goroutine that locks its thread and never
// returns, so that thread lives exactly as long as the host.
package lasting

import (
	"os/exec"
	"runtime"
	"sync"
)

type startRequest struct {
	cmd   *exec.Cmd
	reply chan error
}

var (
	startOnce sync.Once
	starts    = make(chan startRequest)
)

// Start runs cmd.Start on the host's lasting thread.
func Start(cmd *exec.Cmd) error {
	startOnce.Do(func() { go starter() })
	reply := make(chan error, 1)
	starts <- startRequest{cmd, reply}
	return <-reply
}

func starter() {
	runtime.LockOSThread() // never unlocked, and this goroutine never returns
	for r := range starts {
		r.reply <- r.cmd.Start()
	}
}
