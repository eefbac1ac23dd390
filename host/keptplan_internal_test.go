package host

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/keptplan"
	"github.com/spine-sandbox/spine/internal/protocol"
	"github.com/spine-sandbox/spine/internal/testenv"
)

const (
	squareProgram = "def square(x: int) -> int:\n    return x * x\n\nresult = square(inputs['n'])\n"
	tripleProgram = "def triple(x: int) -> int:\n    return 3 * x\n\nresult = ['B', triple(inputs['n'])]\n"
)

func keptPlanEngine(t *testing.T, level Isolation, cache string, more ...Option) *Engine {
	t.Helper()
	opts := append([]Option{WithIsolation(level), WithNative(NativeOptions{Toolchain: testenv.NativeToolchain(t), CacheDir: cache})}, more...)
	if level == Sandbox {
		opts = append(opts, WithSandbox(SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: 1}))
	}
	e, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func eagerValue(t *testing.T, run func(context.Context, Request) (*Response, error), source string) string {
	t.Helper()
	resp, err := run(context.Background(), Request{Source: source, Inputs: json.RawMessage(`{"n": 4}`), Native: NativeEager})
	if err != nil {
		t.Fatalf("Execute: %v (%+v)", err, resp)
	}
	return compactJSON(t, resp.Value)
}

func compactJSON(t *testing.T, value []byte) string {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, value); err != nil {
		t.Fatal(err)
	}
	return compact.String()
}

func planKey(t *testing.T, e *Engine, source string) keptplan.Key {
	t.Helper()
	_, _, manifest, err := e.resolveRequest(Request{Source: source})
	if err != nil {
		t.Fatal(err)
	}
	return e.plans.KeyOf(source, manifest, false, e.limits.Fanout)
}

func keptOnDisk(t *testing.T, cache string, k keptplan.Key) []byte {
	t.Helper()
	disk, err := guestcache.Open(filepath.Join(cache, "plans"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := disk.LoadEntry(k)
	return data
}

// A sandboxed child hands its plan over; the next execution of the program,
// in this engine (memory) or in another process (disk), in either
// isolation, runs the kept plan's code instead of compiling the source: an
// entry swapped for another program's gives that program's answer.
func TestAKeptPlanIsWhatTheNextExecutionRuns(t *testing.T) {
	cache := t.TempDir()
	e := keptPlanEngine(t, Sandbox, cache)
	if got := eagerValue(t, e.Execute, squareProgram); got != "16" {
		t.Fatalf("square: %s", got)
	}
	if got := eagerValue(t, e.Execute, tripleProgram); got != `["B",12]` {
		t.Fatalf("triple: %s", got)
	}
	square, triple := planKey(t, e, squareProgram), planKey(t, e, tripleProgram)
	tripleKept := keptOnDisk(t, cache, triple)
	if tripleKept == nil || keptOnDisk(t, cache, square) == nil {
		t.Fatal("the sandboxed children's plans were not kept on disk")
	}
	// The kept square plan runs as well as the source did, natively.
	resp, err := e.Execute(context.Background(), Request{Source: squareProgram, Inputs: json.RawMessage(`{"n": 5}`), Native: NativeEager})
	if err != nil || string(resp.Value) != "25" || len(resp.Native) != 1 || resp.Native[0].Status != "native" {
		t.Fatalf("%v, %+v", err, resp)
	}
	var tripleCompiled protocol.Compiled
	if err := json.Unmarshal(e.plans.Load(triple, tripleProgram), &tripleCompiled); err != nil {
		t.Fatal(err)
	}
	if err := e.plans.Keep(square, squareProgram, &tripleCompiled, nil); err != nil {
		t.Fatal(err)
	}
	if got := eagerValue(t, e.Execute, squareProgram); got != `["B",12]` {
		t.Fatalf("the engine's kept plan did not run: %s", got)
	}

	for _, level := range []Isolation{Sandbox, Inproc} {
		next := keptPlanEngine(t, level, cache)
		if got := eagerValue(t, next.Execute, squareProgram); got != `["B",12]` {
			t.Errorf("%s: the plan kept on disk did not run: %s", level, got)
		}
	}
}

// forgingProgram sends a native start of its own, after it started, with a
// plan whose code would answer "poisoned": the host keeps only what the
// child's bootstrap handed over before the program ran.
const forgingProgram = `import binascii, json, marshal, sys
import _spine
code = marshal.dumps(compile("result = 'poisoned'", "<spine>", "exec"))
forged = {"code": binascii.b2a_base64(code, newline=False).decode(), "helpers": [], "transformed": "",
          "python": sys.version, "plan": {"functions": [], "units": [], "reasons": {}}}
answer = json.loads(_spine.native(json.dumps({"op": "start", "units": [], "kept": forged})))
result = ['honest', sorted(answer)]
`

func TestAPlanAProgramSendsItselfIsNeverKept(t *testing.T) {
	cache := t.TempDir()
	e := keptPlanEngine(t, Sandbox, cache)
	want := `["honest",["units"]]`
	for i := 0; i < 2; i++ {
		if got := eagerValue(t, e.Execute, forgingProgram); got != want {
			t.Fatalf("run %d: %s", i, got)
		}
	}
	if keptOnDisk(t, cache, planKey(t, e, forgingProgram)) == nil {
		t.Fatal("the bootstrap's own plan was not kept")
	}
	for _, level := range []Isolation{Sandbox, Inproc} {
		next := keptPlanEngine(t, level, cache)
		if got := eagerValue(t, next.Execute, forgingProgram); got != want {
			t.Errorf("%s: %s", level, got)
		}
	}
}

// A session's child runs several programs: nothing it hands over is kept.
func TestASessionKeepsNoPlan(t *testing.T) {
	cache := t.TempDir()
	e := keptPlanEngine(t, Sandbox, cache)
	s, err := e.Session(context.Background(), SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 2; i++ {
		if got := eagerValue(t, s.Execute, squareProgram); got != "16" {
			t.Fatalf("run %d: %s", i, got)
		}
	}
	if e.plans.Load(planKey(t, e, squareProgram), squareProgram) != nil {
		t.Fatal("a session's plan was kept")
	}
	if names, _ := os.ReadDir(filepath.Join(cache, "plans")); len(names) != 0 {
		t.Fatalf("kept on disk: %v", names)
	}
}

// A streamed program runs without a plan asked for: its first native
// crossing may be its own (forgingProgram's), and nothing of it is kept.
func TestAStreamKeepsNoPlan(t *testing.T) {
	cache := t.TempDir()
	e := keptPlanEngine(t, Sandbox, cache)
	s, err := e.Stream(context.Background(), Request{Inputs: json.RawMessage(`{"n": 4}`), Native: NativeEager})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Feed([]byte(forgingProgram)); err != nil {
		t.Fatal(err)
	}
	resp, err := s.Finish()
	if err != nil {
		t.Fatalf("%v, %+v", err, resp)
	}
	if got := compactJSON(t, resp.Value); got != `["honest",["units"]]` {
		t.Fatalf("streamed: %s", got)
	}
	if names, _ := os.ReadDir(filepath.Join(cache, "plans")); len(names) != 0 {
		t.Fatalf("a stream's plan was kept: %v", names)
	}
	if got := eagerValue(t, e.Execute, forgingProgram); got != `["honest",["units"]]` {
		t.Fatalf("after the stream: %s", got)
	}
}

// With PLM the kept code is the rewritten program, with its helpers and
// text: the next child runs it as the first did, and reports the same text.
func TestAKeptPlanKeepsPLMsRewrite(t *testing.T) {
	double := NewTool(ToolSpec{Name: "double", Speculative: true}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		var a struct{ X int }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return json.Marshal(2 * a.X)
	})
	source := "def square(x: int) -> int:\n    return x * x\n\na = double(x=inputs['n'])\nb = double(x=3)\nresult = [square(a), b]\n"
	cache := t.TempDir()
	e := keptPlanEngine(t, Sandbox, cache, WithTools(double))
	var first *Response
	for i := 0; i < 3; i++ {
		resp, err := e.Execute(context.Background(), Request{Source: source, Inputs: json.RawMessage(`{"n": 4}`), Native: NativeEager, PLM: true})
		if err != nil {
			t.Fatalf("run %d: %v (%+v)", i, err, resp)
		}
		if got := compactJSON(t, resp.Value); got != "[64,6]" || resp.Transformed == "" || len(resp.Native) != 1 || resp.Native[0].Status != "native" {
			t.Fatalf("run %d: %s, %q, %+v", i, got, resp.Transformed, resp.Native)
		}
		if first == nil {
			first = resp
		} else if resp.Transformed != first.Transformed {
			t.Fatalf("run %d reports another rewrite:\n%s\n%s", i, resp.Transformed, first.Transformed)
		}
	}
	_, _, manifest, err := e.resolveRequest(Request{Source: source})
	if err != nil {
		t.Fatal(err)
	}
	var kept protocol.Compiled
	if err := json.Unmarshal(e.plans.Load(e.plans.KeyOf(source, manifest, true, e.limits.Fanout), source), &kept); err != nil ||
		kept.Transformed != first.Transformed || len(kept.Helpers) == 0 {
		t.Fatalf("kept: %v, %+v", err, kept.Helpers)
	}
}
