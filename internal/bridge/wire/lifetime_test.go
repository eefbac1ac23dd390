package wire

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// The zygote dies with the host (Pdeathsig), and the kernel ties that
// signal to the thread that started it. A goroutine that creates a pool
// and then ends locked to its thread makes the Go runtime end that thread
// (the in-process engine and any code of the host may lock threads): the
// zygote must live on, and the pool must go on forking and serving.
func TestZygoteOutlivesTheThreadThatMadeThePool(t *testing.T) {
	binary := testenv.GuestBinary(t)
	var p *Pool
	var err error
	// The main thread is never ended (the runtime parks it instead). A
	// goroutine that lands there keeps it, locked and waiting, until the
	// test ends, so that the next one runs on another thread.
	mainThread := make(chan struct{})
	defer close(mainThread)
	for tries := 0; p == nil && err == nil; tries++ {
		if tries == 2 {
			t.Fatal("two goroutines in a row ran on the main thread")
		}
		made := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked: the runtime ends this thread when the goroutine returns
			if syscall.Gettid() == os.Getpid() {
				close(made)
				<-mainThread
				runtime.UnlockOSThread()
				return
			}
			p, err = NewPool(Options{Binary: binary, Prefork: 1, MaxChildren: 2, MemoryBytes: 512 << 20, CPUSeconds: 10})
			close(made)
		}()
		<-made
	}
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// Each execution takes a child forked after that thread ended.
	for i := 0; i < 3; i++ {
		if got := mustValue(t, p, "result = add(X=2, Y=3)"); got != "5" {
			t.Fatalf("execution %d after the pool's thread ended: %s, want 5", i+1, got)
		}
	}
	select {
	case <-p.dead:
		t.Fatalf("the zygote is gone: %v", p.deadErr)
	default:
	}
}
