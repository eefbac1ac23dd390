package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// toolchain is the native toolchain make native installs, or $SPINE_NATIVE.
func toolchain(t testing.TB) string {
	t.Helper()
	if env := os.Getenv("SPINE_NATIVE"); env != "" {
		return env
	}
	path, _ := filepath.Abs("../build/spine-native")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("native toolchain not found at %s: run `make native` (or set SPINE_NATIVE)", path)
	}
	return path
}

// nativeEngine makes an engine with hot functions in the given isolation,
// on the given cache directory.
func nativeEngine(t testing.TB, isolation host.Isolation, cache string, opts ...host.Option) *host.Engine {
	t.Helper()
	native := host.WithNative(host.NativeOptions{Toolchain: toolchain(t), CacheDir: cache, HotCalls: 50})
	if isolation == host.Inproc {
		return newEngine(t, append([]host.Option{native}, opts...)...)
	}
	return newSandboxEngine(t, append([]host.Option{native}, opts...)...)
}

func bothModes(t *testing.T, test func(t *testing.T, isolation host.Isolation)) {
	for _, isolation := range []host.Isolation{host.Inproc, host.Sandbox} {
		t.Run(string(isolation), func(t *testing.T) { test(t, isolation) })
	}
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
