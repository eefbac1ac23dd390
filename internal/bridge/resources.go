package bridge

import (
	"fmt"
	"slices"
)

// Effects order reads: a speculative call's value may depend on what an
// effectful call changes, so a call started early must not be used after an
// effectful call that the program made before reaching it. The guest's
// analyses (PLM, prefix streaming) schedule calls by this rule; the session
// enforces it whatever the guest did: an effectful call cancels every early
// call that reads what it writes and has not been claimed yet, and the
// program's own call of it then runs afresh (see Session.Call).
//
// Resources are names a tool author chooses. nil means everything (the
// default of both Reads and Writes); an empty, non-nil list means nothing.

// SetResources sets what the tool reads and writes, after checking them: a
// speculative tool has no side effects, so it writes nothing, and a
// resource is a non-empty name given once.
func (t *Tool) SetResources(reads, writes []string) error {
	if t.Speculative && len(writes) > 0 {
		return fmt.Errorf("tool %s is speculative (no side effects), so it cannot write %q", t.Name, writes)
	}
	for _, list := range [][]string{reads, writes} {
		for i, name := range list {
			if name == "" {
				return fmt.Errorf("tool %s: a resource name is empty", t.Name)
			}
			if slices.Contains(list[:i], name) {
				return fmt.Errorf("tool %s: resource %q is named twice", t.Name, name)
			}
		}
	}
	t.Reads, t.Writes = clone(reads), clone(writes)
	return nil
}

// clone copies a resource list, keeping nil (everything) apart from empty (nothing).
func clone(list []string) []string {
	if list == nil {
		return nil
	}
	return append([]string{}, list...)
}

// staleAfter reports whether an early call of `read` may have a value that
// an effectful call of `write` changes.
func staleAfter(read, write *Tool) bool {
	if read.Reads == nil {
		return write.Writes == nil || len(write.Writes) > 0
	}
	if write.Writes == nil {
		return len(read.Reads) > 0
	}
	for _, name := range read.Reads {
		if slices.Contains(write.Writes, name) {
			return true
		}
	}
	return false
}

// invalidate cancels the unclaimed early calls an effectful call of `write`
// may make stale (guesses only: a call the program started itself to await
// later is its own concurrent read, left to run). They leave the handle table (a later resolve of one finds
// no handle and runs the request normally) and are settled, marked Stale in
// the trace, when the session closes. The write does not wait for them to
// stop: a read that ignores its context must not delay an effect.
func (s *Session) invalidate(write *Tool) {
	if write.Speculative {
		return
	}
	s.mu.Lock()
	var stale []*early
	for handle, e := range s.handles {
		if !e.now && staleAfter(e.tool, write) {
			delete(s.handles, handle)
			e.stale = true
			stale = append(stale, e)
		}
	}
	s.stale = append(s.stale, stale...)
	s.mu.Unlock()
	for _, e := range stale {
		e.stop()
	}
}
