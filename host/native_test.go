package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// nativeEngine makes an engine with hot functions in the given isolation,
// on the given cache directory.
func nativeEngine(t testing.TB, isolation host.Isolation, cache string, opts ...host.Option) *host.Engine {
	t.Helper()
	native := host.WithNative(host.NativeOptions{Toolchain: testenv.NativeToolchain(t), CacheDir: cache, HotCalls: 50})
	if isolation == host.Inproc {
		return newEngine(t, append([]host.Option{native}, opts...)...)
	}
	return newSandboxEngine(t, append([]host.Option{native}, opts...)...)
}

func bothModes(t *testing.T, test func(t *testing.T, isolation host.Isolation)) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) { test(t, m.level) })
}

func execNative(t *testing.T, e *host.Engine, mode host.NativeMode, source, inputs string) *host.Response {
	t.Helper()
	resp, err := e.Execute(context.Background(), host.Request{Source: source, Inputs: json.RawMessage(inputs), Native: mode})
	if err != nil {
		t.Fatalf("Execute: %v (%s)", err, errorOf(resp))
	}
	return resp
}

func nativeEntry(t *testing.T, resp *host.Response, name string) host.NativeFunction {
	t.Helper()
	for _, f := range resp.Native {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no trace entry for %s in %+v", name, resp.Native)
	return host.NativeFunction{}
}

// expectRun checks a run's value, that each of @p native ran compiled code, and that each
// function of @p python stayed Python for a reason containing its text.
func expectRun(t *testing.T, resp *host.Response, want string, native []string, python map[string]string) {
	t.Helper()
	if string(resp.Value) != want {
		t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
	}
	for _, name := range native {
		if f := nativeEntry(t, resp, name); f.Status != "native" {
			t.Errorf("%s: %+v", name, f)
		}
	}
	for name, why := range python {
		if f := nativeEntry(t, resp, name); f.Status != "python" || !strings.Contains(f.Reason, why) {
			t.Errorf("%s: %+v, want python because of %q", name, f, why)
		}
	}
}

const fibProgram = `
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

result = [fib(inputs["n"]), type(fib).__name__]
`

func TestNativeEagerRunsNatively(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, fibProgram, `{"n": 20}`)
		if string(resp.Value) != `[6765, "NativeFunction"]` {
			t.Fatalf("value %s", resp.Value)
		}
		f := nativeEntry(t, resp, "fib")
		if f.Status != "native" || f.Cache != "miss" || f.CompileTime <= 0 || f.SwitchedAfter != 0 {
			t.Fatalf("trace %+v", f)
		}
	})
}

// stepProgram loops until its function has been switched to native code
// (type(step) changes from the counting wrapper to the native function), so
// the test waits for an event, not for a time.
const stepProgram = `
def step(x: int, i: int) -> int:
    return (x * 31 + i) % 1000003

acc = 0
i = 0
while type(step).__name__ == "function" and i < 50_000_000:
    acc = step(acc, i)
    i += 1
check = 0
for j in range(i):
    check = (check * 31 + j) % 1000003
result = [type(step).__name__, acc == check, step(2**70, 1) == (2**70 * 31 + 1) % 1000003]
`

func TestNativeAutoSwitchesHotFunction(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeAuto, stepProgram, `{}`)
		if string(resp.Value) != `["NativeFunction", true, true]` {
			t.Fatalf("value %s", resp.Value)
		}
		f := nativeEntry(t, resp, "step")
		if f.Status != "native" || f.Cache != "miss" || f.SwitchedAfter < 50 || f.Fallbacks != 1 {
			t.Fatalf("trace %+v", f)
		}
		// The next execution finds the module in the cache and switches at its def.
		resp = execNative(t, e, host.NativeAuto, stepProgram, `{}`)
		f = nativeEntry(t, resp, "step")
		if string(resp.Value) != `["NativeFunction", true, true]` || f.Status != "native" || f.Cache != "hit" ||
			f.SwitchedAfter != 0 || f.CompileTime != 0 {
			t.Fatalf("second execution: value %s, trace %+v", resp.Value, f)
		}
	})
}

func TestNativeAutoLeavesColdFunctionsInPython(t *testing.T) {
	e := nativeEngine(t, host.Inproc, t.TempDir())
	resp := execNative(t, e, host.NativeAuto, "def f(x: int) -> int:\n    return x + 1\n\nresult = f(f(1))\n", `{}`)
	f := nativeEntry(t, resp, "f")
	if string(resp.Value) != "3" || f.Status != "python" || f.Reason != "not hot: called 2 times (threshold 50)" || f.Cache != "" {
		t.Fatalf("value %s trace %+v", resp.Value, f)
	}
}

const ineligibleProgram = `
def uses_tool(x: int) -> int:
    return lookup(key=x)

def reads(x: int) -> int:
    if x < 0:
        input()
    return x

def unsupported(x: int) -> int:
    return x.bit_length() + 7

def untyped(x):
    return x

def calls_reads(x: int) -> int:
    return reads(x) + 1

def uses_global(x: int) -> int:
    return x + LIMIT

def good(x: int) -> int:
    return x + 1

LIMIT = 10
result = [uses_tool(1), reads(2), unsupported(3), untyped(4), calls_reads(5), uses_global(6), good(7)]
`

func TestNativeIneligibleFunctionsStayPythonWithReason(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, ineligibleProgram, `{}`)
		if string(resp.Value) != `[7, 2, 9, 4, 6, 16, 8]` {
			t.Fatalf("value %s stdout %q", resp.Value, resp.Stdout)
		}
		want := map[string]string{
			"uses_tool":   "line 3: calls the tool lookup",
			"reads":       "line 7: does I/O or reflection (input)",
			"unsupported": "not compiled: line 11, column 11: Method: method 'bit_length' of int",
			"untyped":     "parameter x has no type annotation",
			"calls_reads": "calls reads, which stays Python (line 7: does I/O or reflection (input))",
			"uses_global": "line 20: uses the global LIMIT",
		}
		for name, reason := range want {
			if f := nativeEntry(t, resp, name); f.Status != "python" || f.Reason != reason {
				t.Errorf("%s: %+v, want reason %q", name, f, reason)
			}
		}
		if f := nativeEntry(t, resp, "good"); f.Status != "native" {
			t.Errorf("good: %+v", f)
		}
		if len(resp.Native) != 7 {
			t.Errorf("trace has %d entries", len(resp.Native))
		}
	})
}

// brokenToolchain is a copy of the toolchain whose codegen header makes every
// g++ run fail, so a function the frontend accepts fails to compile.
func brokenToolchain(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "spine-native")
	if err := os.CopyFS(dir, os.DirFS(testenv.NativeToolchain(t))); err != nil {
		t.Fatal(err)
	}
	header := filepath.Join(dir, "include/spine/compiler/codegen_support.h")
	f, err := os.OpenFile(header, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "#error this toolchain is broken on purpose")
	f.Close()
	return dir
}

func TestNativeCompileFailureStaysPython(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		cache := t.TempDir()
		broken := host.WithNative(host.NativeOptions{Toolchain: brokenToolchain(t), CacheDir: cache})
		var e *host.Engine
		if isolation == host.Inproc {
			e = newEngine(t, broken)
		} else {
			e = newSandboxEngine(t, broken)
		}
		for i, cache := range []string{"miss", "hit"} { // the failure is remembered
			resp := execNative(t, e, host.NativeEager, fibProgram, `{"n": 15}`)
			f := nativeEntry(t, resp, "fib")
			if string(resp.Value) != `[610, "function"]` || f.Status != "python" || f.Cache != cache ||
				!strings.HasPrefix(f.Reason, "compiler: C++ compilation failed") ||
				!strings.Contains(f.Reason, "broken on purpose") {
				t.Fatalf("execution %d: value %s trace %+v", i, resp.Value, f)
			}
		}
	})
}

func TestNativeCacheHitOnAnotherEngine(t *testing.T) {
	cache := t.TempDir()
	first := nativeEngine(t, host.Inproc, cache)
	if f := nativeEntry(t, execNative(t, first, host.NativeEager, fibProgram, `{"n": 10}`), "fib"); f.Cache != "miss" {
		t.Fatalf("first engine: %+v", f)
	}
	second := nativeEngine(t, host.Sandbox, cache)
	resp := execNative(t, second, host.NativeEager, fibProgram, `{"n": 25}`)
	f := nativeEntry(t, resp, "fib")
	if string(resp.Value) != `[75025, "NativeFunction"]` || f.Status != "native" || f.Cache != "hit" || f.CompileTime != 0 {
		t.Fatalf("second engine: value %s trace %+v", resp.Value, f)
	}
}

// Engines that share a cache compile the same function at the same time: each
// writes under a private name and renames, so every one of them loads a whole
// module and nothing half-written is left behind.
func TestNativeConcurrentCompilesOfOneKey(t *testing.T) {
	cache := t.TempDir()
	const n = 3
	engines := make([]*host.Engine, n)
	for i := range engines {
		engines[i] = nativeEngine(t, host.Inproc, cache)
	}
	var wg sync.WaitGroup
	responses := make([]*host.Response, n)
	errs := make([]error, n)
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			responses[i], errs[i] = e.Execute(context.Background(),
				host.Request{Source: fibProgram, Inputs: json.RawMessage(`{"n": 21}`), Native: host.NativeEager})
		}()
	}
	wg.Wait()
	for i := range engines {
		if errs[i] != nil || string(responses[i].Value) != `[10946, "NativeFunction"]` {
			t.Fatalf("engine %d: %v %s", i, errs[i], responses[i].Value)
		}
	}
	for _, e := range engines {
		e.Close() // each compile service's files in the making go with it
	}
	var modules, sources int
	for _, dir := range []string{"modules", "private"} {
		entries, _ := os.ReadDir(filepath.Join(cache, dir))
		for _, entry := range entries {
			if dir == "private" && entry.Name() == "identity" {
				continue // the remembered toolchain identity (internal/native), not a compilation's
			}
			switch filepath.Ext(entry.Name()) {
			case ".so":
				modules++
			case ".cc":
				sources++
			default:
				t.Errorf("left behind: %s/%s", dir, entry.Name())
			}
		}
	}
	if modules != 1 || sources != 1 {
		t.Fatalf("%d modules and %d sources for one key", modules, sources)
	}
}

func TestNativeNeedsAnEnabledEngineAndAKnownMode(t *testing.T) {
	e := newEngine(t)
	_, err := e.Execute(context.Background(), host.Request{Source: "result = 1", Native: host.NativeEager})
	if !errors.Is(err, host.ErrBadRequest) || !strings.Contains(err.Error(), "WithNative") {
		t.Fatalf("err = %v", err)
	}
	n := nativeEngine(t, host.Inproc, t.TempDir())
	_, err = n.Execute(context.Background(), host.Request{Source: "result = 1", Native: "sometimes"})
	if !errors.Is(err, host.ErrBadRequest) || !strings.Contains(err.Error(), "unknown native mode") {
		t.Fatalf("err = %v", err)
	}
	resp := execNative(t, n, host.NativeOff, fibProgram, `{"n": 5}`)
	if string(resp.Value) != `[5, "function"]` || resp.Native != nil {
		t.Fatalf("off: %s %+v", resp.Value, resp.Native)
	}
	t.Setenv("SPINE_NATIVE", "")
	if _, err := host.New(host.WithIsolation(host.Inproc), host.WithNative(host.NativeOptions{Toolchain: t.TempDir()})); err == nil ||
		!strings.Contains(err.Error(), "incomplete") {
		t.Fatalf("an engine started on an empty toolchain: %v", err)
	}
}

// hostileProgram talks to the native crossing itself, as a hostile program
// could: every request must be refused or answered cleanly.
const hostileProgram = `
import json, _spine
def ask(request):
    raw = request if isinstance(request, (bytes, str)) else json.dumps(request)
    return json.loads(_spine.native(raw))
marker = inputs["marker"]
inject = 'def f(x: int) -> int:\n    s = "\\"); __builtin_trap(); system(\\"touch ' + marker + '\\"); //"\n    return x\n'
answers = [
    ask(b"{" * 100),
    ask("not json"),
    ask({"op": "start", "units": [{"name": "f", "source": "x" * (9 << 20)}]}),
    ask({"op": "start", "units": [{"name": 'f"; system("x', "source": "def f(x: int) -> int:\n    return x\n"}]}),
    ask({"op": "format-disk"}),
    ask({"op": "compile", "name": "never_started"}),
    ask({"op": "start", "units": [{"name": "f", "source": inject}]}),
    ask({"op": "start", "units": []}),
]
result = [sorted(a) for a in answers] + [answers[6]["units"][0]["status"]]
`

func TestNativeHostileRequestsAreRefused(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		marker := filepath.Join(t.TempDir(), "pwned")
		inputs, _ := json.Marshal(map[string]string{"marker": marker})
		resp := execNative(t, e, host.NativeEager, hostileProgram, string(inputs))
		// The injection attempt compiles: its string is data in the generated
		// C++ (escaped), never code; the marker below proves nothing ran. A
		// sandboxed child receives the module as a descriptor ("fds").
		ready := `["units"]`
		if isolation == host.Sandbox {
			ready = `["fds", "units"]`
		}
		want := `[["error"], ["error"], ["error"], ["error"], ["error"], ["error"], ` + ready + `, ["error"], "ready"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s", resp.Value)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the injected command ran")
		}
		// The engine goes on serving.
		resp = execNative(t, e, host.NativeEager, fibProgram, `{"n": 12}`)
		if string(resp.Value) != `[144, "NativeFunction"]` {
			t.Fatalf("after the hostile program: %s", resp.Value)
		}
	})
}

// A sandboxed child sees nothing of the module cache, neither the modules
// (it is outside the child's root, and the child receives the modules it
// loads as descriptors) nor the private part (generated C++ and remembered
// failures, which quote other executions' programs), nor the toolchain; and
// writing is not a system call it may make.
func TestNativeSandboxSeesNothingOfTheCache(t *testing.T) {
	cache := t.TempDir()
	e := nativeEngine(t, host.Sandbox, cache)
	execNative(t, e, host.NativeEager, fibProgram, `{"n": 3}`) // puts a module in the cache
	modules, _ := filepath.Glob(filepath.Join(cache, "modules", "*.so"))
	sources, _ := filepath.Glob(filepath.Join(cache, "private", "*.cc"))
	if len(modules) != 1 || len(sources) != 1 {
		t.Fatalf("the cache holds modules %v and sources %v", modules, sources)
	}
	inputs, _ := json.Marshal(map[string]string{"cache": cache, "modules": filepath.Join(cache, "modules"),
		"module": modules[0], "private": filepath.Join(cache, "private"), "source": sources[0],
		"toolchain": testenv.NativeToolchain(t)})
	program := `
import os
def attempt(fn):
    try:
        fn()
        return "allowed"
    except OSError as e:
        return type(e).__name__
result = [
    attempt(lambda: os.listdir(inputs["cache"])),
    attempt(lambda: os.listdir(inputs["modules"])),
    attempt(lambda: os.stat(inputs["module"])),
    attempt(lambda: open(inputs["module"], "rb").read(4)),
    attempt(lambda: os.listdir(inputs["private"])),
    attempt(lambda: open(inputs["source"]).read()),
    attempt(lambda: open(os.path.join(inputs["toolchain"], "python/native/compiler.py")).read()),
]
`
	resp := execNative(t, e, host.NativeOff, program, string(inputs))
	want := `["FileNotFoundError", "FileNotFoundError", "FileNotFoundError", "FileNotFoundError", "FileNotFoundError", "FileNotFoundError", "FileNotFoundError"]`
	if string(resp.Value) != want {
		t.Fatalf("value %s, want %s", resp.Value, want)
	}
	// Opening for writing reaches the kernel (scratch files are writable),
	// and the cache's path does not exist in the child's root.
	resp, err := e.Execute(context.Background(), host.Request{Inputs: inputs,
		Source: "open(inputs['modules'] + '/evil.so', 'wb')"})
	if !errors.Is(err, host.ErrGuest) || resp.Status != host.StatusError ||
		!strings.HasPrefix(resp.Error, "FileNotFoundError: ") {
		t.Fatalf("write into the cache: %v %+v", err, resp)
	}
}

func TestNativeInAStream(t *testing.T) {
	e := nativeEngine(t, host.Sandbox, t.TempDir())
	s, err := e.Stream(context.Background(), host.Request{Inputs: json.RawMessage(`{"n": 16}`), Native: host.NativeEager})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.SplitAfter(fibProgram, "\n") {
		if err := s.Feed([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := s.Finish()
	if err != nil || string(resp.Value) != `[987, "NativeFunction"]` || nativeEntry(t, resp, "fib").Status != "native" {
		t.Fatalf("%v %s %+v", err, resp.Value, resp.Native)
	}
}

// An error inside native code is raised again by the Python version, so the
// program sees CPython's exception, line and traceback.
func TestNativeErrorsKeepCPythonsLineAndTraceback(t *testing.T) {
	e := nativeEngine(t, host.Inproc, t.TempDir())
	program := "def ratio(a: int, b: int) -> int:\n    q = a // b\n    return q\n\nresult = ratio(6, 3) + ratio(1, 0)\n"
	var responses []*host.Response
	for _, mode := range []host.NativeMode{host.NativeOff, host.NativeEager} {
		resp, err := e.Execute(context.Background(), host.Request{Source: program, Native: mode})
		if !errors.Is(err, host.ErrGuest) {
			t.Fatalf("%s: %v", mode, err)
		}
		responses = append(responses, resp)
	}
	off, eager := responses[0], responses[1]
	if eager.Error != "ZeroDivisionError: integer division or modulo by zero" || eager.Line != 2 ||
		eager.Error != off.Error || eager.Line != off.Line || eager.Traceback != off.Traceback {
		t.Fatalf("native %q line %d %q, CPython %q line %d %q", eager.Error, eager.Line, eager.Traceback,
			off.Error, off.Line, off.Traceback)
	}
	if f := nativeEntry(t, eager, "ratio"); f.Status != "native" || f.Fallbacks != 1 {
		t.Fatalf("trace %+v", f)
	}
}
