// Command enginebench measures the engine against its peers, side by side in
// one run, and prints markdown sections for bench/RESULTS.md:
//
//   - core: a trivial program with one tool call in process, against a fresh
//     python3 subprocess per run; the cost of one no-op tool call;
//
//   - PLM: independent calls, a fanned-out loop and a dependent chain, PLM off
//     and on; the transform's own cost on a 200-line program;
//
//   - prefix streaming: time from the last chunk to the result.
//
//   - stopping: how late an execution returns after its deadline, in
//     process and in the sandbox (stopping.go).
//
//   - sandbox: the sandbox beside in-process spine, pydantic-monty (with
//     -monty, the bench venv's python) and the subprocess (sandbox.go);
//
//   - guest interpreter: compute-bound programs under python3 and spine in
//     both modes (compute.go);
//
//   - sandbox pool: bursts of executions that wait in a tool, and how the
//     pool grows to MaxChildren (pool.go).
//
//   - in process: executions overlapping in tools, and the trivial program
//     against a C loop over the embedded interpreter (inproc.go, floor/).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

const trivial = "result = {'x': lookup(key=inputs['item'])}"

func main() {
	quick := flag.Bool("quick", false, "fewer iterations (smoke run)")
	monty := flag.String("monty", "", "python of a venv with pydantic-monty (bench/monty/run.sh makes it)")
	montyWhy := flag.String("monty-why", "no venv given (-monty)", "why -monty is empty")
	only := flag.String("only", "", "run one section only: pool, compute, steps, inproc, sandbox (with core, whose subprocess figure it compares with)")
	flag.DurationVar(&warmInterval, "pace", warmInterval, "one paced execution every this long (sandbox, steps)")
	rounds := flag.Int("rounds", computeRounds, "interleaved rounds of the guest interpreter section")
	flag.Parse()
	if *only == "pool" {
		poolSection()
		return
	}
	n := 2000
	if *quick {
		n = 200
	}
	if *only == "inproc" {
		inprocSection(n)
		return
	}
	noop := host.NewTool(host.ToolSpec{Name: "noop", Speculative: true},
		func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage("null"), nil })
	// 64 workers so that a 64-way fan-out runs at once (the default is 16).
	engine, err := host.New(host.WithTools(append(demotools.Tools(), noop)...), host.WithWorkers(64),
		host.WithIsolation(host.Inproc))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer engine.Close()
	sandbox, err := host.New(host.WithTools(demotools.Tools()...)) // the default: sandbox
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer sandbox.Close()
	if *only == "steps" {
		sandboxSteps(sandbox, n, *monty, *montyWhy)
		return
	}
	if *only == "compute" {
		computeSection(engine, sandbox, *quick, *rounds)
		return
	}
	subprocess := core(engine, n)
	sandboxSection(engine, sandbox, *monty, *montyWhy, n, subprocess)
	if *only == "sandbox" {
		return
	}
	poolSection()
	computeSection(engine, sandbox, *quick, *rounds)
	plm(engine)
	streaming(engine)
	stopping(engine, sandbox)
	inprocSection(n)
}

func exec1(e *host.Engine, req host.Request) time.Duration {
	start := time.Now()
	if _, err := e.Execute(context.Background(), req); err != nil {
		fmt.Fprintln(os.Stderr, "enginebench:", err)
		os.Exit(1)
	}
	return time.Since(start)
}

type stats struct{ median, p99, p999 time.Duration }

func summarize(samples []time.Duration) stats {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	return stats{samples[len(samples)/2], samples[len(samples)*99/100], samples[len(samples)*999/1000]}
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3) }
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Nanoseconds())/1e6) }

// concurrently runs total executions of req from routines goroutines and
// returns executions per second.
func concurrently(e *host.Engine, req host.Request, routines, total int) float64 {
	var wg sync.WaitGroup
	per := total / routines
	start := time.Now()
	for g := 0; g < routines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				resp, err := e.Execute(context.Background(), req)
				var got bytes.Buffer
				if err == nil {
					err = json.Compact(&got, resp.Value)
				}
				if err != nil || got.String() != `{"x":21}` {
					fmt.Fprintln(os.Stderr, "enginebench: concurrent sandbox execution:", err, string(resp.Value))
					os.Exit(1)
				}
			}
		}()
	}
	wg.Wait()
	return float64(per*routines) / time.Since(start).Seconds()
}

// core measures the in-process execution and a no-op tool call, and
// returns the subprocess figures the sandbox section compares against.
func core(e *host.Engine, n int) stats {
	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	for i := 0; i < 200; i++ {
		exec1(e, req)
	}
	samples := make([]time.Duration, n)
	for i := range samples {
		samples[i] = exec1(e, req)
	}
	inproc := summarize(samples)

	// A fresh python3 per run, the tool simulated by a function in the program.
	script := "import json,sys\ninputs=json.loads(sys.argv[1])\ndef lookup(key): return 7*key\n" + trivial + "\nprint(json.dumps(result))"
	runs := n / 10
	sub := make([]time.Duration, runs)
	for i := range sub {
		start := time.Now()
		if out, err := exec.Command("/usr/bin/python3", "-I", "-S", "-c", script, `{"item": 3}`).Output(); err != nil || strings.TrimSpace(string(out)) != `{"x": 21}` {
			fmt.Fprintln(os.Stderr, "enginebench: python3 subprocess:", err, string(out))
			os.Exit(1)
		}
		sub[i] = time.Since(start)
	}
	subprocess := summarize(sub)

	thousand := host.Request{Source: "for _ in range(1000):\n    noop()"}
	empty := host.Request{Source: "for _ in range(1000):\n    pass"}
	var withCalls, without []time.Duration
	for i := 0; i < 50; i++ {
		withCalls = append(withCalls, exec1(e, thousand))
		without = append(without, exec1(e, empty))
	}
	perCall := (summarize(withCalls).median - summarize(without).median) / 1000

	fmt.Println("## Core: one execution in process")
	fmt.Println()
	fmt.Printf("Program: `%s` with `lookup` a Go tool; %d runs in process back to back, %d subprocess runs.\n\n", trivial, n, runs)
	fmt.Println("| peer | median | p99 | ratio (median) |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	fmt.Printf("| spine in-process | %s | %s | 1x |\n", us(inproc.median), us(inproc.p99))
	fmt.Printf("| fresh `python3 -I -S` subprocess per run | %s | %s | %.0fx slower |\n", us(subprocess.median), us(subprocess.p99),
		float64(subprocess.median)/float64(inproc.median))
	fmt.Println()
	fmt.Printf("One no-op tool call (1,000 calls in one program, minus the same loop without calls): **%s** per call.\n", us(perCall))
	fmt.Printf("Targets: median execution within 50 µs (%s), one tool call within 10 µs (%s).\n\n", verdict(inproc.median <= 50*time.Microsecond), verdict(perCall <= 10*time.Microsecond))
	return subprocess
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}

func both(e *host.Engine, source string, runs int) (off, on time.Duration) {
	var a, b []time.Duration
	for i := 0; i < runs; i++ {
		a = append(a, exec1(e, host.Request{Source: source}))
		b = append(b, exec1(e, host.Request{Source: source, PLM: true}))
	}
	return summarize(a).median, summarize(b).median
}

func plm(e *host.Engine) {
	eight := ""
	for i := 0; i < 8; i++ {
		eight += fmt.Sprintf("v%d = sleep(ms=100, value=%d)\n", i, i)
	}
	eight += "result = [v0, v1, v2, v3, v4, v5, v6, v7]\n"
	loop := "rows = []\nfor i in range(64):\n    rows.append(sleep(ms=50, value=i))\nresult = rows\n"
	chain := "a = sleep(ms=20, value=1)\nb = sleep(ms=20, value=a + 1)\nc = sleep(ms=20, value=b + 1)\nd = sleep(ms=20, value=c + 1)\nresult = d\n"
	fmt.Println("## PLM: PLM off and on, same run")
	fmt.Println()
	fmt.Println("| program | PLM off | PLM on | speed-up | target |")
	fmt.Println("| --- | ---: | ---: | ---: | --- |")
	off, on := both(e, eight, 3)
	fmt.Printf("| 8 independent `sleep(ms=100)` | %s | %s | %.1fx | on within 150 ms: %s |\n", ms(off), ms(on), float64(off)/float64(on), verdict(on <= 150*time.Millisecond))
	off, on = both(e, loop, 1)
	fmt.Printf("| 64-iteration loop of `sleep(ms=50)` (fan-out 64, 64 workers) | %s | %s | %.1fx | on within 200 ms: %s |\n", ms(off), ms(on), float64(off)/float64(on), verdict(on <= 200*time.Millisecond))
	off, on = both(e, chain, 5)
	fmt.Printf("| dependent chain of 4 `sleep(ms=20)` | %s | %s | %+.1f%% | on no slower than off by 5%%: %s |\n", ms(off), ms(on), 100*(float64(on)/float64(off)-1), verdict(on <= off*105/100))

	// The transform's cost: a 200-line program, uncached (the source differs each run).
	var lines []string
	for i := 0; i < 100; i++ {
		lines = append(lines, fmt.Sprintf("a%d = lookup(key=%d)", i, i), fmt.Sprintf("b%d = a%d + 1", i, i))
	}
	program := strings.Join(lines, "\n") + "\nresult = b99\n"
	var plain, transformed []time.Duration
	for i := 0; i < 20; i++ {
		salt := fmt.Sprintf("\n# run %d\n", i)
		plain = append(plain, exec1(e, host.Request{Source: program + salt}))
		transformed = append(transformed, exec1(e, host.Request{Source: program + salt + "#plm\n", PLM: true}))
	}
	cost := summarize(transformed).median - summarize(plain).median
	own, err := exec.Command("/usr/bin/python3", "bench/plm_transform.py").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench: bench/plm_transform.py:", err)
		os.Exit(1)
	}
	transformMs := strings.TrimSpace(string(own))
	var ownCost float64
	fmt.Sscan(transformMs, &ownCost)
	fmt.Println()
	fmt.Printf("The transform's own cost on a 200-line program with 100 tool calls (`bench/plm_transform.py`, median of 50): **%s ms** (target under 5 ms: %s).\n",
		transformMs, verdict(ownCost < 5))
	fmt.Printf("End to end, an uncached PLM run of that program costs %s more than an uncached plain run (transform, compiling the larger program, 100 prepares).\n\n", ms(cost))
}

func streaming(e *host.Engine) {
	var lines []string
	for i := 0; i < 4; i++ {
		lines = append(lines, fmt.Sprintf("s%d = sleep(ms=200, value=inputs['v%d'])", i, i))
	}
	for i := 0; i < 20; i++ {
		lines = append(lines, fmt.Sprintf("x%d = %d * 2", i, i))
	}
	lines = append(lines, "result = [s0, s1, s2, s3, x19]")
	inputs := json.RawMessage(`{"v0": 0, "v1": 1, "v2": 2, "v3": 3}`)
	source := strings.Join(lines, "\n") + "\n"
	stream := func() time.Duration {
		s, err := e.Stream(context.Background(), host.Request{Inputs: inputs})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i, line := range lines {
			if i > 0 {
				time.Sleep(30 * time.Millisecond)
			}
			s.Feed([]byte(line + "\n"))
		}
		start := time.Now()
		if _, err := s.Finish(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return time.Since(start)
	}
	afterPlain := exec1(e, host.Request{Source: source, Inputs: inputs})
	afterPLM := exec1(e, host.Request{Source: source, Inputs: inputs, PLM: true})
	prefix := stream()
	fmt.Println("## Prefix streaming: time from the last chunk to the result")
	fmt.Println()
	fmt.Println("Program: 4 independent `sleep(ms=200)` on `inputs` values, then 20 more lines; streamed one line per 30 ms.")
	fmt.Println()
	fmt.Println("| mode | last chunk to result | ratio to prefix |")
	fmt.Println("| --- | ---: | ---: |")
	fmt.Printf("| execute after the stream ends | %s | %.0fx |\n", ms(afterPlain), float64(afterPlain)/float64(prefix))
	fmt.Printf("| PLM after the stream ends | %s | %.0fx |\n", ms(afterPLM), float64(afterPLM)/float64(prefix))
	fmt.Printf("| prefix streaming | %s | 1x |\n", ms(prefix))
	fmt.Printf("\nTarget: prefix streaming within 50 ms: %s.\n\n", verdict(prefix <= 50*time.Millisecond))
}
