package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Kind is the first byte of a frame.
//
// Frames, on both channels: kind (1 byte), payload length (u32
// little-endian), payload.
//
// Control channel (SOCK_SEQPACKET, one frame per datagram), host <-> zygote:
//
//	'M' module   host->zygote  name NUL source-chunk (chunks of one module are appended)
//	'B' code     host->zygote  name NUL code-chunk, after that module's 'M' frames: its code as an
//	                           earlier start compiled it (spine_compiled), run if this interpreter made it
//	'K' compiled zygote->host  name NUL code-chunk, before 'H': a module's code compiled from source at
//	                           this start, for the host to keep (chunks of one module are appended)
//	'N' native   host->zygote  the toolchain's python dir (before 'I')
//	'W' warm     host->zygote  ExecuteRequest JSON chunk (chunks are appended; before 'I'): a request
//	                           in the engine's own shape, run by the zygote's warm-up and by every
//	                           child as its own, its tool calls answered inside
//	'I' init     host->zygote  u64 memory bytes, u64 CPU seconds, u64 open files
//	'H' hello    zygote->host  JSON Hello
//	'E' error    zygote->host  message
//	'F' fork     host->zygote  (empty) fork one more child
//	'C' child    zygote->host  u32 pid; SCM_RIGHTS: channel socket, pidfd, output pipe
//	'X' exit     zygote->host  u32 pid, u32 wait status, u64 CPU milliseconds used
//
// Child channel (SOCK_STREAM), host <-> one child:
//
//	'g' go       host->child   (empty) start: confine and warm up; sent once, first (the
//	                           creation gate holds it back while executions run)
//	'R' ready    child->host   (empty) confined and warmed up; sent once, first
//	'x' execute  host->child   u32 deadline in ms, ExecuteRequest JSON
//	'e' entry    host->child   entry name NUL argument
//	'a' answer   host->child   u64 crossing id, u8 interrupt reason, i64 number (handle or length;
//	                           <0 failure), response;
//	                           SCM_RIGHTS: a native answer's compiled modules (sealed memfds)
//	'c' call     child->host   u64 crossing id, u64 0, ToolRequest JSON
//	'p' prepare  child->host   u64 crossing id, u64 0, ToolRequest JSON
//	'r' resolve  child->host   u64 crossing id, u64 handle, ToolRequest JSON
//	'n' native   child->host   u64 crossing id, u64 0, NativeRequest JSON (answered like a call)
//	'w' wait     child->host   u64 crossing id, u64 0, WaitRequest JSON (answered like a call: WaitAnswer)
//	'o' output   child->host   u64 crossing id, u64 stream (1 stdout, 2 stderr), the bytes written
//	                           (answered with 0)
//	'd' done     child->host   u8 ok, error message
//	'z' result   child->host   u32 interrupt reason, u32 response/stdout/stderr lengths, then those bytes
//	'f' failed   child->host   message (spine_execute itself failed)
//
// Crossings from several threads of a child are in flight at once: the
// child numbers them 1, 2, 3... in the order it sends them (the crossing
// id), the host answers each as soon as it is done, in any order, and the
// answer carries the id of its crossing (crossing_ids.go).
type Kind byte

// The frame kinds.
const (
	KindModule      Kind = 'M'
	KindCode        Kind = 'B'
	KindCompiled    Kind = 'K'
	KindNativeSetup Kind = 'N'
	KindWarm        Kind = 'W'
	KindInit        Kind = 'I'
	KindHello       Kind = 'H'
	KindError       Kind = 'E'
	KindFork        Kind = 'F'
	KindChild       Kind = 'C'
	KindExit        Kind = 'X'

	KindGo      Kind = 'g'
	KindReady   Kind = 'R'
	KindExecute Kind = 'x'
	KindEntry   Kind = 'e'
	KindAnswer  Kind = 'a'
	KindCall    Kind = 'c'
	KindPrepare Kind = 'p'
	KindResolve Kind = 'r'
	KindNative  Kind = 'n'
	KindWait    Kind = 'w'
	KindOutput  Kind = 'o'
	KindDone    Kind = 'd'
	KindResult  Kind = 'z'
	KindFailed  Kind = 'f'
)

// The fixed parts of the frames' layouts, in bytes.
const (
	HeaderLen       = 5  // kind, u32 payload length
	InitLen         = 24 // 'I': three u64
	ChildLen        = 4  // 'C': u32 pid
	ExitLen         = 16 // 'X': u32 pid, u32 status, u64 CPU ms
	ExecuteHeadLen  = 4  // 'x': u32 deadline in ms
	CrossingHeadLen = 16 // 'c', 'p', 'r', 'n', 'w', 'o': u64 crossing id, u64 handle
	AnswerHeadLen   = 17 // 'a': u64 crossing id, u8 reason, i64 number
	ResultHeadLen   = 16 // 'z': u32 reason, three u32 lengths
	// HostFrameMax is the largest frame a child accepts from the host.
	HostFrameMax = 256 << 20
	// ControlMax is the largest control datagram the zygote receives.
	ControlMax = 256 << 10
)

// ErrBreach marks a frame a guest had no right to send: malformed,
// oversized, or of a kind not expected there.
var ErrBreach = errors.New("protocol breach")

// AppendHeader appends a frame header.
func AppendHeader(buf []byte, kind Kind, length int) []byte {
	buf = append(buf, byte(kind))
	return binary.LittleEndian.AppendUint32(buf, uint32(length))
}

// Frame encodes one frame from parts.
func Frame(kind Kind, parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	buf := AppendHeader(make([]byte, 0, HeaderLen+n), kind, n)
	for _, p := range parts {
		buf = append(buf, p...)
	}
	return buf
}

// ReadFrame reads one frame whose payload may be at most max(kind) bytes.
// An oversized length is a breach: the payload is never read, let alone
// allocated.
func ReadFrame(r io.Reader, max func(Kind) int) (Kind, []byte, error) {
	var header [HeaderLen]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return 0, nil, err
	}
	kind, length := Kind(header[0]), binary.LittleEndian.Uint32(header[1:])
	if limit := max(kind); uint64(length) > uint64(limit) {
		return 0, nil, fmt.Errorf("%w: frame %q of %d bytes exceeds the limit of %d bytes", ErrBreach, header[0], length, limit)
	}
	payload := make([]byte, length)
	if _, err := io.ReadFull(r, payload); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return kind, payload, nil
}

// UpTo is the max of ReadFrame that allows n bytes for every kind.
func UpTo(n int) func(Kind) int { return func(Kind) int { return n } }
