package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// The load programs. The benign one computes from its own inputs, with one
// tool call, and prints its id: its value and stdout are checked exactly.
const loadBenign = `
print(inputs["id"])
s = add(X=inputs["a"], Y=inputs["b"])
result = {"id": inputs["id"], "sum": s, "sq": inputs["a"] * inputs["a"] + inputs["b"]}
`

// Fast hostile programs, and what each must end with.
var loadHostile = []struct {
	name, source string
	want         error // nil: the program raised (a Result with an error)
}{
	{"abort", "import os\nos.abort()", ErrCrashed},
	{"os_exit", "import os\nos._exit(7)", ErrCrashed},
	{"execv", "import os\nos.execv('/bin/sh', ['sh', '-c', 'true'])", ErrViolation},
	{"memory_bomb", "x = bytearray(1 << 34)", ErrMemory},
	{"raise", "raise ValueError('hostile ' + str(inputs['id']))", nil},
}

// zygoteChildren lists the zygote's live children (host pids), from
// /proc/<zygote>/task/*/children.
func zygoteChildren(zygote int) []int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", zygote))
	var pids []int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(field); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

type loadOutcome struct {
	id       int
	hostile  int // index into loadHostile, -1 for benign
	attempts int
	killed   int // benign attempts that ended crashed (killed from outside)
	value    string
	err      error
}

// 2,000 executions from 32 goroutines, a fifth of them hostile, while a
// killer SIGKILLs random children of the zygote from outside: every benign
// execution ends with its own exact result (a benign attempt whose child was
// killed ends crashed and is run again, as a caller would), none is lost or
// duplicated, and descriptors, goroutines and children return to baseline.
func TestLoadWithFaultInjection(t *testing.T) {
	const (
		total    = 2000
		routines = 32
		prefork  = 4
	)
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: prefork, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	mustValue(t, p, "result = 1")
	zygote := p.zygotePID()
	// settle waits (up to a generous 30 s) for the pool to refill and reap.
	settle := func() (fds, gs, procs int) {
		for i := 0; i < 600; i++ {
			time.Sleep(50 * time.Millisecond)
			fds, gs, procs = countFDs(t), runtime.NumGoroutine(), countChildren(t, zygote)
			if procs == prefork && p.ready.len() == prefork {
				break
			}
		}
		return
	}
	fds0, gs0, procs0 := settle()
	if procs0 != prefork {
		t.Fatalf("baseline: %d children forked ahead, want %d", procs0, prefork)
	}

	// Which executions are hostile: every fifth, in a shuffled order.
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	hostile := make([]int, total)
	for i := range hostile {
		hostile[i] = -1
		if i%5 == 0 {
			hostile[i] = (i / 5) % len(loadHostile)
		}
	}
	rng.Shuffle(total, func(i, j int) { hostile[i], hostile[j] = hostile[j], hostile[i] })

	// The tool records which execution called it: each benign execution's
	// one call must come from its own session.
	var toolCalls sync.Map // id -> *atomic.Int32
	tools := func(id int) map[string]*bridge.Tool {
		return map[string]*bridge.Tool{"add": mustTool(t, "add", true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct{ X, Y int }
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			n, _ := toolCalls.LoadOrStore(id, new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
			return json.Marshal(a.X + a.Y)
		})}
	}

	// The killer: a random child of the zygote every few milliseconds, busy
	// or forked ahead, whatever it is doing.
	stopKiller := make(chan struct{})
	killerDone := make(chan struct{})
	var kills atomic.Int64
	go func() {
		defer close(killerDone)
		krng := rand.New(rand.NewSource(time.Now().UnixNano() + 1))
		for {
			select {
			case <-stopKiller:
				return
			case <-time.After(time.Duration(5+krng.Intn(20)) * time.Millisecond):
			}
			if pids := zygoteChildren(zygote); len(pids) > 0 {
				if syscall.Kill(pids[krng.Intn(len(pids))], syscall.SIGKILL) == nil {
					kills.Add(1)
				}
			}
		}
	}()

	run := func(id int, source string) (*bridge.Result, *bridge.Session, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		s := bridge.NewSession(ctx, bridge.Config{Tools: tools(id), Limits: bridge.Limits{MaxToolCalls: 10, MaxArgBytes: 1 << 16}})
		defer s.Close()
		a := 1 + id%97
		b := id * 3
		req, _ := json.Marshal(map[string]any{"source": source, "inputs": map[string]any{"id": id, "a": a, "b": b},
			"manifest": json.RawMessage(`[{"name":"add","speculative":true}]`)})
		g, err := p.Acquire(s)
		if err != nil {
			return nil, s, err
		}
		result, err := g.Execute(req)
		g.Release()
		return result, s, err
	}

	outcomes := make([]loadOutcome, total)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for r := 0; r < routines; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				id := int(next.Add(1)) - 1
				if id >= total {
					return
				}
				o := loadOutcome{id: id, hostile: hostile[id]}
				if o.hostile >= 0 {
					o.attempts = 1
					var result *bridge.Result
					result, _, o.err = run(id, loadHostile[o.hostile].source)
					if o.err == nil && result != nil {
						o.value = string(result.Response)
					}
					outcomes[id] = o
					continue
				}
				for o.attempts < 20 {
					o.attempts++
					result, s, err := run(id, loadBenign)
					if errors.Is(err, ErrCrashed) && strings.Contains(err.Error(), "signal killed") {
						o.killed++
						continue
					}
					o.err = err
					if err == nil {
						o.value = string(result.Response)
						var e envelope
						if jerr := json.Unmarshal(result.Response, &e); jerr != nil || e.Error != nil {
							o.err = fmt.Errorf("response %s", result.Response)
						} else {
							o.value = compact(e.Value)
						}
						if got, want := string(result.Stdout), fmt.Sprintf("%d\n", id); got != want && o.err == nil {
							o.err = fmt.Errorf("stdout %q, want %q", got, want)
						}
						if calls := s.Calls(); len(calls) != 1 || calls[0].Tool != "add" || calls[0].Error != "" {
							if o.err == nil {
								o.err = fmt.Errorf("calls %+v, want one add", calls)
							}
						}
					}
					break
				}
				outcomes[id] = o
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stopKiller)
	<-killerDone
	// A child killed a moment before the killer stopped may still be on its
	// way out; the pool is whole again once the kills are over.
	settle()

	// Every execution has its one outcome; every benign one its own value,
	// once.
	seen := map[int]int{}
	var benign, retried, killedBenign int
	hostileEnds := map[string]map[string]int{}
	for id, o := range outcomes {
		if o.attempts == 0 || o.id != id {
			t.Fatalf("execution %d lost (outcome %+v)", id, o)
		}
		if o.hostile >= 0 {
			h := loadHostile[o.hostile]
			end := "raised"
			switch {
			case errors.Is(o.err, ErrCrashed) && strings.Contains(o.err.Error(), "signal killed"):
				end = "killed" // the killer got there first
			case o.err == nil && h.want == nil:
				if !strings.Contains(o.value, "ValueError: hostile "+strconv.Itoa(id)) {
					t.Fatalf("hostile %s (%d): response %s", h.name, id, o.value)
				}
			case o.err != nil && h.want != nil && errors.Is(o.err, h.want):
				end = fmt.Sprint(h.want)
			default:
				t.Fatalf("hostile %s (%d): want %v, got err %v value %s", h.name, id, h.want, o.err, o.value)
			}
			if hostileEnds[h.name] == nil {
				hostileEnds[h.name] = map[string]int{}
			}
			hostileEnds[h.name][end]++
			continue
		}
		benign++
		if o.err != nil {
			t.Fatalf("benign %d after %d attempts: %v", id, o.attempts, o.err)
		}
		if o.killed == o.attempts {
			t.Fatalf("benign %d killed %d times in a row", id, o.killed)
		}
		a, b := 1+id%97, id*3
		if want := fmt.Sprintf(`{"id":%d,"sum":%d,"sq":%d}`, id, a+b, a*a+b); o.value != want {
			t.Fatalf("benign %d: value %s, want %s", id, o.value, want)
		}
		var v struct{ ID int }
		json.Unmarshal([]byte(o.value), &v)
		seen[v.ID]++
		if o.killed > 0 {
			retried++
			killedBenign += o.killed
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("result of %d seen %d times", id, n)
		}
	}
	if len(seen) != benign || benign != total*4/5 {
		t.Fatalf("%d benign results for %d benign executions (want %d)", len(seen), benign, total*4/5)
	}
	// Each successful benign attempt's one tool call came from its own
	// session; a killed attempt may have called it before dying.
	toolCalls.Range(func(k, v any) bool {
		id := k.(int)
		if n := int(v.(*atomic.Int32).Load()); hostile[id] >= 0 || n < 1 || n > outcomes[id].attempts {
			t.Fatalf("execution %d (hostile %d): tool called %d times in %d attempts", id, hostile[id], n, outcomes[id].attempts)
		}
		return true
	})
	if kills.Load() == 0 || killedBenign == 0 {
		t.Fatalf("the killer sent %d kills and hit %d benign executions: the fault injection did not happen", kills.Load(), killedBenign)
	}
	// How long the load took is reported, not asserted: on shared cores it
	// is noise (bench/enginebench measures the pool's speed).
	t.Logf("%d executions in %v from %d goroutines; %d kills, %d benign attempts killed (%d executions retried); hostile ends %v",
		total, elapsed.Round(time.Millisecond), routines, kills.Load(), killedBenign, retried, hostileEnds)

	// The pool still serves; children killed while forked ahead are skipped.
	for i := 0; i < 2*prefork; i++ {
		if got := mustValue(t, p, fmt.Sprintf("result = %d", i)); got != strconv.Itoa(i) {
			t.Fatalf("after the load: %s", got)
		}
	}
	var fds, gs, procs int
	for i := 0; i < 20; i++ {
		fds, gs, procs = settle()
		if fds <= fds0 && gs <= gs0 && procs <= procs0 {
			return
		}
	}
	t.Fatalf("after the load: fds %d (was %d), goroutines %d (was %d), children %d (was %d)", fds, fds0, gs, gs0, procs, procs0)
}
