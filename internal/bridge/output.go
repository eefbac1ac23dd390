package bridge

import (
	"io"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// liveOutput forwards a stream of the program's output to the caller's
// writer as the guest hands it over (protocol.CrossOutput), bounded like
// the captured output: at most the result limits' StdoutBytes per stream
// ever reach the writer, whatever the guest sends, and a write the writer
// does not finish within Grace past the end of the execution's context is
// given up on (no later write starts; the writer is never written to from
// two goroutines at once).
type liveOutput struct {
	w         io.Writer
	forwarded int  // bytes handed to w
	broken    bool // a write was given up on, or failed
}

// Output serves an output crossing: stream is protocol.OutputStdout or
// OutputStderr. It copies what it forwards (data may be C memory).
func (s *Session) Output(stream uint64, data []byte) {
	s.outputMu.Lock()
	defer s.outputMu.Unlock()
	out := s.liveStream(stream)
	if out == nil {
		return
	}
	s.forward(out, data)
}

// FinishOutput writes to the stream's writer what the guest captured but
// had not handed over live (the tail of its output, or all of it when the
// guest sent none): the writer receives, in order, exactly the captured
// output the Response carries.
func (s *Session) FinishOutput(stream uint64, captured []byte) {
	s.outputMu.Lock()
	defer s.outputMu.Unlock()
	out := s.liveStream(stream)
	if out == nil || out.forwarded >= len(captured) {
		return
	}
	s.forward(out, captured[out.forwarded:])
}

func (s *Session) liveStream(stream uint64) *liveOutput {
	switch stream {
	case protocol.OutputStdout:
		if s.cfg.Stdout != nil {
			return &s.stdout
		}
	case protocol.OutputStderr:
		if s.cfg.Stderr != nil {
			return &s.stderr
		}
	}
	return nil
}

func (s *Session) forward(out *liveOutput, data []byte) {
	if out.w == nil {
		out.w = s.cfg.Stdout
		if out == &s.stderr {
			out.w = s.cfg.Stderr
		}
	}
	room := s.cfg.Result.WithDefaults().StdoutBytes - out.forwarded
	if out.broken || room <= 0 || len(data) == 0 {
		return
	}
	chunk := append([]byte(nil), data[:min(len(data), room)]...)
	out.forwarded += len(chunk)
	done := make(chan struct{})
	var err error
	go func() {
		_, err = out.w.Write(chunk)
		close(done)
	}()
	if !waitBounded(s.ctx, done, s.endedAt) {
		out.broken = true // err is the abandoned goroutine's: never read
		return
	}
	out.broken = err != nil
}
