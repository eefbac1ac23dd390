package wire

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// The Go runtime preempts goroutines with SIGURG; a signal that lands while
// the host blocks in a start-up system call must not fail the start. The
// storm goes to the very thread that runs NewPool (locked to it), so every
// blocking call of the handshake is interrupted many times over.
func TestStartUpSurvivesASignalStorm(t *testing.T) {
	const starts = 5
	binary := testenv.GuestBinary(t)
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

// stormAll sends SIGURG to every thread of this process until stop closes,
// and returns how many it sent.
func stormAll(stop <-chan struct{}) <-chan int {
	sent := make(chan int, 1)
	go func() {
		n, pid := 0, os.Getpid()
		for {
			select {
			case <-stop:
				sent <- n
				return
			default:
			}
			tasks, _ := os.ReadDir("/proc/self/task")
			for _, task := range tasks {
				if tid, err := strconv.Atoi(task.Name()); err == nil && syscall.Tgkill(pid, tid, syscall.SIGURG) == nil {
					n++
				}
			}
			time.Sleep(50 * time.Microsecond)
		}
	}()
	return sent
}

// Children forked, admitted, served and released while every thread of the
// host is stormed with signals: no execution fails for it.
func TestChildrenServeUnderASignalStorm(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2, MaxChildren: 8, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	stop := make(chan struct{})
	sent := stormAll(stop)
	const routines, each = 8, 4
	tools := testTools(t)
	errs := make(chan error, routines*each)
	for r := 0; r < routines; r++ {
		go func() {
			for i := 0; i < each; i++ {
				result, err := runWith(p, tools, testManifest, "result = add(X=40, Y=2)", 60*time.Second)
				errs <- valueIs(result, err, "42")
			}
		}()
	}
	for i := 0; i < routines*each; i++ {
		if err := <-errs; err != nil {
			close(stop)
			t.Fatalf("execution under the storm: %v", err)
		}
	}
	close(stop)
	if n := <-sent; n == 0 {
		t.Fatal("no signal was sent: the storm did not happen")
	}
}
