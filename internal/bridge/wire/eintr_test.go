package wire

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// The Go runtime preempts goroutines with SIGURG; a signal that lands while
// the host blocks in a start-up system call must not fail the start. The
// storm goes to the very thread that runs NewPool (locked to it), so every
// blocking call of the handshake is interrupted many times over.
func TestStartUpSurvivesASignalStorm(t *testing.T) {
	const starts = 5
	binary := guestBinary(t)
	for i := 0; i < starts; i++ {
		tid := make(chan int)
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tid <- syscall.Gettid()
			p, err := NewPool(Options{Binary: binary, Prefork: 1})
			if err == nil {
				p.Close()
			}
			done <- err
		}()
		target, pid := <-tid, os.Getpid()
		signals := 0
	storm:
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("start %d under %d signals: %v", i, signals, err)
				}
				break storm
			default:
				if syscall.Tgkill(pid, target, syscall.SIGURG) == nil {
					signals++
				}
				time.Sleep(20 * time.Microsecond)
			}
		}
		if signals == 0 {
			t.Fatal("no signal was sent: the storm did not happen")
		}
	}
}
