package native

import (
	"os/exec"
	"runtime"
	"sync"
)

// The compile service is started with a parent-death signal (Pdeathsig), so
// it dies with the host. The kernel sends that signal when the *thread* that
// forked the child exits, not the process: were the service started from an
// ordinary goroutine, it would be killed whenever the Go runtime ended that
// thread, which it does when a goroutine locked to a thread returns without
// unlocking (the in-process interpreter locks threads). Every service is
// therefore started from one goroutine that locks its thread and never
// returns, so that thread lives exactly as long as the host.

type spawnRequest struct {
	cmd   *exec.Cmd
	reply chan error
}

var (
	spawnOnce sync.Once
	spawns    = make(chan spawnRequest)
)

// startOnLastingThread runs cmd.Start on the host's spawning thread.
func startOnLastingThread(cmd *exec.Cmd) error {
	spawnOnce.Do(func() { go spawner() })
	reply := make(chan error, 1)
	spawns <- spawnRequest{cmd, reply}
	return <-reply
}

func spawner() {
	runtime.LockOSThread() // never unlocked, and this goroutine never returns
	for r := range spawns {
		r.reply <- r.cmd.Start()
	}
}
