package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// classStats is what one class's submissions ended with.
type classStats struct {
	runs     int
	statuses map[host.Status]int
	killed   int // crashed, and explained by a kill during the run
	wrong    int // wrong status, wrong value or wrong effects
	elapsed  []time.Duration
	overrun  time.Duration // the furthest past its deadline a run returned
}

// verdict checks every record against its class.
type verdict struct {
	classes                            map[*class]*classStats
	lost                               []record
	wrongStatus, wrongValue            int
	duplicated, missing, stray, unread int
	contract                           int // responses that broke the error contract
	overruns                           int // runs that returned later than deadline + overrun
	kills, killsUsed                   int
	// examples: the first failure of each kind, and how often that kind occurred.
	examples []*example
	kinds    map[string]*example
}

type example struct {
	text  string
	count int
}

// note records a failure; kind groups the failures that are one finding
// (the same class failing the same way), so the report shows each once.
func (v *verdict) note(kind, format string, args ...any) {
	if e := v.kinds[kind]; e != nil {
		e.count++
		return
	}
	e := &example{text: fmt.Sprintf(format, args...), count: 1}
	v.kinds[kind] = e
	v.examples = append(v.examples, e)
}

// kindOf names a failure by its class, what failed, and the first words of
// how (so "doubled prefix" and "not an *ExecError" stay apart).
func kindOf(c *class, what, how string) string {
	if i := strings.IndexByte(how, ':'); i >= 0 {
		how = how[:i]
	}
	return c.name + "/" + what + "/" + how
}

func judgeAll(records, open []record, emits map[int64]int, unread int, kills []kill, overrun time.Duration) *verdict {
	v := &verdict{classes: map[*class]*classStats{}, lost: open, kills: len(kills), unread: unread, kinds: map[string]*example{}}
	for _, r := range open {
		v.note(kindOf(r.class, "lost", ""), "lost: submission %d (%s) submitted %s before the end had no response", r.id, r.class.name, time.Since(r.start).Round(time.Second))
	}
	killed := explainCrashes(records, kills)
	v.killsUsed = len(killed)
	seen := map[int64]bool{}
	for _, r := range records {
		seen[r.id] = true
		c := r.class
		st := v.classes[c]
		if st == nil {
			st = &classStats{statuses: map[host.Status]int{}}
			v.classes[c] = st
		}
		st.runs++
		st.statuses[r.out.status]++
		st.elapsed = append(st.elapsed, r.out.elapsed)
		wasKilled := killed[r.id]
		if wasKilled {
			st.killed++
		}
		wrong := false
		expected := slices.Contains(c.want, r.out.status)
		if !expected && !wasKilled {
			v.wrongStatus++
			wrong = true
			v.note(kindOf(c, "status", string(r.out.status)), "%s #%d: status %q, want %v", c.name, r.id, r.out.status, c.want)
		}
		if r.out.status == host.StatusOK && c.value != nil && r.out.value != c.value(r.id) {
			v.wrongValue++
			wrong = true
			v.note(kindOf(c, "value", ""), "%s #%d: value %s, want %s", c.name, r.id, r.out.value, c.value(r.id))
		}
		switch got := emits[r.id]; {
		case got > c.emits:
			v.duplicated++
			wrong = true
			v.note(kindOf(c, "extra effects", ""), "%s #%d: %d emit effects, want %d", c.name, r.id, got, c.emits)
		case got < c.emits && expected && !wasKilled: // a wrong status is counted once, above
			v.missing++
			wrong = true
			v.note(kindOf(c, "missing effects", ""), "%s #%d: %d emit effects, want %d", c.name, r.id, got, c.emits)
		}
		if r.out.problem != "" {
			v.contract++
			wrong = true
			v.note(kindOf(c, "contract", r.out.problem), "%s #%d: %s", c.name, r.id, r.out.problem)
		}
		if c.deadline > 0 {
			over := r.out.elapsed - c.deadline
			st.overrun = max(st.overrun, over)
			if over > overrun {
				v.overruns++
				wrong = true
				v.note(kindOf(c, "late", ""), "%s #%d: returned %s after its %s deadline", c.name, r.id, over.Round(time.Millisecond), c.deadline)
			}
		}
		if wrong {
			st.wrong++
		}
	}
	for _, r := range open {
		seen[r.id] = true
	}
	for id, n := range emits {
		if !seen[id] {
			v.stray += n
		}
	}
	return v
}

// explainCrashes matches crashed submissions to kills: each kill explains at
// most one crash, and only one that was in flight when the kill was sent.
// Earliest-ending crash first, earliest fitting kill first, is a maximum
// matching of (near-)points to intervals.
func explainCrashes(records []record, kills []kill) map[int64]bool {
	var crashed []record
	for _, r := range records {
		if r.out.status == host.StatusCrashed {
			crashed = append(crashed, r)
		}
	}
	sort.Slice(crashed, func(i, j int) bool { return crashed[i].end.Before(crashed[j].end) })
	sorted := append([]kill(nil), kills...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].before.Before(sorted[j].before) })
	used := make([]bool, len(sorted))
	out := map[int64]bool{}
	for _, r := range crashed {
		for i, k := range sorted {
			if !used[i] && !k.after.Before(r.start) && !k.before.After(r.end) {
				used[i], out[r.id] = true, true
				break
			}
		}
	}
	return out
}

func (v *verdict) failed() bool {
	return len(v.lost) > 0 || v.wrongStatus+v.wrongValue+v.duplicated+v.missing+v.stray+v.unread+v.contract+v.overruns > 0
}
