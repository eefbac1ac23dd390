package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// steps is a tool `meet(step=k)` that returns once two calls of step k are
// running at the same time: two executions calling it at every step run
// in lockstep, each between the same two meetings as the other.
type steps struct {
	mu    sync.Mutex
	steps map[int]*rendezvous
}

func (s *steps) tool() host.Tool {
	return host.NewTool(host.ToolSpec{Name: "meet"}, func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		var args struct {
			Step int `json:"step"`
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, err
		}
		s.mu.Lock()
		r := s.steps[args.Step]
		if r == nil {
			r = newRendezvous(2)
			s.steps[args.Step] = r
		}
		s.mu.Unlock()
		return r.tool().Handler(ctx, raw)
	})
}

// Both programs read the clock and randomness between meetings, on their
// own thread and on a thread they start. Each read takes two clock readings
// (time.time, datetime.now).
const readSources = `
import datetime, os, random, threading, time
seen = {"r": [], "t": [], "u": [], "year": []}
def read():
    seen["r"].append(random.random())
    seen["t"].append(time.time())
    seen["u"].append(os.urandom(8).hex())
    seen["year"].append(datetime.datetime.now().year)
def reads():
    for _ in range(10):
        read()
    started = threading.Thread(target=lambda: [read() for _ in range(10)])
    started.start()
    started.join()
`

const journaledReader = readSources + `
read()
send(to="bob", body="go")
for step in range(1, 4):
    meet(step=step)
    reads()
meet(step=4)
result = seen
`

const plainReader = readSources + `
for step in range(1, 4):
    meet(step=step)
    reads()
meet(step=4)
result = seen
`

type readings struct {
	R    []float64 `json:"r"`
	T    []float64 `json:"t"`
	U    []string  `json:"u"`
	Year []int     `json:"year"`
}

// In process, an execution resumed from a journal and a plain one overlap
// in one interpreter: the resumed one replays the journal's clock and seed
// exactly (which here differ from reality: a clock in 2001, another seed),
// and the plain one, reading the same sources in between its meetings with
// the resumed one, sees the real clock and randomness nobody replays.
func TestInprocResumedAndPlainExecutionsKeepTheirOwnSources(t *testing.T) {
	l, meet := &ledger{}, &steps{steps: map[int]*rendezvous{}}
	e := engineIn(t, host.Inproc, host.WithTools(append(l.tools(), meet.tool())...),
		host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
	j := suspended(t, e, host.Request{Source: journaledReader})
	if len(j.Calls) != 0 || j.Pending == nil || j.Pending.Tool != "send" || len(j.Clock) != 2 {
		t.Fatalf("journal %+v", j)
	}
	const seed, reads = 4242, 1 + 3*20
	j.Seed, j.Clock = seed, make([]int64, 2*reads)
	for i := range j.Clock {
		j.Clock[i] = int64(1e18) + int64(i)*int64(time.Second) // 2001-09-09, a second apart
	}
	// What the seed yields: random's generator, and os.urandom's, which
	// draws from a generator seeded with the seed and a fixed salt.
	expected := readingsOf(t, e, fmt.Sprintf(`import random
g, u = random.Random(%d), random.Random(%d ^ 0x5EED0F0E2A)
result = {"r": [g.random() for _ in range(%d)], "u": [u.randbytes(8).hex() for _ in range(%[3]d)]}`, seed, seed, reads))

	var resumed, plain readings
	var resumedErr, plainErr error
	before := time.Now()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		resp, err := e.Resume(context.Background(), j, host.Approve())
		resumedErr = decoded(resp, err, &resumed)
	}()
	go func() {
		defer wg.Done()
		resp, err := e.Execute(context.Background(), host.Request{Source: plainReader})
		plainErr = decoded(resp, err, &plain)
	}()
	wg.Wait()
	after := time.Now()
	if resumedErr != nil || plainErr != nil {
		t.Fatalf("resumed: %v; plain: %v", resumedErr, plainErr)
	}

	if len(resumed.R) != reads || len(plain.R) != reads-1 {
		t.Fatalf("%d and %d reads", len(resumed.R), len(plain.R))
	}
	for i := range resumed.R {
		if resumed.R[i] != expected.R[i] || resumed.U[i] != expected.U[i] {
			t.Fatalf("resumed read %d: random %v urandom %s, the seed gives %v %s", i, resumed.R[i], resumed.U[i], expected.R[i], expected.U[i])
		}
		if want := 1e9 + float64(2*i); resumed.T[i] != want || resumed.Year[i] != 2001 {
			t.Fatalf("resumed read %d: time %v year %d, the journal holds %v", i, resumed.T[i], resumed.Year[i], want)
		}
	}
	seeded, minted := map[float64]bool{}, map[string]bool{}
	for i := range expected.R {
		seeded[expected.R[i]], minted[expected.U[i]] = true, true
	}
	lo, hi := float64(before.Add(-time.Second).UnixNano())/1e9, float64(after.Add(time.Second).UnixNano())/1e9
	for i := range plain.R {
		if seeded[plain.R[i]] || minted[plain.U[i]] {
			t.Fatalf("plain read %d drew %v %s from the resumed execution's seed", i, plain.R[i], plain.U[i])
		}
		if plain.T[i] < lo || plain.T[i] > hi || plain.Year[i] != before.Year() {
			t.Fatalf("plain read %d: time %v (year %d), the clock was between %v and %v", i, plain.T[i], plain.Year[i], lo, hi)
		}
		if i > 0 && (plain.R[i] == plain.R[i-1] || plain.U[i] == plain.U[i-1]) {
			t.Fatalf("plain read %d repeats the one before: %v %s", i, plain.R[i], plain.U[i])
		}
	}
	if got := l.list(); len(got) != 1 || got[0] != `send{"body":"go","to":"bob"}` {
		t.Errorf("runs %v: the approved send once", got)
	}
}

// readingsOf executes source and decodes its result.
func readingsOf(t *testing.T, e *host.Engine, source string) readings {
	t.Helper()
	var got readings
	resp, err := e.Execute(context.Background(), host.Request{Source: source})
	if err := decoded(resp, err, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

func decoded(resp *host.Response, err error, into *readings) error {
	if err != nil || resp.Status != host.StatusOK {
		return fmt.Errorf("%v %+v", err, resp)
	}
	return json.Unmarshal(resp.Value, into)
}
