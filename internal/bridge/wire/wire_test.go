package wire

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

func TestLayersAndLevel(t *testing.T) {
	p := sharedPool(t)
	if p.Level() != "sandbox" {
		t.Fatalf("level %q", p.Level())
	}
	l := p.Layers()
	if !l.Namespaces || !l.PrivateRoot || l.Landlock == 0 || !l.Seccomp || l.Missing != "" {
		t.Fatalf("layers %+v: this machine has every layer", l)
	}
}

func TestExecuteWithToolCalls(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, `
print("hello", inputs["k"])
r = echo(a=1, b="x")
result = {"echo": r, "sum": add(X=40, Y=2), "big": len(big(N=200000))}
`, 10*time.Second, false)
	if o.err != nil {
		t.Fatal(o.err)
	}
	e := decode(t, o.result)
	if e.Error != nil {
		t.Fatalf("raised %s", *e.Error)
	}
	if got := compact(e.Value); got != `{"echo":{"a":1,"b":"x"},"sum":42,"big":200000}` {
		t.Fatalf("value %s", got)
	}
	if string(o.result.Stdout) != "hello 7\n" {
		t.Fatalf("stdout %q", o.result.Stdout)
	}
	if calls := o.session.Calls(); len(calls) != 3 || calls[0].Tool != "echo" || calls[1].Tool != "add" {
		t.Fatalf("calls %+v", calls)
	}
}

func TestToolErrorsAndUnknownTools(t *testing.T) {
	p := sharedPool(t)
	got := mustValue(t, p, `
import _spine, json
try:
    add(X="no", Y=1)
    a = "no error"
except RuntimeError as e:
    a = "error"
r = json.loads(_spine.call('{"tool":"rm_rf","args":{}}'))
result = [a, r]
`)
	if got != `["error",{"error":"unknown tool \"rm_rf\""}]` {
		t.Fatalf("got %s", got)
	}
}

func TestPrepareResolvePLM(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, `
a = slow(Ms=300)
b = slow(Ms=300)
c = slow(Ms=300)
result = [a, b, c, add(X=1, Y=2)]
`, 10*time.Second, true)
	if o.err != nil {
		t.Fatal(o.err)
	}
	e := decode(t, o.result)
	if e.Error != nil || compact(e.Value) != `["slept","slept","slept",3]` {
		t.Fatalf("response %s", o.result.Response)
	}
	claimed := 0
	for _, c := range o.session.Calls() {
		if c.Claimed {
			claimed++
		}
	}
	if claimed < 3 {
		t.Fatalf("PLM claimed %d prepared calls: %+v", claimed, o.session.Calls())
	}
}

func TestPrepareResolveMismatch(t *testing.T) {
	p := sharedPool(t)
	got := mustValue(t, p, `
import _spine, json
h = _spine.prepare('{"args":{"X":1,"Y":2},"tool":"add"}')
r = json.loads(_spine.resolve(h, '{"args":{"X":5,"Y":5},"tool":"add"}'))
forged = json.loads(_spine.resolve(987654, '{"args":{"X":1,"Y":1},"tool":"add"}'))
result = [h > 0, r, forged]
`)
	if got != `[true,{"value":10},{"value":2}]` {
		t.Fatalf("got %s", got)
	}
}

func TestStreamEntriesThenExecute(t *testing.T) {
	s, g := acquire(t)
	defer g.Release()
	begin, _ := json.Marshal(map[string]any{"stream": "s1", "inputs": map[string]any{}, "manifest": json.RawMessage(testManifest)})
	s.SetStreaming(true)
	if err := g.Entry("prefix_begin", begin); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []string{"a = add(X=1,", " Y=2)\nb = echo(v=3)\n", "result = [a, b]\n"} {
		arg, _ := json.Marshal(map[string]any{"stream": "s1", "chunk": chunk})
		if err := g.Entry("prefix_feed", arg); err != nil {
			t.Fatal(err)
		}
	}
	s.SetStreaming(false)
	final, _ := json.Marshal(map[string]any{"prefix": true, "stream": "s1"})
	result, err := g.Execute(final)
	if err != nil {
		t.Fatal(err)
	}
	if e := decode(t, result); e.Error != nil || compact(e.Value) != `[3,{"v":3}]` {
		t.Fatalf("response %s", result.Response)
	}
	early := 0
	for _, c := range s.Calls() {
		if c.Early && c.Claimed {
			early++
		}
	}
	if early == 0 {
		t.Fatalf("the stream started no call early: %+v", s.Calls())
	}
	if err := g.Entry("prefix_feed", []byte(`{}`)); err == nil {
		t.Fatal("an entry after the execution must fail: the child serves one stream")
	}
}

func TestEntryErrorKeepsChild(t *testing.T) {
	_, g := acquire(t)
	defer g.Release()
	if err := g.Entry("prefix_feed", []byte(`{"stream":"none","chunk":"x"}`)); err == nil || !strings.Contains(err.Error(), "prefix_feed") {
		t.Fatalf("feed without begin: %v", err)
	}
	if err := g.Entry("os_system", []byte(`x`)); err == nil {
		t.Fatal("an unknown entry point must fail")
	}
	result, err := g.Execute(request("result = 5", false))
	if err != nil || compact(decode(t, result).Value) != "5" {
		t.Fatalf("%v %s", err, result.Response)
	}
}

func TestNoStateCrossesExecutions(t *testing.T) {
	p := sharedPool(t)
	mustValue(t, p, `
import builtins, json, sys
builtins.len = lambda x: -1
json.spine_marker = 1
sys.modules["marker"] = 1
result = 1
`)
	got := mustValue(t, p, `
import builtins, json, sys
result = [len([1, 2]), hasattr(json, "spine_marker"), "marker" in sys.modules]
`)
	if got != `[2,false,false]` {
		t.Fatalf("state crossed executions: %s", got)
	}
}

func TestRandomDiffersPerChild(t *testing.T) {
	p := sharedPool(t)
	a := mustValue(t, p, "import random\nresult = random.random()")
	b := mustValue(t, p, "import random\nresult = random.random()")
	if a == b {
		t.Fatalf("two children drew the same random number %s: the zygote's seed leaked", a)
	}
}

var (
	patientOnce sync.Once
	patient     *Pool
	patientErr  error
)

// patientPool kills a child only long after its deadline, so that a program
// the deadline interrupts cleanly is never overtaken by the kill, however
// loaded the machine: its tests can expect the one clean outcome.
func patientPool(t *testing.T) *Pool {
	t.Helper()
	binary := testenv.GuestBinary(t) // outside the Once: it may end the test
	patientOnce.Do(func() {
		patient, patientErr = NewPool(Options{Binary: binary, Prefork: 1, MemoryBytes: 512 << 20, CPUSeconds: 10, Grace: time.Minute})
	})
	if patientErr != nil {
		t.Fatal(patientErr)
	}
	return patient
}

// expectInterrupted checks the clean end of a program its deadline stopped:
// a result (not an error) marked Timeout whose response is the interrupt.
func expectInterrupted(t *testing.T, o outcome, line int) {
	t.Helper()
	if o.err != nil {
		t.Fatalf("want a clean interruption, got the error %v", o.err)
	}
	var e struct {
		Error *string
		Kind  string
		Line  int
	}
	if err := json.Unmarshal(o.result.Response, &e); err != nil || o.result.Interrupted != bridge.Timeout ||
		e.Kind != "interrupt" || e.Error == nil || !strings.HasPrefix(*e.Error, "Interrupt: execution exceeded its deadline") || e.Line != line {
		t.Fatalf("interrupted %v, response %s", o.result.Interrupted, o.result.Response)
	}
}

// Pure bytecode is stopped at its deadline by the child's own timer, with
// what it printed kept.
func TestTimeoutPureBytecode(t *testing.T) {
	o := runIn(t, patientPool(t), "print('before')\nwhile True: pass", time.Second, false)
	expectInterrupted(t, o, 2)
	if string(o.result.Stdout) != "before\n" {
		t.Fatalf("stdout %q", o.result.Stdout)
	}
}

// A long C call cannot be interrupted: the host kills the child at its
// deadline plus the grace, long before its CPU seconds run out.
func TestTimeoutLongCCall(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, "x = 10**10**8", time.Second, false)
	if !errors.Is(o.err, ErrTimeout) || !strings.Contains(o.err.Error(), "after its deadline") {
		t.Fatalf("want the kill after the deadline (ErrTimeout), got %v (%v)", o.err, o.result)
	}
	// The pool still serves.
	if got := mustValue(t, p, "result = 1"); got != "1" {
		t.Fatal(got)
	}
}

// A tool still running at the deadline has its context cancelled, and the
// program is interrupted at that call instead of seeing the tool's error.
func TestTimeoutDuringToolCall(t *testing.T) {
	o := runIn(t, patientPool(t), "result = slow(Ms=60000)", time.Second, false)
	expectInterrupted(t, o, 1)
	calls := o.session.Calls()
	if len(calls) != 1 || calls[0].Tool != "slow" || calls[0].Error != context.DeadlineExceeded.Error() {
		t.Fatalf("calls %+v: want the one slow call, ended by its context's deadline", calls)
	}
}

func TestCancelKillsChild(t *testing.T) {
	p := sharedPool(t)
	ctx, cancel := context.WithCancel(context.Background())
	s := bridge.NewSession(ctx, bridge.Config{Tools: testTools(t)})
	g, err := p.Acquire(s)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err = g.Execute(request("x = 10**10**8", false))
	g.Release()
	s.Close()
	// Only the host's kill on cancel ends this call with context.Canceled;
	// left alone it would run into its CPU limit (ErrTimeout).
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v", err)
	}
}

func TestToolCallLimitStopsProgram(t *testing.T) {
	p := sharedPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{Tools: testTools(t), Limits: bridge.Limits{MaxToolCalls: 3}})
	g, err := p.Acquire(s)
	if err != nil {
		t.Fatal(err)
	}
	result, err := g.Execute(request(`
n = 0
while True:
    try:
        add(X=1, Y=1)
        n += 1
    except BaseException:
        pass
`, false))
	g.Release()
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if result.Interrupted != bridge.LimitExceeded || s.LimitExceeded() == "" {
		t.Fatalf("interrupted %v limit %q response %s", result.Interrupted, s.LimitExceeded(), result.Response)
	}
}

func TestMemoryError(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, "print('x')\nx = bytearray(2 << 30)", 10*time.Second, false)
	if !errors.Is(o.err, ErrMemory) || o.result == nil || string(o.result.Stdout) != "x\n" {
		t.Fatalf("err %v result %+v", o.err, o.result)
	}
}

func TestCPULimit(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, CPUSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	o := runIn(t, p, "x = 10**10**9", 30*time.Second, false)
	if !errors.Is(o.err, ErrTimeout) || !strings.Contains(o.err.Error(), "CPU") {
		t.Fatalf("err %v", o.err)
	}
}

func TestRawOutputLimit(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, "import os\nwhile True: os.write(1, b'x' * 65536)", 10*time.Second, false)
	if !errors.Is(o.err, ErrOutputLimit) {
		t.Fatalf("err %v", o.err)
	}
}

func TestCapturedOutputIsBounded(t *testing.T) {
	p := sharedPool(t)
	o := runIn(t, p, "for i in range(100000): print('y' * 100)\nresult = 1", 20*time.Second, false)
	if o.err != nil {
		t.Fatal(o.err)
	}
	if len(o.result.Stdout) > 1<<20 || !strings.Contains(string(o.result.Response), `"stdout_truncated":true`) {
		t.Fatalf("stdout %d bytes, response %s", len(o.result.Stdout), o.result.Response)
	}
}
