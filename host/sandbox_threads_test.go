package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Threads of the child call tools at once: every call is answered with its
// own value (each answer finds the thread that asked by its crossing id)
// and every call is in the trace.
func TestSandboxThreadsCallTools(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 20 * time.Second}))
	src := `from concurrent.futures import ThreadPoolExecutor
import threading, queue, logging
logging.basicConfig(level=logging.INFO, format='%(threadName)s %(message)s')
q = queue.Queue()
def work(k):
    v = lookup(key=k)
    q.put(k)
    logging.info('got %d', k)
    return v
with ThreadPoolExecutor(max_workers=8) as pool:
    values = list(pool.map(work, range(32)))
result = {'values': values, 'queued': sorted(q.get() for _ in range(32)), 'threads': threading.active_count()}`
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil {
		t.Fatalf("%v %+v", err, resp)
	}
	var got struct {
		Values, Queued []int
		Threads        int
	}
	if err := json.Unmarshal(resp.Value, &got); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 32; k++ {
		if got.Values[k] != 7*k || got.Queued[k] != k {
			t.Fatalf("values %v queued %v", got.Values, got.Queued)
		}
	}
	if got.Threads != 1 || len(resp.Calls) != 32 {
		t.Fatalf("threads %d, %d calls traced", got.Threads, len(resp.Calls))
	}
	if n := strings.Count(resp.Stderr, " got "); n != 32 {
		t.Fatalf("%d log lines in stderr %q", n, resp.Stderr)
	}
}

// A thread's memory is the child's: past RLIMIT_AS an allocation in a
// thread fails there with MemoryError, which the thread can catch.
func TestSandboxThreadAllocationsShareTheChildsMemoryLimit(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 10 * time.Second}))
	src := `import threading
seen = []
def grab():
    try:
        bytearray(4 << 30)
    except MemoryError:
        seen.append('MemoryError')
t = threading.Thread(target=grab)
t.start()
t.join()
result = seen`
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil || string(resp.Value) != `["MemoryError"]` {
		t.Fatalf("%v %+v", err, resp)
	}
}

// A thread that spins holds the child past its deadline: the execution is a
// timeout like any other, and the child goes with all its threads.
func TestSandboxSpinningThreadEndsAtTheDeadline(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	src := "import threading\nt = threading.Thread(target=lambda: [None for _ in iter(int, 1)])\nt.start()\nt.join()"
	resp, _ := e.Execute(context.Background(), host.Request{Source: src})
	if resp == nil || resp.Status != host.StatusTimeout {
		t.Fatalf("%+v", resp)
	}
	if r, err := e.Execute(context.Background(), host.Request{Source: "result = lookup(key=2)"}); err != nil || string(r.Value) != "14" {
		t.Fatalf("after: %v %+v", err, r)
	}
}

// A thread still running when its program ends dies with the child: what it
// goes on printing never reaches another execution's output.
func TestSandboxThreadOutlivingItsProgramLeaksNothing(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 10 * time.Second}))
	src := `import threading, time, sys
started = threading.Event()
def chatter():
    started.set()
    while True:
        print('LEAK')
        sys.stderr.write('LEAK\n')
        time.sleep(0.001)
threading.Thread(target=chatter, daemon=True).start()
threading.Thread(target=chatter).start()
started.wait()
result = 1`
	if resp, err := e.Execute(context.Background(), host.Request{Source: src}); err != nil || string(resp.Value) != "1" {
		t.Fatalf("%v %+v", err, resp)
	}
	for i := 0; i < 5; i++ {
		resp, err := e.Execute(context.Background(), host.Request{Source: "import time\ntime.sleep(0.05)\nprint('mine')\nresult = 2"})
		if err != nil || resp.Stdout != "mine\n" || resp.Stderr != "" {
			t.Fatalf("execution %d after: %v %+v", i, err, resp)
		}
	}
}
