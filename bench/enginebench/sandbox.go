package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// The sandbox section: spine's sandbox beside in-process spine,
// pydantic-monty and a fresh python3 per run, all on the core program and
// all in this one run. Latency is measured with the pool warm: one execution
// every `warmInterval`, a rate the sandbox's pool refills at (each execution
// takes a fresh child; making one costs a few milliseconds of CPU, off the
// execution's path). The peers run interleaved, round by round, so that a
// noisy neighbour on a shared VM hits them alike. Back-to-back latency and
// throughput are reported too.

// warmInterval is the pace of the warm-pool latency (-pace: on a loaded
// machine, where an execution takes several times its quiet median, a
// longer pace keeps the proportion of idle time between executions).
var warmInterval = 5 * time.Millisecond

const rounds = 8

// peer runs the core program n times, one start every interval (0: back to
// back), and returns each execution's duration.
type peer interface {
	run(n int, interval time.Duration) []time.Duration
}

// enginePeer runs the core program on an engine; with trace set it also
// keeps each execution's stages (tail.go), watching the pool with watch.
type enginePeer struct {
	e        *host.Engine
	trace    *[]stageSample
	watch    *poolWatch
	switches *switchTally // nil: not counted
	busy     *busyTally   // nil: not counted
}

func (p enginePeer) run(n int, interval time.Duration) []time.Duration {
	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	out := make([]time.Duration, n)
	p.busy.around(func() { p.switches.around(n, func() { p.runInto(req, out, interval) }) })
	return out
}

func (p enginePeer) runInto(req host.Request, out []time.Duration, interval time.Duration) {
	next := time.Now()
	for i := range out {
		if interval > 0 {
			time.Sleep(time.Until(next))
			next = maxTime(next.Add(interval), time.Now())
		}
		if p.trace == nil {
			out[i] = exec1(p.e, req)
			continue
		}
		st := tracedExec(p.e, req, p.watch)
		*p.trace = append(*p.trace, st)
		out[i] = st.total
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// montyPeer drives bench/monty/monty_server.py in the bench venv.
type montyPeer struct {
	cmd     *exec.Cmd
	in      *bufio.Writer
	out     *bufio.Scanner
	version string
	workers int
}

func startMonty(python string) (*montyPeer, error) {
	cmd := exec.Command(python, "bench/monty/monty_server.py")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	m := &montyPeer{cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewScanner(stdout)}
	m.out.Buffer(make([]byte, 1<<20), 16<<20)
	var v struct {
		Version   string `json:"version"`
		Processes int    `json:"processes"`
	}
	if err := m.ask("version", &v); err != nil {
		m.close()
		return nil, err
	}
	m.version, m.workers = v.Version, v.Processes
	return m, nil
}

func (m *montyPeer) ask(command string, answer any) error {
	fmt.Fprintln(m.in, command)
	if err := m.in.Flush(); err != nil {
		return err
	}
	if !m.out.Scan() {
		return fmt.Errorf("monty_server ended (%v)", m.out.Err())
	}
	return json.Unmarshal(m.out.Bytes(), answer)
}

func (m *montyPeer) run(n int, interval time.Duration) []time.Duration {
	var a struct{ Seconds []float64 }
	if err := m.ask(fmt.Sprintf("lat %d %d", n, interval.Microseconds()), &a); err != nil {
		fmt.Fprintln(os.Stderr, "enginebench: monty:", err)
		os.Exit(1)
	}
	out := make([]time.Duration, len(a.Seconds))
	for i, s := range a.Seconds {
		out[i] = time.Duration(s * float64(time.Second))
	}
	return out
}

func (m *montyPeer) rate(threads, n int) float64 {
	var a struct {
		PerSecond float64 `json:"per_second"`
	}
	if err := m.ask(fmt.Sprintf("rate %d %d", threads, n), &a); err != nil {
		fmt.Fprintln(os.Stderr, "enginebench: monty:", err)
		os.Exit(1)
	}
	return a.PerSecond
}

func (m *montyPeer) close() {
	fmt.Fprintln(m.in, "quit")
	m.in.Flush()
	m.cmd.Wait()
}

// tail is how far the 99th percentile lies from the median.
func tail(s stats) float64 { return float64(s.p99) / float64(s.median) }

// interleaved runs every peer for perRound executions per round, rotating
// which goes first, and returns all samples per peer.
func interleaved(peers []peer, perRound int, interval time.Duration) [][]time.Duration {
	samples := make([][]time.Duration, len(peers))
	for r := 0; r < rounds; r++ {
		for k := range peers {
			i := (r + k) % len(peers)
			samples[i] = append(samples[i], peers[i].run(perRound, interval)...)
		}
	}
	return samples
}

func sandboxSection(inproc, sandbox *host.Engine, montyPython, montyWhy string, n int, subprocess stats) {
	perRound := max(1, n/rounds)
	var monty *montyPeer
	if montyPython != "" {
		var err error
		if monty, err = startMonty(montyPython); err != nil {
			montyWhy = "bench/monty/monty_server.py did not start: " + err.Error()
		} else {
			defer monty.close()
		}
	}
	// The paced sandbox runs on an engine of its own whose pool gauges the
	// trace reads (the other sandbox figures stay without metrics).
	paced, watch, switches := newPacedEngine(host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)})
	defer paced.Close()
	defer switches.close()
	var trace []stageSample
	tally, busy := &switchTally{w: switches}, &busyTally{}
	peers := []peer{enginePeer{paced, &trace, watch, tally, busy}, enginePeer{inproc, nil, nil, nil, nil}}
	if monty != nil {
		peers = append(peers, monty)
	}
	warm := interleaved(peers, perRound, warmInterval)
	start := time.Now()
	b2b := interleaved([]peer{enginePeer{sandbox, nil, nil, nil, nil}}, perRound, 0)
	sequential := float64(len(b2b[0])) / time.Since(start).Seconds()
	var montyB2B []time.Duration
	if monty != nil {
		montyB2B = interleaved([]peer{monty}, perRound, 0)[0]
	}
	const routines = 8
	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	concurrent := concurrently(sandbox, req, routines, n)
	inprocConcurrent := concurrently(inproc, req, routines, n)

	drifts := make([]drift, len(warm))
	for i, samples := range warm {
		drifts[i] = roundDrift(samples, perRound)
	}
	box, in := summarize(warm[0]), summarize(warm[1])
	fmt.Println("## Sandbox beside its peers: in-process spine, pydantic-monty and a fresh python3")
	fmt.Println()
	fmt.Printf("Program: `%s`; `lookup` is a Go tool (Monty: an external function in its host process, returning 7*key). "+
		"Latency with the pool warm: one execution every %v (%.0f/s, a rate the sandbox's pool refills at), "+
		"%d interleaved rounds of %d executions per peer, all in this run.\n\n",
		trivial, warmInterval, float64(time.Second)/float64(warmInterval), rounds, perRound)
	fmt.Println("| peer | median | p99 | p99.9 | p99 / median | median vs Monty |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: |")
	var montyMedian time.Duration
	if monty != nil {
		montyMedian = summarize(warm[2]).median
	}
	ratio := func(d time.Duration) string {
		if montyMedian == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2fx", float64(d)/float64(montyMedian))
	}
	fmt.Printf("| spine sandbox (a fresh forked, confined child per execution) | %s | %s | %s | %.1fx | %s |\n", us(box.median), us(box.p99), us(box.p999), tail(box), ratio(box.median))
	fmt.Printf("| spine in-process (trusted code only) | %s | %s | %s | %.1fx | %s |\n", us(in.median), us(in.p99), us(in.p999), tail(in), ratio(in.median))
	if monty != nil {
		m := summarize(warm[2])
		fmt.Printf("| pydantic-monty %s (warm pool of %d workers, a fresh session per execution) | %s | %s | %s | %.1fx | 1x |\n", monty.version, monty.workers, us(m.median), us(m.p99), us(m.p999), tail(m))
	}
	fmt.Printf("| fresh `python3 -I -S` subprocess per run | %s | %s | | %.1fx | %s |\n", us(subprocess.median), us(subprocess.p99), tail(subprocess), ratio(subprocess.median))
	fmt.Println()
	if monty == nil {
		fmt.Printf("pydantic-monty could not be measured: %s.\n\n", montyWhy)
	}
	fmt.Printf("The machine's drift during these rounds (roundDrift, drift.go; the pooled figures above are the ones the targets use): "+
		"spine sandbox %s; spine in-process %s", drifts[0], drifts[1])
	if monty != nil {
		fmt.Printf("; pydantic-monty %s", drifts[2])
	}
	fmt.Print(".\n\n")
	printTailComposition(trace)
	fmt.Printf("During its paced rounds the sandbox kept %s.\n\n", busy)
	fmt.Printf("Context switches per paced sandbox execution (the paced runs only; the load moves them far less than the wall clock, the voluntary ones, a thread or task going to sleep, least): %s.\n\n", tally)

	seq := summarize(b2b[0])
	fmt.Printf("Back to back (each execution starts when the previous one returns; the sandbox's pool then refills while executions run):\n\n")
	fmt.Println("| peer | median | p99 |")
	fmt.Println("| --- | ---: | ---: |")
	fmt.Printf("| spine sandbox (%.0f executions/s) | %s | %s |\n", sequential, us(seq.median), us(seq.p99))
	if monty != nil {
		m := summarize(montyB2B)
		fmt.Printf("| pydantic-monty | %s | %s |\n", us(m.median), us(m.p99))
	}
	fmt.Println()
	fmt.Printf("Throughput on %d cores: spine sandbox **%.0f executions/s** from %d goroutines (%d executions, each a fresh forked child, result checked); "+
		"spine in-process %.0f/s", runtime.NumCPU(), concurrent, routines, n, inprocConcurrent)
	if monty != nil {
		fmt.Printf("; pydantic-monty %.0f/s from 4 threads", monty.rate(4, n))
	}
	fmt.Println(".")
	fmt.Println()
	sub := float64(subprocess.median) / float64(box.median)
	fmt.Printf("Targets (warm pool): sandbox median within Monty's: ")
	if monty != nil {
		fmt.Printf("%.2fx (%s)", float64(box.median)/float64(montyMedian), verdict(box.median <= montyMedian))
	} else {
		fmt.Print("not measured")
	}
	fmt.Printf("; at least 20x faster than the subprocess: %.1fx (%s); sandbox p99 within 2.5x of its median: %.1fx (%s).\n\n",
		sub, verdict(sub >= 20), tail(box), verdict(tail(box) <= 2.5))
}

// sandboxSteps is `-only steps`: the sandbox alone, back to back and from 8
// goroutines, and the CPU the zygote, the children and this process spent
// per execution, to measure one change to the child's lifecycle at a time;
// then pydantic-monty's rates on the same program, when a venv is given.
// Monty starts after the sandbox's CPU is read: it is a child process of
// this one too, and would count among the zygote's.
func sandboxSteps(sandbox *host.Engine, n int, montyPython, montyWhy string) {
	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	for i := 0; i < 100; i++ {
		exec1(sandbox, req)
	}
	before, zygote := processCPU(), watchZygote()
	samples := make([]time.Duration, n)
	start := time.Now()
	for i := range samples {
		samples[i] = exec1(sandbox, req)
	}
	elapsed := time.Since(start)
	own, children := processCPU().minus(before)
	s := summarize(samples)
	fmt.Printf("sandbox back to back: %.0f executions/s, median %s, p99 %s; CPU per execution: host %s, zygote and children %s\n",
		float64(n)/elapsed.Seconds(), us(s.median), us(s.p99), us(own/time.Duration(n)), us(children/time.Duration(n)))
	fmt.Printf("sandbox back to back, per execution: %s\n", zygote.perExecution(n))
	fmt.Printf("sandbox from 8 goroutines: %.0f executions/s\n", concurrently(sandbox, req, 8, n))
	pacedSteps(req, n)
	if montyPython == "" {
		fmt.Printf("pydantic-monty not measured: %s\n", montyWhy)
		return
	}
	monty, err := startMonty(montyPython)
	if err != nil {
		fmt.Printf("pydantic-monty not measured: bench/monty/monty_server.py did not start: %v\n", err)
		return
	}
	defer monty.close()
	monty.run(100, 0)
	start = time.Now()
	m := summarize(monty.run(n, 0))
	fmt.Printf("pydantic-monty back to back: %.0f executions/s, median %s, p99 %s\n",
		float64(n)/time.Since(start).Seconds(), us(m.median), us(m.p99))
	fmt.Printf("pydantic-monty from 4 threads: %.0f executions/s\n", monty.rate(4, n))
}

// pacedSteps is the paced part of `-only steps`: one execution every
// warmInterval on an engine of its own whose pool gauges the trace reads
// (tail.go), with its tail, the share of executions that ran beside a
// child's creation, and the CPU per execution (the other engine's pool is
// idle by then).
func pacedSteps(req host.Request, n int) {
	paced, watch, switches := newPacedEngine(req)
	defer paced.Close()
	defer switches.close()
	var trace []stageSample
	tally, busy := &switchTally{w: switches}, &busyTally{}
	allocatedBefore := heapAllocated()
	s := summarize(enginePeer{paced, &trace, watch, tally, busy}.run(n, warmInterval))
	allocated := heapAllocated() - allocatedBefore
	all, slow := besideShares(trace)
	fmt.Printf("sandbox paced (one every %v): median %s, p99 %s, p99.9 %s, p99 / median %.1fx; "+
		"executions beside a child's creation %.1f%% (of the slowest 1%%: %.1f%%); CPU per execution: host %s, zygote and children %s, which kept %s; "+
		"Go heap allocated per execution (the engine's and the pool watch's): %.1f KB; context switches per execution: %s\n",
		warmInterval, us(s.median), us(s.p99), us(s.p999), tail(s), 100*all, 100*slow, us(busy.host/time.Duration(n)), us(busy.children/time.Duration(n)),
		busy, float64(allocated)/float64(n)/1000, tally)
}

// newPacedEngine is a sandbox engine of its own whose pool gauges the trace
// reads, warmed by 50 executions of @p req and settled (no child starting),
// and the context-switch counters on its processes (switches.go).
func newPacedEngine(req host.Request) (*host.Engine, *poolWatch, *switchWatch) {
	others := childPIDs()
	watch, metered := newPoolWatch()
	paced, err := host.New(host.WithTools(demotools.Tools()...), metered)
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench:", err)
		os.Exit(1)
	}
	for i := 0; i < 50; i++ {
		exec1(paced, req)
	}
	watch.settle()
	return paced, watch, watchSwitches(others)
}
