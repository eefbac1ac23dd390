package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frames, on both channels: kind (1 byte), payload length (u32
// little-endian), payload. The kinds are those of guest-c/sandbox/main.c.
//
// Control channel (SOCK_SEQPACKET, one frame per datagram), host <-> zygote:
//
//	'M' module   host->zygote  name NUL source-chunk (chunks of one module are appended)
//	'N' native   host->zygote  JSON {"python": toolchain python dir, "cache": module cache dir} (before 'I')
//	'I' init     host->zygote  u64 memory bytes, u64 CPU seconds, u64 open files
//	'H' hello    zygote->host  JSON {"landlock": abi (0: none), "landlock_error": ..., "seccomp": true}
//	'E' error    zygote->host  message
//	'F' fork     host->zygote  (empty) fork one more child
//	'C' child    zygote->host  u32 pid; SCM_RIGHTS: channel socket, pidfd, output pipe
//	'X' exit     zygote->host  u32 pid, u32 wait status, u64 CPU milliseconds used
//
// Child channel (SOCK_STREAM), host <-> one child:
//
//	'R' ready    child->host   (empty) confined and warmed up; sent once, first
//	'x' execute  host->child   u32 deadline in ms, request JSON
//	'e' entry    host->child   name NUL argument
//	'a' answer   host->child   u8 interrupt reason, i64 number (handle or length; <0 failure), response
//	'c' call     child->host   u64 0, request JSON
//	'p' prepare  child->host   u64 0, request JSON
//	'r' resolve  child->host   u64 handle, request JSON
//	'n' native   child->host   u64 0, hot-function request JSON (answered like a call)
//	'd' done     child->host   u8 ok, error message
//	'z' result   child->host   u32 interrupted, u32 response/stdout/stderr lengths, then those bytes
//	'f' failed   child->host   message (spine_execute itself failed)
const (
	kModule  = 'M'
	kInit    = 'I'
	kHello   = 'H'
	kError   = 'E'
	kFork    = 'F'
	kChild   = 'C'
	kExit    = 'X'
	kExecute = 'x'
	kEntry   = 'e'
	kAnswer  = 'a'
	kCall    = 'c'
	kPrepare = 'p'
	kResolve = 'r'
	kDone    = 'd'
	kResult  = 'z'
	kFailed  = 'f'
	kReady   = 'R'
)

const headerLen = 5

// errBreach marks a frame the child had no right to send.
var errBreach = errors.New("protocol breach")

func appendHeader(buf []byte, kind byte, length int) []byte {
	buf = append(buf, kind)
	return binary.LittleEndian.AppendUint32(buf, uint32(length))
}

// frame encodes one frame from parts.
func frame(kind byte, parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	buf := appendHeader(make([]byte, 0, headerLen+n), kind, n)
	for _, p := range parts {
		buf = append(buf, p...)
	}
	return buf
}

// readFrame reads one frame of at most max payload bytes. An oversized
// length is a breach: the payload is never read, let alone allocated.
func readFrame(r io.Reader, max int) (byte, []byte, error) {
	var header [headerLen]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return 0, nil, err
	}
	length := binary.LittleEndian.Uint32(header[1:])
	if uint64(length) > uint64(max) {
		return 0, nil, fmt.Errorf("%w: frame %q of %d bytes exceeds the limit of %d bytes", errBreach, header[0], length, max)
	}
	payload := make([]byte, length)
	if _, err := io.ReadFull(r, payload); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return header[0], payload, nil
}
