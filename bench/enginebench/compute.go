package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The guest interpreter section: compute-bound programs (compute/*.py) under
// /usr/bin/python3 and under spine in both isolation modes, interleaved round
// by round in one run. What is compared is the interpreter, not start-up:
// each program times its own work() with the CPU clock of the thread running
// it (time.thread_time_ns), after one untimed call; a round's figure is its
// fastest call, compared round by round (median and spread of the ratios)
// and by the floor of the rounds (floor.go). python3 runs the same source
// through exec() of a module-level dict, as spine does.

//go:embed compute/*.py
var computePrograms embed.FS

// computeHarness follows each program: one warm call, then `repeat` timed ones.
const computeHarness = `
import time as _time
work()
_ns = []
for _ in range(inputs['repeat']):
    _t0 = _time.thread_time_ns()
    work()
    _ns.append(_time.thread_time_ns() - _t0)
result = {'ns': _ns}
`

// python3Runner runs a program the way spine's guest does: compiled, then
// exec'd in a fresh dict holding `inputs`.
const python3Runner = `import json, sys
g = {'inputs': json.loads(sys.argv[1])}
exec(compile(sys.stdin.read(), '<program>', 'exec'), g)
print(json.dumps(g['result']))`

// Many short rounds rather than few long ones: on a shared machine a
// neighbour's burst then spoils a few rounds, which the median and the
// floor over rounds leave out, instead of one peer's whole figure.
const (
	computeRounds = 40
	computeRepeat = 5
)

type computeProgram struct{ name, source string }

func loadComputePrograms() []computeProgram {
	entries, err := computePrograms.ReadDir("compute")
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench:", err)
		os.Exit(1)
	}
	var out []computeProgram
	for _, e := range entries {
		src, err := computePrograms.ReadFile(path.Join("compute", e.Name()))
		if err != nil {
			fmt.Fprintln(os.Stderr, "enginebench:", err)
			os.Exit(1)
		}
		out = append(out, computeProgram{strings.TrimSuffix(e.Name(), ".py"), string(src) + computeHarness})
	}
	return out
}

type timedWork struct {
	Ns []int64 `json:"ns"`
}

func computeOnEngine(e *host.Engine, source string, repeat int) []time.Duration {
	resp, err := e.Execute(context.Background(), host.Request{Source: source, Inputs: json.RawMessage(fmt.Sprintf(`{"repeat": %d}`, repeat))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench: compute program:", err)
		os.Exit(1)
	}
	return decodeTimedWork(resp.Value)
}

func computeOnPython3(source string, repeat int) []time.Duration {
	cmd := exec.Command("/usr/bin/python3", "-I", "-S", "-c", python3Runner, fmt.Sprintf(`{"repeat": %d}`, repeat))
	cmd.Stdin = strings.NewReader(source)
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench: python3 compute program:", err)
		os.Exit(1)
	}
	return decodeTimedWork(out)
}

func decodeTimedWork(raw []byte) []time.Duration {
	var w timedWork
	if err := json.Unmarshal(raw, &w); err != nil || len(w.Ns) == 0 {
		fmt.Fprintf(os.Stderr, "enginebench: compute program answered %q (%v)\n", raw, err)
		os.Exit(1)
	}
	out := make([]time.Duration, len(w.Ns))
	for i, ns := range w.Ns {
		out[i] = time.Duration(ns)
	}
	return out
}

func median(samples []time.Duration) time.Duration {
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func computeSection(inproc, sandbox *host.Engine, quick bool, rounds int) {
	repeat := computeRepeat
	if quick {
		rounds = 3
	}
	programs := loadComputePrograms()
	peers := []struct {
		name string
		run  func(source string) []time.Duration
	}{
		{"`/usr/bin/python3`", func(s string) []time.Duration { return computeOnPython3(s, repeat) }},
		{"spine sandbox", func(s string) []time.Duration { return computeOnEngine(sandbox, s, repeat) }},
		{"spine in-process", func(s string) []time.Duration { return computeOnEngine(inproc, s, repeat) }},
	}
	// perCall[i][k][r]: program i's fastest call under peer k in round r. On
	// a shared machine a neighbour only ever adds to a call's CPU time (its
	// cache and memory traffic), so the fastest call is the least disturbed.
	perCall := make([][][]time.Duration, len(programs))
	for i := range perCall {
		perCall[i] = make([][]time.Duration, len(peers))
	}
	for r := 0; r < rounds; r++ {
		for i, p := range programs {
			for k := range peers {
				j := (r + k) % len(peers)
				perCall[i][j] = append(perCall[i][j], fastest(peers[j].run(p.source)))
			}
		}
	}

	fmt.Println("## Guest interpreter: compute-bound programs against python3")
	fmt.Println()
	fmt.Printf("Programs: `bench/enginebench/compute/*.py` (loops, dicts, strings, recursion, objects). "+
		"Each times its own `work()` with the CPU clock of its thread, after one untimed call; "+
		"%d interleaved rounds of %d timed calls per program and peer, peers in a rotating order. "+
		"A round's figure is its fastest call (the least disturbed by neighbours); its ratio is that over python3's in the same round "+
		"(1.00x = as fast). Shown: the median over the rounds, and in brackets the interquartile "+
		"range of the per-round ratios (half the rounds fall inside it). The geometric mean is taken "+
		"per round over the programs, then summarised the same way. Start-up is not counted.\n\n", rounds, repeat)
	fmt.Print("| program |")
	for _, p := range peers {
		fmt.Printf(" %s |", p.name)
	}
	fmt.Println()
	fmt.Print("| --- |" + strings.Repeat(" ---: |", len(peers)) + "\n")
	// logRatio[k][r]: the sum over programs of log(ratio) of peer k in round r.
	logRatio := make([][]float64, len(peers))
	for k := range logRatio {
		logRatio[k] = make([]float64, rounds)
	}
	for i, prog := range programs {
		fmt.Printf("| %s | %.2f ms |", prog.name, float64(median(perCall[i][0]))/1e6)
		for k := 1; k < len(peers); k++ {
			ratios := make([]float64, rounds)
			for r := range ratios {
				ratios[r] = float64(perCall[i][k][r]) / float64(perCall[i][0][r])
				logRatio[k][r] += math.Log(ratios[r])
			}
			fmt.Printf(" %.2f ms (%s) |", float64(median(perCall[i][k]))/1e6, spread(ratios))
		}
		fmt.Println()
	}
	fmt.Print("| geometric mean of ratios | 1x |")
	for k := 1; k < len(peers); k++ {
		geo := make([]float64, rounds)
		for r := range geo {
			geo[r] = math.Exp(logRatio[k][r] / float64(len(programs)))
		}
		fmt.Printf(" %s |", spread(geo))
	}
	fmt.Println()
	fmt.Println()

	names := make([]string, len(peers))
	for k, p := range peers {
		names[k] = p.name
	}
	worst := printFloors(perCall, names, programs)
	fmt.Printf("Target: spine within 5%% of python3 in both modes (geometric mean of the floors): %.3fx (%s).\n\n", worst, verdict(worst <= 1.05))
}

func fastest(samples []time.Duration) time.Duration {
	min := samples[0]
	for _, s := range samples[1:] {
		if s < min {
			min = s
		}
	}
	return min
}
