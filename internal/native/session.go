package native

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// The statuses of a unit, as the guest and the trace see them.
const (
	StatusReady   = "ready"   // a module is in the cache: Path
	StatusFailed  = "failed"  // it stays Python: Failure
	StatusPending = "pending" // compiling
	StatusCold    = "cold"    // not compiled and not asked for (auto: not hot yet)
)

// Record is what the host knows of one unit of an execution, for the trace.
type Record struct {
	Name    string
	Status  string
	Cache   string // "hit" (found compiled, or failed before), "miss" (compiled for this execution), "" (never looked up)
	Failure *Failure
	Compile time.Duration
	Path    string
}

// Session handles the "native" crossings of one execution. The guest is
// untrusted: every request is checked for size, shape and count before the
// host does anything, and the only thing the guest can cause is that the
// functions it names get compiled (never run) by the compile service.
type Session struct {
	c    *Compiler
	ctx  context.Context
	mode string

	mu       sync.Mutex
	started  bool
	units    map[string]*unit
	order    []string
	compiles int
	quota    // the execution's share of the compile queue (quota.go)

	// learn takes the plan a guest hands over with its first crossing, and
	// learnBytes is how much larger than others that crossing may be (see
	// LearnPlan); both are cleared by the first crossing, whatever it is.
	learn      func(kept *protocol.Compiled, started []protocol.NativeUnitSource)
	learnBytes int
	crossed    bool // a crossing came: no plan is learnt any more
}

type unit struct {
	Record
	key      string
	source   string
	job      *job
	reported bool // a finished job was answered to the guest (poll reports each once)
}

// Session starts the handler of one execution; ctx is the execution's: it
// bounds the waits of an eager start, and when it ends the session closes
// (Close), cancelling what only this execution waited for. mode is "eager"
// or "auto".
func (c *Compiler) Session(ctx context.Context, mode string) *Session {
	s := &Session{c: c, ctx: ctx, mode: mode, units: map[string]*unit{}}
	context.AfterFunc(ctx, s.Close)
	return s
}

// The guest's requests (protocol.NativeRequest). start (once): the
// execution's units; compile (auto, a hot function): start compiling one;
// poll: the compilations that ended.
type (
	request  = protocol.NativeRequest
	unitSpec = protocol.NativeUnitSource
)

// answerUnit is one unit in an answer. A ready unit names its module by
// Path (in process) or by Module, the index of its descriptor among those
// sent with the answer (a sandboxed child: see HandleModules).
type answerUnit struct {
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Path    string   `json:"path,omitempty"`
	Module  *int     `json:"module,omitempty"`
	Cache   string   `json:"cache,omitempty"`
	Failure *Failure `json:"failure,omitempty"`
	Held    bool     `json:"held,omitempty"` // ready, but its module comes with the next poll (HandleModules)
}

const maxRequestOverhead = 4 << 10

// Handle answers one native crossing: {"units": [...]} or {"error": "..."}.
// Ready units carry their module's path in the cache (the in-process guest
// loads it from there).
func (s *Session) Handle(raw []byte) []byte {
	units, err := s.answer(raw)
	if err != nil {
		return failure(err.Error())
	}
	return encodeUnits(units)
}

// LearnPlan hands learn what the guest made of the program (its plan and
// code, up to extra bytes) when the execution's first native crossing, of
// any op, is a start that carries it. The caller calls it only for an
// execution whose guest runs no program before that crossing (a sandboxed
// child's one execution, whose bootstrap sends the start before the program
// runs): no later crossing, which the program may make itself, is ever
// taken for that one.
func (s *Session) LearnPlan(extra int, learn func(kept *protocol.Compiled, started []protocol.NativeUnitSource)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started && s.learn == nil && !s.crossed {
		s.learn, s.learnBytes = learn, extra
	}
}

func (s *Session) answer(raw []byte) ([]answerUnit, error) {
	s.mu.Lock()
	learn, extra := s.learn, s.learnBytes
	s.learn, s.learnBytes, s.crossed = nil, 0, true
	s.mu.Unlock()
	limit := s.c.opts.MaxRequestBytes + maxRequestOverhead + extra
	if len(raw) > limit {
		return nil, fmt.Errorf("native request of %d bytes exceeds the limit of %d bytes", len(raw), limit)
	}
	var req request
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&req); err != nil || decoder.More() {
		return nil, fmt.Errorf("malformed native request: %v", err)
	}
	if req.Kept != nil && learn != nil && req.Op == protocol.NativeStart {
		learn(req.Kept, req.Units)
	}
	var units []answerUnit
	var err error
	switch req.Op {
	case protocol.NativeStart:
		units, err = s.start(req.Units)
	case protocol.NativeCompile:
		units, err = s.compileOne(req.Name)
	case protocol.NativePoll:
		units = s.poll()
	default:
		err = fmt.Errorf("unknown native op %q", req.Op)
	}
	return units, err
}

func failure(message string) []byte {
	encoded, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{message})
	return encoded
}

func (s *Session) start(specs []unitSpec) ([]answerUnit, error) {
	refused, err := s.check(specs)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return nil, fmt.Errorf("native start was already sent for this execution")
	}
	// A start of no unit starts nothing: bootstrap sends one to hand over
	// its plan (LearnPlan) when the program has no unit to compile.
	s.started = len(specs) > 0
	for _, spec := range specs {
		u := &unit{Record: Record{Name: spec.Name, Status: StatusCold}, source: spec.Source}
		s.units[spec.Name] = u
		s.order = append(s.order, spec.Name)
		if why, ok := refused[spec.Name]; ok {
			u.finish(Outcome{Failure: &Failure{Kind: "limit", Message: why}}, "")
			continue
		}
		u.key = key(s.c.ident, spec.Name, spec.Source)
		if hit := s.c.lookup(u.key); hit != nil {
			u.finish(*hit, "hit")
		} else if s.mode == "eager" {
			s.submit(u)
		}
	}
	s.mu.Unlock()
	if s.mode == "eager" {
		s.waitAll()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]answerUnit, 0, len(s.order))
	for _, name := range s.order {
		u := s.units[name]
		u.reported = u.reported || s.refresh(u) // answered: a poll does not report it again
		out = append(out, u.answer())
	}
	return out, nil
}

// check validates the units of a start before anything is looked up. A
// request only a broken or hostile guest sends (a name that is not an
// identifier, a name given twice) is refused as a whole; a unit the host will
// not compile (beyond MaxUnits, too long, not text) is refused alone, with the
// reason, and the others go on: one function never costs the others theirs.
func (s *Session) check(specs []unitSpec) (map[string]string, error) {
	seen := map[string]bool{}
	refused := map[string]string{}
	for i, spec := range specs {
		if !isASCIIIdentifier(spec.Name) {
			return nil, fmt.Errorf("native function name %q is not an ASCII identifier", clip(spec.Name))
		}
		if seen[spec.Name] {
			return nil, fmt.Errorf("native function %s given twice", spec.Name)
		}
		seen[spec.Name] = true
		switch {
		case i >= s.c.opts.MaxUnits:
			refused[spec.Name] = fmt.Sprintf("the program hands over %d functions; at most %d per execution are compiled", len(specs), s.c.opts.MaxUnits)
		case len(spec.Source) > s.c.opts.MaxSourceBytes:
			refused[spec.Name] = fmt.Sprintf("the source of %s with the functions it calls (%d bytes) exceeds the limit of %d bytes", spec.Name, len(spec.Source), s.c.opts.MaxSourceBytes)
		case !utf8.ValidString(spec.Source) || strings.IndexByte(spec.Source, 0) >= 0:
			refused[spec.Name] = fmt.Sprintf("the source of %s is not text", spec.Name)
		}
	}
	return refused, nil
}

// waitAll waits for every unit to be compiled, handing the execution's
// queued units to the compiler as its earlier ones finish, or for the
// execution's end.
func (s *Session) waitAll() {
	for {
		s.mu.Lock()
		s.settle()
		next := s.firstRunning()
		s.mu.Unlock()
		if next == nil {
			break
		}
		select {
		case <-next.done:
		case <-s.ctx.Done():
			return
		}
	}
	s.poll()
}

func (s *Session) compileOne(name string) ([]answerUnit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.units[name]
	if u == nil {
		return nil, fmt.Errorf("native compile of %q, which start did not name", clip(name))
	}
	if u.Status == StatusCold {
		if hit := s.c.lookup(u.key); hit != nil {
			u.finish(*hit, "hit")
		} else {
			s.submit(u)
		}
	}
	u.reported = u.reported || s.refresh(u)
	return []answerUnit{u.answer()}, nil
}

// poll reports each unit whose compilation ended since the last poll.
func (s *Session) poll() []answerUnit {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	var out []answerUnit
	for _, name := range s.order {
		u := s.units[name]
		if s.refresh(u) && !u.reported {
			u.reported = true
			out = append(out, u.answer())
		}
	}
	return out
}

// holdBack makes the next poll report the unit again: its answer could not
// carry the module.
func (s *Session) holdBack(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.units[name]; u != nil {
		u.reported = false
	}
}

// refresh takes a finished job's outcome; true when the unit is final.
func (s *Session) refresh(u *unit) bool {
	if u.Status == StatusPending && u.job != nil {
		select {
		case <-u.job.done:
			u.finish(u.job.outcome, u.Cache)
			s.active--
		default:
			return false
		}
	}
	return u.Status == StatusReady || u.Status == StatusFailed
}

func (u *unit) finish(o Outcome, cache string) {
	u.Cache, u.Compile, u.Path, u.Failure = cache, o.Compile, o.Path, o.Failure
	if o.Failure != nil {
		u.Status = StatusFailed
	} else {
		u.Status = StatusReady
	}
}

func (u *unit) answer() answerUnit {
	return answerUnit{Name: u.Name, Status: u.Status, Path: u.Path, Cache: u.Cache, Failure: u.Failure}
}

// Records is the host's view of the execution's units, in the guest's order.
func (s *Session) Records() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	out := make([]Record, 0, len(s.order))
	for _, name := range s.order {
		u := s.units[name]
		out = append(out, u.Record)
	}
	return out
}

func isASCIIIdentifier(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
