package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// newEngine is an in-process engine with the demo tools, for the tests of
// what only that mode has.
func newEngine(t testing.TB, opts ...host.Option) *host.Engine {
	t.Helper()
	return inprocMode.engine(t, opts...)
}

func run(t *testing.T, e *host.Engine, source, inputs string) (*host.Response, error) {
	t.Helper()
	return e.Execute(context.Background(), host.Request{Source: source, Inputs: json.RawMessage(inputs)})
}

func mustValue(t *testing.T, e *host.Engine, source, inputs, want string) *host.Response {
	t.Helper()
	resp, err := run(t, e, source, inputs)
	if err != nil {
		t.Fatalf("Execute(%q): %v (response error %q)", source, err, errorOf(resp))
	}
	if string(resp.Value) != want {
		t.Fatalf("Execute(%q) value = %s, want %s", source, resp.Value, want)
	}
	return resp
}

func errorOf(r *host.Response) string {
	if r == nil {
		return "<nil response>"
	}
	return r.Error
}

func testToolValueAndTrace(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp := mustValue(t, e, `result = {"x": lookup(key=inputs["item"])}`, `{"item": 3}`, `{"x": 21}`)
	if resp.Status != host.StatusOK || len(resp.Calls) != 1 {
		t.Fatalf("status %s, calls %+v", resp.Status, resp.Calls)
	}
	c := resp.Calls[0]
	if c.Tool != "lookup" || string(c.Args) != `{"key":3}` || c.Error != "" || c.End < c.Start {
		t.Fatalf("trace entry %+v", c)
	}
}

func testToolErrorIsCatchableRuntimeError(t *testing.T, m isolationMode) {
	e := m.engine(t)
	mustValue(t, e, "try:\n    lookup(key='x')\nexcept RuntimeError as e:\n    result = str(e)", `{}`,
		`"lookup: key must be an integer"`)
}

func testUncaughtToolErrorCarriesLine(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp, err := run(t, e, "a = 1\nb = 2\nfail(message='bad thing')\n", `{}`)
	if !errors.Is(err, host.ErrGuest) {
		t.Fatalf("err = %v, want ErrGuest", err)
	}
	var exec *host.ExecError
	if !errors.As(err, &exec) || exec.Line != 3 {
		t.Fatalf("ExecError %+v, want line 3", exec)
	}
	if resp.Error != "RuntimeError: bad thing" || resp.Line != 3 || resp.Status != host.StatusError {
		t.Fatalf("response %q line %d status %s", resp.Error, resp.Line, resp.Status)
	}
	if !strings.Contains(resp.Traceback, "line 3") || !strings.Contains(resp.Traceback, "fail(message='bad thing')") {
		t.Fatalf("traceback %q", resp.Traceback)
	}
}

func testExceptionsWithLineNumbers(t *testing.T, m isolationMode) {
	e := m.engine(t)
	cases := []struct {
		source, want string
		line         int
	}{
		{"x = 1\ny = x / 0", "ZeroDivisionError: division by zero", 2},
		{"def f():\n    return undefined\n\nf()", "NameError: name 'undefined' is not defined", 2},
		{"x = (1,\n", "SyntaxError: '(' was never closed", 1},
		{"a = 1\nb = (\n", "SyntaxError: '(' was never closed", 2},
		{"raise ValueError('v')", "ValueError: v", 1},
		{"import sys\nsys.exit(3)", "SystemExit: 3", 2},
		{"raise KeyboardInterrupt", "KeyboardInterrupt", 1},
	}
	for _, c := range cases {
		resp, err := run(t, e, c.source, `{}`)
		if !errors.Is(err, host.ErrGuest) || resp.Error != c.want || resp.Line != c.line {
			t.Errorf("%q: err %v, error %q line %d; want %q line %d", c.source, err, errorOf(resp), resp.Line, c.want, c.line)
		}
	}
	// SystemExit and KeyboardInterrupt end that execution only.
	mustValue(t, e, "result = 'alive'", `{}`, `"alive"`)
}

func testUnknownToolAndMalformedRequest(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp := mustValue(t, e, `import _spine
result = [_spine.call('{"tool": "nope", "args": {}}').decode(),
          _spine.call('not json').decode(),
          _spine.call('{"tool": "lookup", "args": [1]}').decode()]`, `{}`,
		`["{\"error\":\"unknown tool \\\"nope\\\"\"}", `+
			`"{\"error\":\"malformed tool request: invalid character 'o' in literal null (expecting 'u')\"}", `+
			`"{\"error\":\"malformed tool request for lookup: args must be a JSON object\"}"]`)
	if len(resp.Calls) != 3 || resp.Calls[0].Error != `unknown tool "nope"` {
		t.Fatalf("refused calls not traced: %+v", resp.Calls)
	}
	// The host survived all of them.
	mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
}

func testSchemaMismatch(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp, err := run(t, e, "sleep(ms='soon')", `{}`)
	if !errors.Is(err, host.ErrGuest) || !strings.HasPrefix(resp.Error, "RuntimeError: sleep: arguments do not match the schema") {
		t.Fatalf("err %v, error %q", err, errorOf(resp))
	}
	resp, err = run(t, e, "lookup(key=1, extra=2)", `{}`)
	if err == nil || !strings.Contains(resp.Error, "arguments do not match the schema") {
		t.Fatalf("additional property accepted: %v %q", err, errorOf(resp))
	}
}

func testBadInputs(t *testing.T, m isolationMode) {
	e := m.engine(t)
	_, err := run(t, e, "result = 1", `{"item": `)
	if !errors.Is(err, host.ErrBadRequest) {
		t.Fatalf("err = %v, want ErrBadRequest", err)
	}
	_, err = e.Execute(context.Background(), host.Request{Source: "result = 1", Tools: []string{"missing"}})
	if !errors.Is(err, host.ErrBadRequest) {
		t.Fatalf("unknown tool in Request.Tools: err = %v", err)
	}
	mustValue(t, e, "result = inputs", ``, `{}`)
}

func testUnencodableResult(t *testing.T, m isolationMode) {
	e := m.engine(t)
	cases := map[string]string{
		"result = {1, 2}":                              "TypeError: result is not JSON-serializable: set at result",
		"result = {'a': [object()]}":                   "TypeError: result is not JSON-serializable: object at result['a'][0]",
		"result = float('nan')":                        "ValueError: result is not JSON-serializable: float nan at result",
		"result = {(1, 2): 3}":                         "TypeError: result is not JSON-serializable: dict key of type tuple at result",
		"x = []\nx.append(x)\nresult = x":              "ValueError: result contains a reference cycle: result[0] is result",
		"d = {'a': [1]}\nd['a'].append(d)\nresult = d": "ValueError: result contains a reference cycle: result['a'][1] is result",
	}
	for source, want := range cases {
		resp, err := run(t, e, source, `{}`)
		if err == nil || resp.Error != want {
			t.Errorf("%q: err %v, error %q, want %q", source, err, errorOf(resp), want)
		}
	}
}

func testResultSizeLimit(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{ResultBytes: 1000}))
	resp, err := run(t, e, "result = 'x' * 5000", `{}`)
	if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit {
		t.Fatalf("err %v status %s", err, resp.Status)
	}
	mustValue(t, e, "result = 'x' * 10", `{}`, `"xxxxxxxxxx"`)
}

func testRawNumbersCrossExactly(t *testing.T, m isolationMode) {
	e := m.engine(t)
	inputs := `{"big": 123456789012345678901234567890, "e": 1e16, "f": 1.0, "n": 9223372036854775808}`
	mustValue(t, e, `result = [inputs["big"], inputs["e"], inputs["f"], inputs["n"], 2**63, lookup(key=2**70)]`, inputs,
		`[123456789012345678901234567890, 1e+16, 1.0, 9223372036854775808, 9223372036854775808, 8264141345021879123968]`)
	mustValue(t, e, `result = echo(a=inputs["big"], b=1.0, c=2**64)`, inputs,
		`{"a": 123456789012345678901234567890, "b": 1.0, "c": 18446744073709551616}`)
}

func testTimeoutInterruptsAndNextExecutionWorks(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	start := time.Now()
	resp, err := run(t, e, "while True:\n    pass", `{}`)
	elapsed := time.Since(start)
	if !errors.Is(err, host.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || resp.Status != host.StatusTimeout {
		t.Fatalf("err %v status %v", err, resp)
	}
	// A generous bound: it catches an execution the deadline did not stop,
	// not a slow machine.
	if elapsed > 20*time.Second {
		t.Fatalf("timeout took %v", elapsed)
	}
	mustValue(t, e, "result = 'next'", `{}`, `"next"`)
}

func testTimeoutCannotBeCaught(t *testing.T, m isolationMode) {
	e := m.engine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := e.Execute(ctx, host.Request{Source: "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass"})
	if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
		t.Fatalf("err %v", err)
	}
}

func testTimeoutDuringToolCallCancelsIt(t *testing.T, m isolationMode) {
	e := m.engine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	// The sleep would last ten minutes: only the deadline cancelling it ends
	// the execution within the (generous) bound.
	_, err := e.Execute(ctx, host.Request{Source: "sleep(ms=600000)"})
	if !errors.Is(err, host.ErrTimeout) || time.Since(start) > 20*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

// An execution whose context ends while a tool runs stops there: the
// program never sees the error of the tool it cut short, so it cannot catch
// it and carry on. The tool here cancels its own execution and fails at
// once, before the transport's own cancel hook can run: only the answer
// itself can stop the program in time.
func testContextEndDuringToolCallIsNotTheToolsError(t *testing.T, m isolationMode) {
	var cancel context.CancelFunc
	stopper := host.NewTool(host.ToolSpec{Name: "stop_here"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		cancel()
		return nil, errors.New("stopped")
	})
	e := m.engine(t, host.WithTools(stopper))
	for i := 0; i < 5; i++ {
		ctx, stop := context.WithCancel(context.Background())
		cancel = stop
		resp, err := e.Execute(ctx, host.Request{Source: "try:\n    stop_here()\nexcept RuntimeError as e:\n    result = 'caught: ' + str(e)"})
		stop()
		if !errors.Is(err, context.Canceled) || resp == nil || resp.Status != host.StatusCancelled {
			t.Fatalf("run %d: err %v, value %s", i, err, valueOf(resp))
		}
	}
	mustValue(t, e, "result = 'next'", `{}`, `"next"`)
}

func valueOf(resp *host.Response) string {
	if resp == nil {
		return "<no response>"
	}
	return string(resp.Value)
}

// Cancelling the context of a running program stops it as cancelled. The
// cancel is ordered after the program has started, by a tool it calls first.
func testCancel(t *testing.T, m isolationMode) {
	running := make(chan struct{})
	started := host.NewTool(host.ToolSpec{Name: "started"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		close(running)
		return json.RawMessage("null"), nil
	})
	e := m.engine(t, host.WithTools(started))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-running; cancel() }()
	resp, err := e.Execute(ctx, host.Request{Source: "started()\nwhile True:\n    pass"})
	if !errors.Is(err, context.Canceled) || resp == nil || resp.Status != host.StatusCancelled {
		t.Fatalf("err %v, response %+v", err, resp)
	}
	mustValue(t, e, "result = 'next'", `{}`, `"next"`)
}

func testStdoutCaptureAndCap(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{StdoutBytes: 10}))
	resp := mustValue(t, e, "print('hello')\nprint('ünïcode world')\nresult = 1", `{}`, `1`)
	if resp.Stdout != "hello\nün" || !resp.StdoutTruncated {
		t.Fatalf("stdout %q truncated %v", resp.Stdout, resp.StdoutTruncated)
	}
	resp = mustValue(t, e, "import sys\nsys.stderr.write('warn')\nprint('ok')", `{}`, `null`)
	if resp.Stdout != "ok\n" || resp.Stderr != "warn" || resp.StdoutTruncated {
		t.Fatalf("stdout %q stderr %q", resp.Stdout, resp.Stderr)
	}
}

func testStdoutIsPerExecution(t *testing.T, m isolationMode) {
	e := m.engine(t)
	mustValue(t, e, "print('first')", `{}`, `null`)
	resp := mustValue(t, e, "result = 2", `{}`, `2`)
	if resp.Stdout != "" {
		t.Fatalf("stdout leaked: %q", resp.Stdout)
	}
}

func testToolPanicIsAnError(t *testing.T, m isolationMode) {
	boom := host.NewTool(host.ToolSpec{Name: "boom"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		panic("kaboom")
	})
	bad := host.NewTool(host.ToolSpec{Name: "bad"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage("{not json"), nil
	})
	e := m.engine(t, host.WithTools(boom, bad))
	mustValue(t, e, "r = []\nfor f in (boom, bad):\n    try:\n        f()\n    except RuntimeError as e:\n        r.append(str(e))\nresult = r",
		`{}`, `["boom: tool panicked: kaboom", "bad: tool returned invalid JSON"]`)
}

func testToolCallLimitStopsTheProgram(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{ToolCalls: 5}))
	resp, err := run(t, e, "n = 0\nwhile True:\n    try:\n        lookup(key=1)\n        n += 1\n    except BaseException:\n        pass", `{}`)
	if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit {
		t.Fatalf("err %v", err)
	}
	mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
}

func testRecursionLimit(t *testing.T, m isolationMode) {
	e := m.engine(t, host.WithLimits(host.Limits{Recursion: 50}))
	resp, err := run(t, e, "def f(n):\n    return f(n + 1)\nf(0)", `{}`)
	if err == nil || !strings.HasPrefix(resp.Error, "RecursionError") {
		t.Fatalf("err %v %q", err, errorOf(resp))
	}
	mustValue(t, e, "def f(n):\n    return 0 if n == 0 else f(n - 1)\nresult = f(40)", `{}`, `0`)
}

func testBuiltinsArePerExecution(t *testing.T, m isolationMode) {
	e := m.engine(t)
	mustValue(t, e, "__builtins__['len'] = lambda x: 42\nresult = len([])", `{}`, `42`)
	mustValue(t, e, "result = len([])", `{}`, `0`)
}

func testTypedFuncTool(t *testing.T, m isolationMode) {
	type addArgs struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	add := host.Func("add", func(_ context.Context, in addArgs) (int, error) { return in.A + in.B, nil },
		host.Describe("Add two integers."), host.Speculative())
	e := m.engine(t, host.WithTools(add))
	mustValue(t, e, "result = [add(a=2, b=3), add.__doc__]", `{}`, `[5, "Add two integers."]`)
	resp, err := run(t, e, "add(a='x', b=1)", `{}`)
	if err == nil || !strings.Contains(resp.Error, "arguments do not match the schema") {
		t.Fatalf("typed schema not enforced: %v %q", err, errorOf(resp))
	}
	resp, err = run(t, e, "add(a=1)", `{}`)
	if err == nil || !strings.Contains(resp.Error, "missing property") {
		t.Fatalf("required not enforced: %v %q", err, errorOf(resp))
	}
}

func testEmitAndPositionalArguments(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp := mustValue(t, e, "emit(value=1)\nemit(value={'a': [2]})\nresult = emit(value='x')", `{}`, `3`)
	got, _ := json.Marshal(resp.Emitted)
	if string(got) != `[1,{"a":[2]},"x"]` {
		t.Fatalf("emitted %s", got)
	}
	resp, _ = run(t, e, "lookup(3)", `{}`)
	if !strings.HasPrefix(resp.Error, "TypeError: lookup() takes 0 positional arguments") {
		t.Fatalf("positional call: %q", resp.Error)
	}
}

func testConcurrentExecutions(t *testing.T, m isolationMode) {
	e := m.engine(t)
	var wg sync.WaitGroup
	errs := make(chan error, 32*50)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				inputs := fmt.Sprintf(`{"g": %d, "i": %d}`, g, i)
				resp, err := e.Execute(context.Background(), host.Request{
					Source: "print(inputs['g'])\nresult = [inputs['g'], inputs['i'], lookup(key=inputs['g'] * 1000 + inputs['i'])]",
					Inputs: json.RawMessage(inputs)})
				want := fmt.Sprintf(`[%d, %d, %d]`, g, i, 7*(g*1000+i))
				if err != nil || string(resp.Value) != want || resp.Stdout != fmt.Sprintf("%d\n", g) || len(resp.Calls) != 1 {
					errs <- fmt.Errorf("g%d i%d: %v %s %q", g, i, err, resp.Value, resp.Stdout)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testClosedEngine(t *testing.T, m isolationMode) {
	e, err := host.New(m.options(t)...)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	if _, err := e.Execute(context.Background(), host.Request{Source: "result = 1"}); !errors.Is(err, host.ErrClosed) {
		t.Fatalf("err %v", err)
	}
}

func TestInvalidToolSpecs(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, nil }
	for _, spec := range []host.ToolSpec{{Name: "not-an-identifier"}, {Name: "class"}, {Name: "x", Schema: json.RawMessage(`{"type": 5}`)}} {
		if _, err := host.New(host.WithIsolation(host.Inproc), host.WithTools(host.NewTool(spec, noop))); err == nil {
			t.Errorf("spec %+v accepted", spec)
		}
	}
	if _, err := host.New(host.WithIsolation(host.Inproc), host.WithTools(demotools.Echo(), demotools.Echo())); err == nil {
		t.Error("duplicate tool accepted")
	}
}
