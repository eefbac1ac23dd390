package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const nativeProgram = `
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

def shout(n: int) -> int:
    print(n)
    return n

best = 0
for k in range(1, 3000):
    best = max(best, collatz_steps(k))
result = [best, shout(1), type(collatz_steps).__name__]
`

type nativeJSON struct {
	Status string `json:"status"`
	Value  json.RawMessage
	Native []struct {
		Name          string `json:"name"`
		Status        string `json:"status"`
		Reason        string `json:"reason"`
		Cache         string `json:"cache"`
		SwitchedAfter int    `json:"switched_after"`
	} `json:"native"`
}

func runNative(t *testing.T, args ...string) nativeJSON {
	t.Helper()
	code, out, errOut := cli(t, nativeProgram, append([]string{"run", "--json"}, append(args, "-")...)...)
	var v nativeJSON
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Native) != 2 {
		t.Fatalf("code %d out %s err %s", code, out, errOut)
	}
	return v
}

func TestRunNativeEagerInBothIsolations(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for i, isolation := range []string{"sandbox", "inproc"} {
		v := runNative(t, "--native", "eager", "--isolation", isolation)
		c, s := v.Native[0], v.Native[1]
		cache := []string{"miss", "hit"}[i] // the second run finds the first one's module
		if string(v.Value) != `[216,1,"NativeFunction"]` || c.Name != "collatz_steps" || c.Status != "native" ||
			c.Cache != cache || s.Name != "shout" || s.Status != "python" || !strings.Contains(s.Reason, "print") {
			t.Fatalf("%s: %+v", isolation, v)
		}
	}
}

func TestRunNativeAutoSwitches(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// collatz_steps is called 2999 times: hot after 1000 calls. Whether its
	// module is ready before the loop ends is up to the compiler; either way
	// the engine's Close lets the compilation finish, so the second run finds
	// it in the cache and switches at the def.
	first := runNative(t, "--native", "auto").Native[0]
	if first.Cache != "miss" || (first.Status != "native" && !strings.Contains(first.Reason, "still compiling")) {
		t.Fatalf("first run: %+v", first)
	}
	v := runNative(t, "--native", "auto")
	if c := v.Native[0]; string(v.Value) != `[216,1,"NativeFunction"]` || c.Status != "native" || c.Cache != "hit" ||
		c.SwitchedAfter != 0 {
		t.Fatalf("second run: %+v", v)
	}
}

func TestRunNativeUsageErrors(t *testing.T) {
	code, _, errOut := cli(t, "result = 1", "run", "--native", "always", "-")
	if code != 2 || !strings.Contains(errOut, "--native must be off, eager or auto") {
		t.Fatalf("%d %s", code, errOut)
	}
	t.Setenv("SPINE_NATIVE", "/nonexistent/spine-native")
	code, _, errOut = cli(t, "result = 1", "run", "--native", "eager", "-")
	if code != 2 || !strings.Contains(errOut, "native functions unavailable") {
		t.Fatalf("%d %s", code, errOut)
	}
}
