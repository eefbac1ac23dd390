// Command nativebench measures native hot functions through the engine:
// each workload runs as the same program with native code off and eager, in
// the same run, and the program times its own compute (so the ratio is the
// function's, not the engine's). It also measures a cold compile and the
// cost of loading a cached module. It prints a markdown section for
// bench/RESULTS.md.
//
// Workloads live in the table below: integer loops, recursion, and
// container workloads (containers built natively, a list crossing in and a
// dict coming out, and strings crossing in, where the copy at the boundary
// dominates). A workload the frontend refuses is reported with its reason.
// Adding a workload is adding a row.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

type workload struct {
	name    string
	program string // sets result = [answer, seconds]; the function under test is `kernel`
	inputs  string
	target  float64 // speed-up wanted (0: none)
}

// collatz is the Python that counts the steps of m down to 1 into steps,
// indented by indent: the data-dependent loop of three workloads.
func collatz(indent string) string {
	lines := []string{"steps = 0", "while m != 1:", "    if m % 2 == 0:", "        m = m // 2", "    else:",
		"        m = 3 * m + 1", "    steps += 1"}
	return indent + strings.Join(lines, "\n"+indent) + "\n"
}

var workloads = []workload{
	{name: "integer loop, data-dependent branch (3M iterations)", target: 50, inputs: `{"n": 3000000, "seed": 12345}`,
		program: `
def kernel(n: int, seed: int) -> int:
    s = 0
    for i in range(n):
        if (i + seed) % 3 == 0:
            s += i // 3
        else:
            s -= seed % 7
    return s
`},
	{name: "integer loop, unpredictable branches (longest Collatz chain below 30,000)", inputs: `{"n": 30000}`,
		program: `
def kernel(n: int) -> int:
    best = 0
    for k in range(1, n):
        m = k
` + collatz("        ") + `        if steps > best:
            best = steps
    return best
`},
	{name: "fib(27), recursive", target: 50, inputs: `{"n": 27}`, program: `
def kernel(n: int) -> int:
    if n < 2:
        return n
    return kernel(n - 1) + kernel(n - 2)
`},
	// The container workloads. The first builds and probes a list and a
	// dict of ints natively: the work is the containers themselves.
	{name: "list and dict of ints: build a list, count it into a dict, probe every element (200,000 values)", target: 5,
		inputs: `{"n": 200000}`, program: `
def kernel(n: int) -> int:
    xs: list[int] = []
    for i in range(n):
        xs.append(i * 7919 % 1000)
    counts: dict[int, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    total = 0
    for x in xs:
        total += counts[x]
    return total
`},
	// A list argument crosses into native code (copied once) and a dict
	// comes back (built as a Python dict): a histogram of Collatz lengths.
	{name: "list[int] in, dict[int, int] out: histogram of Collatz lengths (20,000 values)", target: 5,
		inputs: `{"values": 20000, "buckets": 64}`, program: `
def kernel(values: list[int], buckets: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for v in values:
        m = v
` + collatz("        ") + `        b = steps % buckets
        counts[b] = counts.get(b, 0) + 1
    return counts
`},
	// Strings cross the boundary: 200,000 words and queries are copied into
	// native strings and every one is hashed, where CPython reuses cached
	// hashes and matches the same word objects by identity. Reported, no
	// target: it shows where native code does not pay.
	{name: "list[str] in: word counts and lookups over 200,000 words (boundary-bound)",
		inputs: `{"words": 200000}`, program: `
def kernel(words: list[str], queries: list[str]) -> int:
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    hits: list[int] = []
    for q in queries:
        hits.append(counts.get(q, 0))
    return sum(hits) + len(counts)
`},
}

// driver calls the kernel with the workload's inputs `reps` times and keeps
// the fastest call (a sub-millisecond native call needs many to be stable).
const driver = `
import time
args = dict(inputs)
reps = args.pop("reps")
if "values" in args:
    args["values"] = [1 + (i * 7919) % 100003 for i in range(args["values"])]
if "words" in args:
    n = args.pop("words")
    args["words"] = ["w%d" % (i * 7919 % 2000) for i in range(n)]
    args["queries"] = ["w%d" % (i * 104729 % 4000) for i in range(n)]
call = lambda: kernel(*args.values())
seconds = None
for _ in range(reps):
    start = time.perf_counter()
    answer = call()
    elapsed = time.perf_counter() - start
    seconds = elapsed if seconds is None else min(seconds, elapsed)
result = [answer if not isinstance(answer, dict) else sorted(answer.items()), seconds]
`

func main() {
	rounds := flag.Int("rounds", 5, "rounds of each workload, CPython and native interleaved (the fastest call counts)")
	nativeReps := flag.Int("native-reps", 10, "calls of the native function per round")
	only := flag.String("only", "", "one section: compile (cold compile over the corpus), startup "+
		"(native mode's cost per CLI process, modules cached) or zygote (its hot.setup alone); default every section")
	every := flag.Int("every", 1, "compile: every Nth unit of the corpus")
	startupRounds := flag.Int("startup-rounds", 100, "startup: rounds of one process per mode")
	startupBefore := flag.String("startup-before", "", "startup: other builds' bin/spine (comma-separated), measured in the same rounds")
	startupAA := flag.Bool("startup-aa", false, "startup: measure this build twice in the same rounds (A/A), "+
		"the calibration of what the paired differences can resolve")
	startupClasses := flag.Bool("startup-classes", false, "startup: also give each mode's CPU by class of process "+
		"(the CLI, the zygote, the sandboxed child), from a system-wide perf recording of the scheduler's events (root)")
	zygoteRounds := flag.Int("zygote-rounds", 200, "startup: pairs of python3 processes with and without hot.setup")
	zygoteBefore := flag.String("zygote-before", "", "startup, zygote: other toolchains' directories (comma-separated), "+
		"their hot.setup measured in the same rounds")
	flag.Parse()
	switch *only {
	case "compile":
		compileSection(*every)
		return
	case "startup":
		startupSection(*startupRounds, *startupBefore, *startupAA, *startupClasses)
		zygoteSetupSection(*zygoteRounds, *zygoteBefore)
		return
	case "zygote":
		zygoteSetupSection(*zygoteRounds, *zygoteBefore)
		return
	case "":
	default:
		fail(fmt.Errorf("-only %q: want compile, startup or zygote", *only))
	}
	cache, err := os.MkdirTemp("", "spine-nativebench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(cache)
	engine, err := host.New(host.WithIsolation(host.Inproc), host.WithNative(host.NativeOptions{CacheDir: cache}),
		host.WithLimits(host.Limits{Timeout: 5 * time.Minute}))
	if err != nil {
		fail(err)
	}
	defer engine.Close()

	fmt.Println("## Native hot functions: native code against CPython, same run")
	fmt.Println()
	fmt.Printf("In process, `Native: eager` against `Native: off` on the same program; the program times its own "+
		"function call. %d rounds, each one execution with native code off (one call) and one with it eager (%d calls), "+
		"interleaved so both see the same machine (2 shared cores); the fastest call of each counts; results compared "+
		"equal. Command: `go run ./bench/nativebench` (part of `make bench`).\n\n", *rounds, *nativeReps)
	fmt.Println("| workload | CPython | native | speed-up | target |")
	fmt.Println("| --- | ---: | ---: | ---: | --- |")
	var compiles []time.Duration
	for _, w := range workloads {
		source := w.program + driver
		var python, native time.Duration
		var pyAnswer, nativeAnswer string
		var entry host.NativeFunction
		for r := 0; r < *rounds; r++ {
			p, a, _ := execute(engine, source, withReps(w.inputs, 1), host.NativeOff)
			n, b, resp := execute(engine, source, withReps(w.inputs, *nativeReps), host.NativeEager)
			if r == 0 {
				entry = kernelEntry(resp) // the first eager run compiled (cold)
			}
			if r == 0 || p < python {
				python, pyAnswer = p, a
			}
			if r == 0 || n < native {
				native, nativeAnswer = n, b
			}
			if entry.Status != "native" && r > 0 {
				break
			}
		}
		if entry.Status != "native" {
			fmt.Printf("| %s | %s | stays Python: %s | | %s |\n", w.name, ms(python), oneLine(entry.Reason), target(w.target, 0))
			continue
		}
		compiles = append(compiles, entry.CompileTime)
		if pyAnswer != nativeAnswer {
			fail(fmt.Errorf("%s: native answered %s, CPython %s", w.name, nativeAnswer, pyAnswer))
		}
		ratio := float64(python) / float64(native)
		fmt.Printf("| %s | %s | %s | **%.0fx** | %s |\n", w.name, ms(python), ms(native), ratio, target(w.target, ratio))
	}
	fmt.Println()
	coldAndCached(engine, cache, compiles)
	kernelSection(engine)
	compileSection(*every)
	startupSection(*startupRounds, *startupBefore, *startupAA, *startupClasses)
	zygoteSetupSection(*zygoteRounds, *zygoteBefore)
}

// withReps adds the number of calls to a workload's inputs, keeping the
// order of the others (the driver passes them positionally).
func withReps(inputs string, reps int) string {
	return strings.TrimSuffix(strings.TrimSpace(inputs), "}") + fmt.Sprintf(`, "reps": %d}`, reps)
}

func execute(e *host.Engine, source, inputs string, mode host.NativeMode) (time.Duration, string, *host.Response) {
	resp, err := e.Execute(context.Background(), host.Request{Source: source, Inputs: json.RawMessage(inputs), Native: mode})
	if err != nil {
		fail(fmt.Errorf("%v (%s)", err, resp.Error))
	}
	var pair []json.RawMessage
	var seconds float64
	if json.Unmarshal(resp.Value, &pair) != nil || len(pair) != 2 || json.Unmarshal(pair[1], &seconds) != nil {
		fail(fmt.Errorf("unexpected result %s", resp.Value))
	}
	return time.Duration(seconds * float64(time.Second)), string(pair[0]), resp
}

func kernelEntry(resp *host.Response) host.NativeFunction {
	for _, f := range resp.Native {
		if f.Name == "kernel" {
			return f
		}
	}
	return host.NativeFunction{Status: "python", Reason: "no trace entry"}
}

// coldAndCached: the compile service's time per module (cold cache), and
// what an execution pays to load a cached module: an eager execution that
// finds its module in the cache, against the same execution with native off.
func coldAndCached(inproc *host.Engine, cache string, compiles []time.Duration) {
	sort.Slice(compiles, func(i, j int) bool { return compiles[i] < compiles[j] })
	if len(compiles) > 0 {
		fmt.Printf("Cold compile (frontend, C++ generation, `g++ -O3`, atomic write into the cache), per module above: "+
			"median **%s** (min %s, max %s).\n\n", ms(compiles[len(compiles)/2]), ms(compiles[0]), ms(compiles[len(compiles)-1]))
	}
	program := "def kernel(x: int) -> int:\n    return x * 3 + 1\n\nresult = kernel(inputs['x'])\n"
	sandbox, err := host.New(host.WithNative(host.NativeOptions{CacheDir: cache}))
	if err != nil {
		fail(err)
	}
	defer sandbox.Close()
	fmt.Println("| cached load (eager, module in the cache, minus native off; median of 200) | overhead | target |")
	fmt.Println("| --- | ---: | --- |")
	for _, c := range []struct {
		name string
		e    *host.Engine
	}{{"in process", inproc}, {"sandbox (the child dlopens from the cache)", sandbox}} {
		execNative(c.e, program, host.NativeEager) // fills the cache
		off := median(c.e, program, host.NativeOff)
		on := median(c.e, program, host.NativeEager)
		overhead := on - off
		fmt.Printf("| %s | %s | under 5 ms: %s |\n", c.name, ms(overhead), met(overhead < 5*time.Millisecond))
	}
	fmt.Println()
}

func execNative(e *host.Engine, program string, mode host.NativeMode) *host.Response {
	resp, err := e.Execute(context.Background(), host.Request{Source: program, Inputs: json.RawMessage(`{"x": 4}`), Native: mode})
	if err != nil || string(resp.Value) != "13" {
		fail(fmt.Errorf("load program: %v %s", err, resp.Value))
	}
	return resp
}

func median(e *host.Engine, program string, mode host.NativeMode) time.Duration {
	samples := make([]time.Duration, 200)
	for i := range samples {
		start := time.Now()
		resp := execNative(e, program, mode)
		samples[i] = time.Since(start)
		if mode == host.NativeEager && (len(resp.Native) != 1 || resp.Native[0].Cache != "hit") {
			fail(fmt.Errorf("expected a cache hit: %+v", resp.Native))
		}
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	return samples[len(samples)/2]
}

func ms(d time.Duration) string {
	if d < time.Millisecond && d > -time.Millisecond {
		return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1e3)
}

func target(want, got float64) string {
	if want == 0 {
		return ""
	}
	if got == 0 {
		return fmt.Sprintf("at least %.0fx: not measured", want)
	}
	return fmt.Sprintf("at least %.0fx: %s", want, met(got >= want))
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "nativebench:", err)
	os.Exit(1)
}
