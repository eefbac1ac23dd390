package host

import (
	"encoding/json"

	"github.com/spine-sandbox/spine/internal/keptplan"
	"github.com/spine-sandbox/spine/internal/native"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// keptPlanFor is the plan and code kept for a native execution of req's
// program (nil: none yet), and whether its guest is asked for its own.
//
// Only a sandboxed child's one execution outside a session is asked: its
// child ran no program before this one (a session's child did, and a
// guest in this process serves every execution of the engine), and its
// bootstrap hands the plan over with the start it sends before the program
// runs. The native session takes it from that first crossing alone
// (LearnPlan): a program that sends a start of its own, later, with a
// forged plan, keeps nothing. A kept plan is used in every isolation and
// in sessions: it was made by our code from this exact program.
func (e *Engine) keptPlanFor(req Request, manifest []byte, fanout int, s *native.Session) (json.RawMessage, bool) {
	if s == nil || e.plans == nil || req.compileOnly {
		return nil, false
	}
	k := e.plans.KeyOf(req.Source, manifest, req.PLM, fanout)
	kept := e.plans.Load(k, req.Source)
	// A kept plan without units asks for no start crossing: asking would
	// cost each run of a program that has nothing to compile a round trip.
	// (A guest that cannot use a kept plan, another Python's, then plans
	// the program itself each time; with units it hands its own over.)
	if e.level != Sandbox || req.session != "" || (kept != nil && !keptplan.HasUnits(kept)) {
		return kept, false
	}
	source, plans := req.Source, e.plans
	s.LearnPlan(2*keptplan.MaxSize(source), func(made *protocol.Compiled, started []protocol.NativeUnitSource) {
		// One the checks refuse (or a directory that cannot be written) is
		// not kept: the next child plans the program again.
		_ = plans.Keep(k, source, made, started)
	})
	return kept, true
}
