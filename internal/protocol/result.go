package protocol

import (
	"encoding/binary"
	"fmt"
)

// ResultFrame is the payload of a 'z' frame: what one execution produced.
type ResultFrame struct {
	Reason   Reason
	Response []byte // a Response envelope (unchecked: see CheckResponse)
	Stdout   []byte
	Stderr   []byte
}

// ParseResult splits a result frame's payload. The parts alias payload.
// Lengths that do not add up to the payload, or an unknown reason, are a
// breach.
func ParseResult(payload []byte) (ResultFrame, error) {
	if len(payload) < ResultHeadLen {
		return ResultFrame{}, fmt.Errorf("%w: short result frame", ErrBreach)
	}
	reason := binary.LittleEndian.Uint32(payload)
	var lengths [3]uint64
	total := uint64(ResultHeadLen)
	for i := range lengths {
		lengths[i] = uint64(binary.LittleEndian.Uint32(payload[4+4*i:]))
		total += lengths[i]
	}
	if total != uint64(len(payload)) {
		return ResultFrame{}, fmt.Errorf("%w: malformed result frame (its lengths add up to %d bytes, not %d)", ErrBreach, total, len(payload))
	}
	if reason > uint32(LimitExceeded) {
		return ResultFrame{}, fmt.Errorf("%w: result frame with unknown interrupt reason %d", ErrBreach, reason)
	}
	body := payload[ResultHeadLen:]
	a, b := lengths[0], lengths[0]+lengths[1]
	return ResultFrame{Reason: Reason(reason), Response: body[:a:a], Stdout: body[a:b:b], Stderr: body[b:]}, nil
}

// AppendResult encodes a result frame (the child's side; for tests).
func AppendResult(buf []byte, r ResultFrame) []byte {
	n := ResultHeadLen + len(r.Response) + len(r.Stdout) + len(r.Stderr)
	buf = AppendHeader(buf, KindResult, n)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(r.Reason))
	for _, part := range [][]byte{r.Response, r.Stdout, r.Stderr} {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(part)))
	}
	buf = append(buf, r.Response...)
	buf = append(buf, r.Stdout...)
	return append(buf, r.Stderr...)
}
