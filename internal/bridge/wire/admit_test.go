package wire

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// deadChild is a child as the host would hold one that died before its
// ready frame: its channel is at EOF, its output pipe holds what it said,
// and the zygote reported `status`. A fake at the zygote seam (the real
// zygote is exercised by every other test here).
func deadChild(t *testing.T, status int, said string) *child {
	t.Helper()
	channel, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	var output [2]int
	if err := syscall.Pipe2(output[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	syscall.Write(output[1], []byte(said))
	syscall.Close(output[1])
	syscall.Close(channel[1])
	c := newChild(1, channel[0], -1, output[0])
	c.exit(status, 0)
	return c
}

// An isolated pool with no zygote: requestFork writes to a closed channel.
func poolWithoutZygote() *Pool {
	p := newPool(Options{}.withDefaults())
	p.ctl = -1
	return p
}

func TestChildrenThatCannotConfineThemselvesFailAcquire(t *testing.T) {
	p := poolWithoutZygote()
	const exitedOne = 1 << 8 // wait status of exit(1), what a child that refused to serve does
	for i := 0; i < maxUnreadyChildren; i++ {
		p.admit(deadChild(t, exitedOne, "spine-guest: child refused to serve: seccomp: Operation not permitted"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{})
	defer s.Close()
	// Waiting for a child that never comes would end at the deadline, with
	// ErrTimeout instead.
	_, err := p.Acquire(s)
	if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "refused to serve: seccomp") {
		t.Fatalf("Acquire: %v", err)
	}
}

func TestChildrenKilledBeforeReadyAreOnlyReplaced(t *testing.T) {
	p := poolWithoutZygote()
	for i := 0; i < 2*maxUnreadyChildren; i++ {
		p.admit(deadChild(t, int(syscall.SIGKILL), ""))
	}
	if err := p.unready.err(); err != nil {
		t.Fatalf("kills from outside counted as confinement failures: %v", err)
	}
}

func TestReadyStackGivesTheNewestChildFirst(t *testing.T) {
	r := newReadyStack(2)
	a, b, c := &child{pid: 1}, &child{pid: 2}, &child{pid: 3}
	if !r.push(a) || !r.push(b) || r.push(c) {
		t.Fatal("a stack of two takes two children")
	}
	if got := r.pop(); got != b {
		t.Fatalf("pop gave pid %d, want the newest (2)", got.pid)
	}
	if got := r.pop(); got != a || r.pop() != nil {
		t.Fatal("then the older one, then nothing")
	}
}

// Forks the zygote reports it could not make count like children that died
// before they were ready: Acquire fails with the zygote's reason instead of
// waiting for a child that never comes.
func TestForksTheZygoteCannotMakeFailAcquire(t *testing.T) {
	p := poolWithoutZygote()
	for i := 0; i < maxUnreadyChildren; i++ {
		p.control(frame(kError, []byte("fork failed")), nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{})
	defer s.Close()
	if _, err := p.Acquire(s); !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "could not fork: fork failed") {
		t.Fatalf("Acquire: %v", err)
	}
}
