package wire

import (
	"syscall"
	"testing"
	"time"
)

// A child that has sent its result does not exit on its own (its teardown
// would share the cores with the host reading that result): it waits,
// blocked, until Release kills it, and the zygote then reports it killed
// by SIGKILL.
func TestServedChildWaitsForItsKill(t *testing.T) {
	_, g := acquire(t)
	sg := g.(*sandboxGuest)
	result, err := g.Execute(request("result = add(x=2, y=3)", false))
	if err != nil || compact(decode(t, result).Value) != "5" {
		t.Fatalf("execution: %v %v", err, result)
	}
	// Generous: a child that exited after its result is reported within
	// milliseconds.
	if status := sg.c.wait(500 * time.Millisecond); status != -1 {
		t.Fatalf("the child ended by itself after its result (wait status %#x); want it waiting for its kill", status)
	}
	if sg.c.exitedNow() {
		t.Fatal("the child's pidfd says it exited before its release")
	}
	g.Release()
	status := sg.c.wait(10 * time.Second)
	if ws := syscall.WaitStatus(status); status == -1 || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("after Release: wait status %#x, want killed by SIGKILL", status)
	}
}

// Whatever reaches a served child's channel ends it: it never reads a
// second execute frame, and exits with status 2 (a protocol breach).
func TestServedChildEndsOnAnyFrame(t *testing.T) {
	_, g := acquire(t)
	sg := g.(*sandboxGuest)
	if _, err := g.Execute(request("result = 1", false)); err != nil {
		t.Fatalf("execution: %v", err)
	}
	if err := sg.send(frame(kExecute, []byte{0xff, 0xff, 0xff, 0xff}, request("result = 2", false))); err != nil {
		t.Fatalf("second execute frame: %v", err)
	}
	status := sg.c.wait(10 * time.Second)
	if ws := syscall.WaitStatus(status); status == -1 || !ws.Exited() || ws.ExitStatus() != 2 {
		t.Fatalf("wait status %#x after a second execute frame, want exit status 2", status)
	}
	g.Release()
}
