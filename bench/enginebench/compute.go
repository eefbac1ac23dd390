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
// it (time.thread_time_ns), after one untimed call, and the figure is the
// median over every timed call. python3 runs the same source through exec()
// of a module-level dict, as spine does.

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

const (
	computeRounds = 8
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

func computeSection(inproc, sandbox *host.Engine, quick bool) {
	rounds, repeat := computeRounds, computeRepeat
	if quick {
		rounds = 2
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
	samples := make([][][]time.Duration, len(programs)) // [program][peer]
	for i := range samples {
		samples[i] = make([][]time.Duration, len(peers))
	}
	for r := 0; r < rounds; r++ {
		for i, p := range programs {
			for k := range peers {
				j := (r + k) % len(peers)
				samples[i][j] = append(samples[i][j], peers[j].run(p.source)...)
			}
		}
	}

	fmt.Println("## Guest interpreter: compute-bound programs against python3")
	fmt.Println()
	fmt.Printf("Programs: `bench/enginebench/compute/*.py` (loops, dicts, strings, recursion, objects). "+
		"Each times its own `work()` with the CPU clock of its thread, after one untimed call; "+
		"%d interleaved rounds of %d timed calls per program and peer; the median per call. "+
		"Start-up is not counted. Ratio: time / python3's time (1.00x = as fast).\n\n", rounds, repeat)
	fmt.Print("| program |")
	for _, p := range peers {
		fmt.Printf(" %s |", p.name)
	}
	fmt.Println()
	fmt.Print("| --- |" + strings.Repeat(" ---: |", len(peers)) + "\n")
	logSum := make([]float64, len(peers))
	for i, prog := range programs {
		base := median(samples[i][0])
		fmt.Printf("| %s | %.2f ms |", prog.name, float64(base)/1e6)
		for k := 1; k < len(peers); k++ {
			m := median(samples[i][k])
			ratio := float64(m) / float64(base)
			logSum[k] += math.Log(ratio)
			fmt.Printf(" %.2f ms (%.2fx) |", float64(m)/1e6, ratio)
		}
		fmt.Println()
	}
	fmt.Print("| geometric mean of ratios | 1x |")
	worst := 0.0
	for k := 1; k < len(peers); k++ {
		g := math.Exp(logSum[k] / float64(len(programs)))
		worst = math.Max(worst, g)
		fmt.Printf(" %.2fx |", g)
	}
	fmt.Println()
	fmt.Println()
	fmt.Printf("Target: spine within 5%% of python3 in both modes (geometric mean): %.2fx (%s).\n\n", worst, verdict(worst <= 1.05))
}
