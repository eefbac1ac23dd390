package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// nativeDefinitions are the functions native mode is offered: one it
// compiles, and one it leaves to Python (it may read input: I/O).
const nativeDefinitions = `
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

def shout(n: int) -> int:
    if n < 0:
        return int(input())
    return n
`

// nativeWork calls them and reports which kind of function collatz_steps is.
const nativeWork = `
best = 0
for k in range(1, 3000):
    best = max(best, collatz_steps(k))
result = [best, shout(1), type(collatz_steps).__name__]
`

const nativeProgram = nativeDefinitions + nativeWork

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

// autoProgram is nativeProgram that first calls collatz_steps until auto
// mode has switched it to native code (the wrapper is a plain function), so
// the test waits for that event, not for a time.
const autoProgram = nativeDefinitions + `
k = 0
while type(collatz_steps).__name__ == "function" and k < 50_000_000:
    collatz_steps(27)
    k += 1` + nativeWork

func runNative(t *testing.T, args ...string) nativeJSON {
	t.Helper()
	return runNativeProgram(t, nativeProgram, args...)
}

func runNativeProgram(t *testing.T, program string, args ...string) nativeJSON {
	t.Helper()
	code, out, errOut := cli(t, program, append([]string{"run", "--json"}, append(args, "-")...)...)
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
			c.Cache != cache || s.Name != "shout" || s.Status != "python" || !strings.Contains(s.Reason, "input") {
			t.Fatalf("%s: %+v", isolation, v)
		}
	}
}

func TestRunNativeAutoSwitches(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// collatz_steps is hot after 1000 calls; the first run calls it until it
	// has switched, so the second run finds its module in the cache and
	// switches at the def.
	first := runNativeProgram(t, autoProgram, "--native", "auto")
	if f := first.Native[0]; string(first.Value) != `[216,1,"NativeFunction"]` || f.Cache != "miss" || f.Status != "native" ||
		f.SwitchedAfter < 1000 {
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

// cliProcess makes the test binary run the CLI itself (TestMain).
const cliProcess = "SPINE_TEST_CLI_PROCESS"

// A program makes a function hot and ends while its compilation runs: the
// CLI prints the response and exits without waiting for the compiler, and
// no process of the compilation is left.
func TestRunNativeExitsWithoutWaitingForCompilations(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	// compiling returns once the compilation runs cc1plus (its process group
	// is the last line the compiler wrapper wrote).
	wait := `while :; do g=$(tail -n 1 ` + cxx.Marks + ` 2>/dev/null); ` +
		`[ -n "$g" ] && pgrep -g "$g" -x cc1plus >/dev/null && break; sleep 0.01; done; echo true`
	manifest := writeFile(t, "tools.json", `[{"name": "compiling", "command": ["sh", "-c", `+strconv.Quote(wait)+`]}]`)
	program := writeFile(t, "slow.py", `
def slow_step(x: int) -> int:
    return x + 1

n = 0
for i in range(1100):
    n = slow_step(n)
result = [compiling(), n]
`)
	cmd := exec.Command(os.Args[0], "run", "--native", "auto", "--manifest", manifest, "--json", program)
	cmd.Env = append(os.Environ(), cliProcess+"=1", "PATH="+cxx.Dir+":"+os.Getenv("PATH"), "XDG_CACHE_HOME="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("%v: %s %s", err, out.String(), errOut.String())
		}
	case <-time.After(30 * time.Second): // the compilation never ends by itself
		cmd.Process.Kill()
		t.Fatal("the CLI waits for the compilation its program started")
	}
	var v nativeJSON
	if json.Unmarshal(out.Bytes(), &v) != nil || string(v.Value) != "[true,1100]" || len(v.Native) != 1 ||
		v.Native[0].Reason != "still compiling when the program ended" {
		t.Fatalf("output %s", out.String())
	}
	groups := cxx.Groups()
	if len(groups) != 1 {
		t.Fatalf("%d compilations", len(groups))
	}
	testenv.WaitGroupGone(t, groups[0])
}
