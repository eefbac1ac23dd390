package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The host memory an execution holds is charged against one byte budget
// (Limits.MaxHostBytes): every trace entry, the bookkeeping, arguments and
// responses of early calls nobody has claimed yet, the values tools emit,
// and the captured output reserved up front (Limits.ReservedBytes).
//
// Early calls are speculation, and speculation must never make a program
// fail that would succeed without it: a prepare that does not fit is not
// started, a response that does not fit is dropped (the call runs again if
// the program reaches it), and what the program itself needs evicts the
// responses of early calls nobody has claimed yet, oldest first. Only what
// the program itself asks for (its calls, the values its tools emit) and
// cannot fit even then stops it, like the tool call limit: nothing a
// program does can make the host keep more.

// DefaultHostBytes is the budget of a session configured without one.
const DefaultHostBytes = 16 << 20

// RefusedPrefix is how much of a refused request the trace keeps.
const RefusedPrefix = 256

const (
	// callOverhead is what one trace entry costs beyond its strings: the
	// Call itself and its share of the slice that holds it.
	callOverhead = 192
	// earlyOverhead is what a prepared call costs while it is pending: its
	// record, handle, context and (while it waits or runs) its goroutine.
	earlyOverhead = 1024
)

func traceCost(tool string, args []byte, toolErr string) int {
	return callOverhead + len(tool) + len(args) + len(toolErr)
}

func (s *Session) maxHostBytes() int {
	if s.cfg.Limits.MaxHostBytes > 0 {
		return s.cfg.Limits.MaxHostBytes
	}
	return DefaultHostBytes
}

func (s *Session) hostLimitMessage() string {
	return fmt.Sprintf("host memory limit of %d bytes exceeded (trace, early calls, emitted values and output)", s.maxHostBytes())
}

// Charge takes n bytes of the execution's budget. When they do not fit, it
// stops the program for the limit and returns false: the caller must not
// keep what it asked for.
func (s *Session) Charge(n int) bool {
	s.mu.Lock()
	ok, stop := s.chargeLocked(n)
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	return ok
}

// chargeLocked is Charge under s.mu; the returned stop (if any) must be
// called once s.mu is released.
func (s *Session) chargeLocked(n int) (bool, func()) {
	if s.fitLocked(n) || (s.evictLocked(n) && s.fitLocked(n)) {
		return true, nil
	}
	return false, s.hitLocked(s.hostLimitMessage())
}

// fitLocked takes n bytes if they fit, and only then.
func (s *Session) fitLocked(n int) bool {
	if s.limitHit != "" || s.used+n > s.maxHostBytes() {
		return false
	}
	s.used += n
	return true
}

// EvictedError is the trace's error of an early call whose response was
// dropped to make room for what the program itself needed.
const EvictedError = "evicted: not claimed before the execution needed its memory"

// evictLocked drops the responses of finished early calls nobody has
// claimed, oldest first, until n more bytes fit; it reports whether any
// went. An evicted call leaves the handle table and is traced as such with
// its arguments cut short; a program that reaches it after all runs it
// again.
func (s *Session) evictLocked(n int) bool {
	evicted := false
	kept := s.order[:0]
	for i, e := range s.order {
		if s.handles[e.handle] != e {
			continue // settled already
		}
		if e.now || e.state != finished || s.used+n <= s.maxHostBytes() { // the program's own calls are never evicted
			kept = append(kept, e)
			if s.used+n <= s.maxHostBytes() {
				kept = append(kept, s.order[i+1:]...)
				break
			}
			continue
		}
		delete(s.handles, e.handle)
		e.cancel()
		call := refusedTrace(e.tool.Name, e.args, nil)
		call.Start, call.End, call.Error, call.Early, call.Stream = e.start, e.end, EvictedError, true, e.streaming
		s.used += traceCost(call.Tool, call.Args, call.Error) - e.cost - len(e.response) - len(e.toolErr)
		s.calls = append(s.calls, call)
		if s.cfg.Hooks != nil {
			s.unreported = append(s.unreported, len(s.calls)-1) // to the After hooks at Close, outside the lock
		}
		evicted = true
	}
	clear(s.order[len(kept):])
	s.order = kept
	return evicted
}

// release gives back bytes charged for something the session dropped.
func (s *Session) release(n int) {
	s.mu.Lock()
	s.used -= n
	s.mu.Unlock()
}

// hitLocked records that the program exceeded a limit (the first one wins)
// and returns how to stop it, to call once s.mu is released.
func (s *Session) hitLocked(message string) func() {
	if s.limitHit != "" {
		return nil
	}
	s.limitHit = message
	return s.stop
}

// refusedTrace is the trace entry of a request that never reached a tool:
// the tool name and arguments are the guest's and may be of any size, so
// each is kept to RefusedPrefix bytes. Arguments that are not a JSON value
// that short are replaced by a JSON string holding the start of what was
// sent, flagged ArgsTruncated.
func refusedTrace(tool string, args, raw []byte) Call {
	call := Call{Tool: clipText(tool)}
	source := args
	if len(source) == 0 {
		source = raw
	}
	if len(source) <= RefusedPrefix && json.Valid(source) {
		call.Args = append([]byte(nil), source...)
		return call
	}
	call.Args, _ = json.Marshal(clipText(string(source)))
	call.ArgsTruncated = true
	return call
}

// clipText keeps at most RefusedPrefix bytes of s, cut at a character
// boundary, with invalid UTF-8 replaced.
func clipText(s string) string {
	if len(s) > RefusedPrefix {
		cut := RefusedPrefix
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
