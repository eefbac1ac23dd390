package wire

import (
	"testing"
	"time"
)

// admitted reports whether admit(size) returns within a short wait; if it
// does not, it is left to return once room is made.
func admitted(f *inflight, size int) (bool, chan struct{}) {
	done := make(chan struct{})
	go func() {
		f.admit(size)
		close(done)
	}()
	select {
	case <-done:
		return true, done
	case <-time.After(50 * time.Millisecond):
		return false, done
	}
}

// A child's crossings in flight are bounded in number: the reader reads
// no more frames until one is answered.
func TestCrossingsInFlightAreBoundedInNumber(t *testing.T) {
	var f inflight
	for i := 0; i < maxCrossingsInFlight; i++ {
		f.admit(10)
	}
	ok, waiting := admitted(&f, 10)
	if ok {
		t.Fatalf("crossing %d admitted past the bound of %d", maxCrossingsInFlight+1, maxCrossingsInFlight)
	}
	f.done(10)
	<-waiting
	if !f.any() {
		t.Fatal("no crossing counted in flight")
	}
}

// ... and in bytes of their requests, except that a frame always goes
// through when nothing is in flight (a request may be as large as the
// session accepts).
func TestCrossingsInFlightAreBoundedInBytes(t *testing.T) {
	var f inflight
	f.admit(maxCrossingBytesInFlight + 1) // alone: admitted
	ok, waiting := admitted(&f, 1)
	if ok {
		t.Fatal("a crossing admitted past the byte bound")
	}
	f.done(maxCrossingBytesInFlight + 1)
	<-waiting
	f.done(1)
	if f.any() || !f.drain(time.Second) {
		t.Fatal("crossings still counted after all were answered")
	}
}
