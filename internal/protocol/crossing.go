package protocol

import (
	"encoding/binary"
	"fmt"
)

// Crossing is what a guest asks of the host in the middle of a program. The
// numbers are the runtime's (spine_op in spine_runtime.h, which the
// in-process callback receives); the sandbox carries each as a frame kind.
type Crossing int

// The crossings.
const (
	// CrossCall runs a tool request now; the answer is a ToolResponse.
	CrossCall Crossing = 1
	// CrossPrepare starts a speculative request early; the answer's number
	// is its handle (0: nothing was prepared).
	CrossPrepare Crossing = 2
	// CrossResolve waits for a prepared handle (checking it matches the
	// request); the answer is a ToolResponse.
	CrossResolve Crossing = 3
	// CrossFetch copies a response held back because it did not fit the
	// runtime's buffer (in process only: a frame carries any length).
	CrossFetch Crossing = 4
	// CrossNative is a hot-function request (NativeRequest); the answer is
	// a NativeAnswer.
	CrossNative Crossing = 5
	// CrossWait is an async program's event loop with nothing to run
	// (WaitRequest): it waits until one of its started calls is done, or
	// its next timer; the answer is a WaitAnswer.
	CrossWait Crossing = 6
	// CrossOutput hands the host output the program wrote, as it writes it,
	// for a caller that reads it live: the handle is the stream
	// (OutputStdout, OutputStderr), the request the bytes; the answer's
	// number is 0. The guest sends it only when the request asks for live
	// output (ExecuteRequest.Live).
	CrossOutput Crossing = 7
)

// The streams of an output crossing.
const (
	OutputStdout = 1
	OutputStderr = 2
)

var crossingFrames = map[Kind]Crossing{
	KindCall: CrossCall, KindPrepare: CrossPrepare, KindResolve: CrossResolve, KindNative: CrossNative,
	KindWait: CrossWait, KindOutput: CrossOutput,
}

// CrossingOf is the crossing a child->host frame asks for, if it is one.
func CrossingOf(kind Kind) (Crossing, bool) {
	c, ok := crossingFrames[kind]
	return c, ok
}

// Answered reports whether the answer to the crossing is a response whose
// number is its length (call, resolve, native, wait, fetch), as opposed to a
// handle (prepare).
func (c Crossing) Answered() bool { return c != CrossPrepare && c != CrossOutput }

// WaitsOnHost reports whether the crossing waits for the host: a tool's
// result, (wait) any of them, or (native) the compiler. An execution whose context ended
// meanwhile is interrupted with the answer, so the program meets its
// deadline instead of the error of the wait it cut short, which it could
// survive (after a cut compile wait, by going on in Python past its deadline).
func (c Crossing) WaitsOnHost() bool {
	return c == CrossCall || c == CrossResolve || c == CrossNative || c == CrossWait
}

// ParseCrossing splits a crossing frame's payload into its crossing id,
// handle and request.
func ParseCrossing(kind Kind, payload []byte) (id, handle uint64, request []byte, err error) {
	if len(payload) < CrossingHeadLen {
		return 0, 0, nil, fmt.Errorf("%w: short %q frame", ErrBreach, byte(kind))
	}
	return binary.LittleEndian.Uint64(payload), binary.LittleEndian.Uint64(payload[8:]), payload[CrossingHeadLen:], nil
}

// Answer encodes the answer frame to the crossing `id`.
func Answer(id uint64, reason Reason, number int64, response []byte) []byte {
	buf := AppendHeader(make([]byte, 0, HeaderLen+AnswerHeadLen+len(response)), KindAnswer, AnswerHeadLen+len(response))
	buf = binary.LittleEndian.AppendUint64(buf, id)
	buf = append(buf, byte(reason))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(number))
	return append(buf, response...)
}
