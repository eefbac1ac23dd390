//go:build cgo

// Package inproc is the in-process transport: the guest's CPython runs inside
// the host through cgo. Every execution runs on its caller's goroutine,
// locked to its OS thread for the call, on a Python thread state of its own:
// executions take turns on the GIL and overlap wherever they release it (a
// tool call, a wait), and nothing is handed between threads. Fastest, and no
// security boundary: for trusted code and development (the sandbox transport
// is the boundary).
package inproc

/*
#cgo CFLAGS: -I${SRCDIR}/../../../guest-c -O2
#include <stdlib.h>
#include "spine_runtime.h"

int64_t spine_go_host(uintptr_t token, int op, uint64_t handle, const char *request,
                      size_t request_len, char *out, size_t cap);

static int spine_init_go(spine_module_source *modules, size_t count, spine_compiled *compiled) {
  spine_config config = {spine_go_host, modules, count, 1, 0, compiled};
  return spine_init(&config);
}
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// The runtime's numbers are protocol's (checked for every constant of
// spine_protocol.h by protocol's TestMirrorsMatch; these the compiler checks
// here too, since this file hands them to C).
var _ = [1]struct{}{}[int(protocol.Timeout)-int(C.SPINE_INTERRUPT_TIMEOUT)+
	int(protocol.Cancelled)-int(C.SPINE_INTERRUPT_CANCEL)+int(protocol.LimitExceeded)-int(C.SPINE_INTERRUPT_LIMIT)+
	int(protocol.CrossCall)-int(C.SPINE_OP_CALL)+int(protocol.CrossPrepare)-int(C.SPINE_OP_PREPARE)+
	int(protocol.CrossResolve)-int(C.SPINE_OP_RESOLVE)+int(protocol.CrossFetch)-int(C.SPINE_OP_FETCH)+
	int(protocol.CrossNative)-int(C.SPINE_OP_NATIVE)+int(protocol.CrossOutput)-int(C.SPINE_OP_OUTPUT)]

var (
	startOnce sync.Once
	startErr  error
	tokens    atomic.Uint64
	sessions  sync.Map // token -> *bridge.Session
)

// Start initialises CPython once per process, on a goroutine locked to its
// OS thread for good (CPython's main thread, whose thread state then stays
// idle); later calls return the first call's result.
func Start() error {
	startOnce.Do(func() {
		ready := make(chan error)
		go initialise(ready)
		startErr = <-ready
	})
	return startErr
}

func initialise(ready chan<- error) {
	runtime.LockOSThread() // never unlocked: the thread that ran Py_Initialize stays CPython's main thread
	modules := guest.Modules()
	// The modules' code kept from an earlier start, which the runtime runs
	// instead of compiling the source when this interpreter made it; a
	// cache that cannot be used only means compiling (guestcache).
	code, _ := guestcache.Open("")
	sources := C.calloc(C.size_t(len(modules)), C.size_t(unsafe.Sizeof(C.spine_module_source{})))
	table := unsafe.Slice((*C.spine_module_source)(sources), len(modules))
	compiledTable := C.calloc(C.size_t(len(modules)), C.size_t(unsafe.Sizeof(C.spine_compiled{})))
	compiled := unsafe.Slice((*C.spine_compiled)(compiledTable), len(modules))
	var cstrings []unsafe.Pointer
	for i, m := range modules {
		name := C.CString(m.Name)
		source := C.CBytes(m.Source)
		cstrings = append(cstrings, unsafe.Pointer(name), source)
		table[i] = C.spine_module_source{name: name, source: (*C.char)(source), source_len: C.size_t(len(m.Source))}
		if kept, err := code.Load(m); err == nil {
			data := C.CBytes(kept)
			cstrings = append(cstrings, data)
			table[i].code, table[i].code_len = (*C.char)(data), C.size_t(len(kept))
		}
	}
	rc := C.spine_init_go((*C.spine_module_source)(sources), C.size_t(len(modules)), (*C.spine_compiled)(compiledTable))
	fresh := map[string][]byte{}
	for i, c := range compiled {
		if c.code != nil {
			fresh[modules[i].Name] = C.GoBytes(unsafe.Pointer(c.code), C.int(c.code_len))
			C.free(unsafe.Pointer(c.code))
		}
	}
	for _, p := range cstrings {
		C.free(p)
	}
	C.free(sources)
	C.free(compiledTable)
	if rc != 0 {
		ready <- fmt.Errorf("spine: cannot start the in-process guest: %s", C.GoString(C.spine_last_error()))
		return
	}
	code.StoreAll(modules, fresh) // not written: the next start compiles again
	ready <- nil
	select {}
}

// run calls fn (a call into the runtime) on the calling goroutine, locked to
// its thread for the call (the runtime's thread state and its last error are
// the thread's), with the job `token` interrupted when ctx ends. A context
// already done runs nothing.
func run(ctx context.Context, token uint64, fn func()) error {
	if err := Start(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer interruptAtEnd(ctx, token)()
	fn()
	return nil
}

// Execute runs one request for the session. The session's context bounds
// it: at its deadline the program is interrupted. Tools run inline, on the
// program's thread (bridge.Session.RunToolsInline), so the program runs on
// a goroutine of its own (worker.go), and Execute waits for it at most
// bridge.Grace past the context's end when a tool ignores that end: it
// then abandons the calls under way and returns without the program. A
// single long C call cannot be interrupted in process: Execute returns
// when it does (the sandbox kills for that).
func Execute(s *bridge.Session, request []byte) (*bridge.Result, error) {
	ctx := s.Context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	token := tokens.Add(1)
	sessions.Store(token, s)
	s.SetStop(func() { Interrupt(token, bridge.LimitExceeded) })
	s.RunToolsInline()
	var (
		result  bridge.Result
		failure error
		runErr  error
	)
	done := make(chan struct{})
	// Handed over here and waited for at once, the worker runs on this
	// thread: no other thread is woken for it, nor for its end.
	onWorker(func() {
		defer close(done)
		defer sessions.Delete(token) // once the program is over: an abandoned one still crosses
		runErr = run(ctx, token, func() { result, failure = execute(token, request) })
	})
	if !waitProgram(ctx, s, done) {
		return nil, errAbandoned
	}
	if runErr != nil {
		return nil, runErr
	}
	if failure != nil {
		return nil, failure
	}
	if err := s.Accept(&result); err != nil {
		return nil, fmt.Errorf("%w: the in-process guest's result was refused: %v", bridge.ErrViolation, err)
	}
	return &result, nil
}

// errAbandoned is Execute's error when it gave up a program held in a tool
// that ignored the end of its context.
var errAbandoned = fmt.Errorf("spine: the program was abandoned: a tool ignored the end of its context for %v", bridge.Grace)

// execute runs the request in the runtime on this thread.
func execute(token uint64, request []byte) (bridge.Result, error) {
	var out C.spine_result
	req := C.CBytes(request)
	defer C.free(req)
	if C.spine_execute(C.uintptr_t(token), (*C.char)(req), C.size_t(len(request)), &out) != 0 {
		return bridge.Result{}, fmt.Errorf("%w: the in-process guest could not run the request: %s", bridge.ErrCrashed, C.GoString(C.spine_last_error()))
	}
	defer C.spine_result_free(&out)
	return bridge.Result{
		Response:    C.GoBytes(unsafe.Pointer(out.response), C.int(out.response_len)),
		Stdout:      C.GoBytes(unsafe.Pointer(out.out), C.int(out.out_len)),
		Stderr:      C.GoBytes(unsafe.Pointer(out.err), C.int(out.err_len)),
		Interrupted: bridge.Reason(out.interrupted),
	}, nil
}

// waitProgram waits until done closes. Past Grace after the context's end
// it abandons the tool calls running inline, if any, and reports false;
// with none (the program is in C code, or about to meet its interrupt) it
// waits on.
func waitProgram(ctx context.Context, s *bridge.Session, done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	case <-ctx.Done():
	}
	timer := time.NewTimer(bridge.Grace)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
	}
	if s.AbandonInline() {
		return false
	}
	<-done
	return true
}

// Interrupt asks the execution `token` to stop (any goroutine).
func Interrupt(token uint64, reason bridge.Reason) bool {
	return C.spine_interrupt(C.uintptr_t(token), C.int(reason)) == 0
}

// Entry runs a bootstrap entry point (prefix_begin, prefix_feed, prefix_abort)
// for the session on the calling goroutine. The session's context bounds it
// like an execution: when the context ends, the entry is interrupted wherever
// it is. protocol.EntryPrefixAbort is the exception: it drops the stream's
// state from the interpreter every execution shares, so it runs whatever the
// context says; skipping it would leave that state there for good.
func Entry(s *bridge.Session, name string, arg []byte) error {
	ctx := s.Context()
	if name == protocol.EntryPrefixAbort {
		ctx = context.WithoutCancel(ctx)
	}
	token := tokens.Add(1)
	sessions.Store(token, s)
	defer sessions.Delete(token)
	var failure error
	err := run(ctx, token, func() {
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		carg := C.CBytes(arg)
		defer C.free(carg)
		if C.spine_call_entry(C.uintptr_t(token), cname, (*C.char)(carg), C.size_t(len(arg))) != 0 {
			failure = fmt.Errorf("spine: %s failed: %s", name, C.GoString(C.spine_last_error()))
		}
	})
	if err != nil {
		return err
	}
	return failure
}

// interruptAtEnd interrupts the job `token` once ctx ends; the function it
// returns stops watching and must be called when the job is over. Called on
// the job's thread just before the job enters the runtime: an interrupt that
// comes before the runtime registers the job fails, so it is retried until it
// lands or the job is over (a context already done must
// still stop the job).
func interruptAtEnd(ctx context.Context, token uint64) func() {
	over := make(chan struct{})
	unwatch := context.AfterFunc(ctx, func() {
		reason := bridge.ReasonFor(ctx)
		for wait := 50 * time.Microsecond; !Interrupt(token, reason); wait = min(2*wait, 10*time.Millisecond) {
			select {
			case <-over:
				return
			case <-time.After(wait):
			}
		}
	})
	return func() {
		unwatch()
		close(over)
	}
}
