package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// warmPool is a pool of its own whose children warm up on warm.
func warmPool(t *testing.T, warm []byte) *Pool {
	t.Helper()
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, MaxChildren: 2, MemoryBytes: 512 << 20,
		CPUSeconds: 10, Warm: warm})
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// The host's warm-up request runs in the zygote's warm-up and then in every
// child, before its ready frame; its tool call is answered inside the child
// (warm_answer's 21, not echo's arguments), never by the host. The request
// is longer than one control message: its chunks are appended.
func TestWarmRequestRunsInTheZygoteAndInEveryChild(t *testing.T) {
	warm, err := json.Marshal(map[string]any{
		"source": "import os, sys\n" +
			"sys.warm_pids = getattr(sys, 'warm_pids', ()) + (os.getpid(),)\n" +
			"sys.warm_answer = echo(v=1)\n" +
			"# " + strings.Repeat("x", 40<<10) + "\n",
		"inputs": map[string]any{}, "manifest": json.RawMessage(testManifest)})
	if err != nil {
		t.Fatal(err)
	}
	p := warmPool(t, warm)
	const program = "import os, sys\npids = sys.warm_pids\n" +
		"result = [len(set(pids[:-1])), pids[0] != os.getpid(), pids[-1] == os.getpid(), sys.warm_answer]"
	for i := 0; i < 2; i++ {
		o := runIn(t, p, program, 10*time.Second, false)
		if o.err != nil {
			t.Fatalf("execution %d: %v", i, o.err)
		}
		e := decode(t, o.result)
		if e.Error != nil {
			t.Fatalf("execution %d raised: %s", i, *e.Error)
		}
		// Every run before the child's own was the zygote's (one process,
		// not the child), the last one the child's.
		if got := compact(e.Value); got != `[1,true,true,21]` {
			t.Fatalf("execution %d: warm-up runs seen as %s, want [1,true,true,21]", i, got)
		}
		if calls := len(o.session.Calls()); calls != 0 {
			t.Fatalf("execution %d: the host saw %d tool calls, want none (the warm-up's call is answered in the child)", i, calls)
		}
	}
}

// A warm-up request the guest cannot read, or whose program raises, costs
// the children their warm-up and nothing else: they start and serve.
func TestUnreadableWarmRequestLeavesChildrenServing(t *testing.T) {
	for _, warm := range []string{`not json`, `{"source":"raise ValueError('warm-up')","inputs":{}}`} {
		p := warmPool(t, []byte(warm))
		if got := mustValue(t, p, "result = add(x=2, y=3)"); got != "5" {
			t.Fatalf("warm-up %q: result %s, want 5", warm, got)
		}
	}
}
