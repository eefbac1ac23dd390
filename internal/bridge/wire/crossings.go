package wire

import (
	"encoding/binary"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// A child's threads cross at once, and the host answers their crossings at
// once: the reader (next) reads each crossing frame and hands it to a
// goroutine of its own, which answers through the session and writes the
// answer, tagged with the crossing's id, whenever it is done. The child
// hands each answer to the thread that asked (guest-c/sandbox/crossings.c).
//
// What the child may have in flight is bounded whatever it sends: past
// maxCrossingsInFlight crossings, or maxCrossingBytesInFlight bytes of their
// requests, the reader reads no further frame until one is answered (a
// frame always goes through when nothing is in flight), so a child's
// threads cost the host no more than this many goroutines and bytes. The
// session's own limits (tool calls, the byte budget, the hooks, the
// deadline) hold for each crossing as they do for one at a time.
const (
	maxCrossingsInFlight     = 64
	maxCrossingBytesInFlight = 4 << 20
)

// inflight counts a child's crossings being answered.
type inflight struct {
	mu           sync.Mutex
	room         sync.Cond
	count, bytes int
	all          sync.WaitGroup
}

// admit waits until a crossing of `size` bytes fits, and counts it.
func (f *inflight) admit(size int) {
	f.mu.Lock()
	if f.room.L == nil {
		f.room.L = &f.mu
	}
	for f.count >= maxCrossingsInFlight || (f.count > 0 && f.bytes+size > maxCrossingBytesInFlight) {
		f.room.Wait()
	}
	f.count++
	f.bytes += size
	f.all.Add(1)
	f.mu.Unlock()
}

// done uncounts a crossing that was answered (or given up on).
func (f *inflight) done(size int) {
	f.mu.Lock()
	f.count--
	f.bytes -= size
	if f.room.L != nil {
		f.room.Broadcast()
	}
	f.mu.Unlock()
	f.all.Done()
}

// any reports whether a crossing is being answered.
func (f *inflight) any() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count > 0
}

// drain waits at most d for every crossing being answered.
func (f *inflight) drain(d time.Duration) bool {
	idle := make(chan struct{})
	go func() {
		f.all.Wait()
		close(idle)
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
		return true
	case <-timer.C:
		return false
	}
}

// crossing reads the crossing frame whose header the reader peeked (`length`
// bytes of payload), checks its id and has it answered on a goroutine of
// its own. It returns only the errors that end the child.
func (g *sandboxGuest) crossing(kind protocol.Kind, crossing protocol.Crossing, length int) error {
	g.flight.admit(length)
	_, payload, err := protocol.ReadFrame(g.r, g.frameMax)
	if err == nil {
		var id, handle uint64
		var request []byte
		if id, handle, request, err = protocol.ParseCrossing(kind, payload); err == nil {
			if err = g.c.ids.Next(id); err == nil {
				go g.answer(crossing, id, handle, request, length)
				return nil
			}
		}
	}
	g.flight.done(length)
	return err
}

// answer serves one crossing and writes its answer.
func (g *sandboxGuest) answer(crossing protocol.Crossing, id, handle uint64, request []byte, length int) {
	defer g.flight.done(length)
	number, response, reason, files := g.s.AnswerWithModules(crossing, handle, request)
	g.reply(id, reason, number, response, files)
}

// reply writes an answer, whole, among the others. A write that fails means
// the child is gone or unreachable: it is killed, so the reader, which the
// child's end of the channel then fails, reports how it ended.
func (g *sandboxGuest) reply(id uint64, reason protocol.Reason, number int64, response []byte, files []*os.File) {
	frame := protocol.Answer(id, reason, number, response)
	g.writeMu.Lock()
	var err error
	if len(files) > 0 {
		err = g.writeWithFiles(frame, files)
	} else {
		err = g.write(frame)
	}
	g.writeMu.Unlock()
	for _, f := range files {
		f.Close()
	}
	if err != nil {
		g.c.kill()
	}
}

// oversized skips, unread, a tool request larger than the session accepts
// (but within the frame limit) and answers it at once with the refusal;
// false when the next frame is anything else. The host never holds more of
// a request than the argument limit, however large the child's.
func (g *sandboxGuest) oversized() (bool, error) {
	head, err := g.r.Peek(protocol.HeaderLen)
	if err != nil {
		return false, nil // ReadFrame reports it
	}
	kind := protocol.Kind(head[0])
	crossing, _ := protocol.CrossingOf(kind)
	switch crossing {
	case protocol.CrossCall, protocol.CrossPrepare, protocol.CrossResolve:
	default:
		return false, nil
	}
	length := int64(binary.LittleEndian.Uint32(head[1:]))
	if length <= int64(protocol.CrossingHeadLen+g.s.MaxRequestBytes()) || length > int64(g.frameMax(kind)) {
		return false, nil
	}
	if head, err = g.r.Peek(protocol.HeaderLen + 8); err != nil {
		return false, nil
	}
	id := binary.LittleEndian.Uint64(head[protocol.HeaderLen:])
	if err := g.c.ids.Next(id); err != nil {
		return false, err
	}
	if _, err := g.r.Discard(protocol.HeaderLen + int(length)); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return false, err
	}
	number, response, reason := g.s.AnswerOversized(crossing, int(length)-protocol.CrossingHeadLen)
	g.reply(id, reason, number, response, nil)
	return true, nil
}

// endCrossings ends the crossings of threads the program left running when
// it ended (or its child failed): what they wait for is cancelled, and the
// host waits for them (a tool is given Grace to return) so that none of
// them outlives the execution or misses its trace.
func (g *sandboxGuest) endCrossings() {
	if !g.flight.any() {
		return
	}
	g.s.EndProgram()
	g.flight.drain(g.p.opts.Grace + time.Second)
}
