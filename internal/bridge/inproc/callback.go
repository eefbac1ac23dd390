//go:build cgo

package inproc

/*
#include <pthread.h>
#include "spine_runtime.h"
*/
import "C"

import (
	"unsafe"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// spineHostCall is every tool crossing of the in-process guest, answered by
// Session.Answer. It runs on the interpreter thread with the GIL released.
// `request` is C memory valid only during the call (the session copies what
// it keeps); the answer is copied into the runtime's buffer `out`, or held
// for SPINE_OP_FETCH.
//
//export spineHostCall
func spineHostCall(token C.uintptr_t, op C.int, handle C.uint64_t, request *C.char, requestLen C.size_t, out *C.char, capacity C.size_t) C.int64_t {
	value, ok := sessions.Load(uint64(token))
	if !ok {
		return -1
	}
	s := value.(*bridge.Session)
	req := unsafe.Slice((*byte)(unsafe.Pointer(request)), int(requestLen))
	crossing := protocol.Crossing(op)
	if crossing == protocol.CrossFetch {
		// The response held for this thread: the program's threads cross
		// at once, each on its own OS thread, into its own buffer.
		handle = C.uint64_t(C.pthread_self())
	}
	number, response, reason := s.Answer(crossing, uint64(handle), req)
	if reason != bridge.NotInterrupted {
		// Before the answer: the program must meet the interrupt, not the
		// answer (a limit must not be caught, a deadline must not show as
		// the error of the tool it cut short).
		C.spine_interrupt(token, C.int(reason))
	}
	if number < 0 || !crossing.Answered() {
		return C.int64_t(number)
	}
	if len(response) > int(capacity) {
		s.Hold(uint64(C.pthread_self()), response)
		return C.int64_t(len(response))
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(out)), int(capacity)), response)
	return C.int64_t(len(response))
}
