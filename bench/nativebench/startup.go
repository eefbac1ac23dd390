package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"time"
)

// What native mode costs a process with every module cached: `spine run
// --native eager` against `--native off` on the same program, each a fresh
// CLI process (engine, zygote, sandboxed child), interleaved round by
// round. CPU time is the process's and its reaped descendants' (wait4),
// the figure a loaded machine leaves trustworthy; wall time is reported too.
const startupProgram = `from typing import List


def scale(x: int, k: int) -> int:
    return x * k + 1


def mean(values: List[float]) -> float:
    if not values:
        raise ValueError("mean of an empty list")
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def count_even(xs: List[int]) -> int:
    n = 0
    for x in xs:
        if x % 2 == 0:
            n += 1
    return n


result = [scale(4, 3), mean([1.0, 2.0, 4.5]), count_even([1, 2, 3, 4])]
`

const startupAnswer = `[13,2.5,2]`

type processCost struct{ cpu, wall time.Duration }

func startupSection(rounds int) {
	spine, err := filepath.Abs("bin/spine")
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "spine-startup-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	program := filepath.Join(dir, "program.py")
	if err := os.WriteFile(program, []byte(startupProgram), 0o644); err != nil {
		fail(err)
	}
	env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	runCLI(spine, program, "eager", env, "miss") // compiles every module into the cache
	var off, eager []processCost
	var cpuDiff, wallDiff []time.Duration
	for r := 0; r < rounds; r++ {
		var o, e processCost
		if r%2 == 0 { // alternate which goes first, so neither always follows the other
			o, e = runCLI(spine, program, "off", env, ""), runCLI(spine, program, "eager", env, "hit")
		} else {
			e, o = runCLI(spine, program, "eager", env, "hit"), runCLI(spine, program, "off", env, "")
		}
		off, eager = append(off, o), append(eager, e)
		cpuDiff, wallDiff = append(cpuDiff, e.cpu-o.cpu), append(wallDiff, e.wall-o.wall)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Println("## Native mode's cost per process, every module cached")
	fmt.Println()
	fmt.Printf("`bin/spine run --native eager` against `--native off`, each a fresh process (engine, zygote, sandboxed "+
		"child; the default sandbox mode) on a program with three eligible functions (three modules, all in the cache: "+
		"each eager run checks it found them there), %d rounds, the two modes interleaved. CPU: user+system of the "+
		"process and its reaped descendants (wait4); the difference is the median of the per-round differences. "+
		"Load average at the end: %s on %d cores. Command: `go run ./bench/nativebench -only startup`.\n\n",
		rounds, firstField(string(load)), runtime.NumCPU())
	fmt.Println("| | `--native off` | `--native eager` | eager minus off | target |")
	fmt.Println("| --- | ---: | ---: | ---: | --- |")
	cpu := medianOf(cpuDiff)
	fmt.Printf("| CPU | %s | %s | **%s** | within 5 ms: %s |\n", ms(medianOf(costs(off, true))),
		ms(medianOf(costs(eager, true))), ms(cpu), met(cpu <= 5*time.Millisecond))
	fmt.Printf("| wall | %s | %s | %s | |\n", ms(medianOf(costs(off, false))), ms(medianOf(costs(eager, false))),
		ms(medianOf(wallDiff)))
	fmt.Println()
}

// runCLI runs one `spine run --native mode -json program`; wantCache, when
// given, is what every native function's cache outcome must be.
func runCLI(spine, program, mode string, env []string, wantCache string) processCost {
	cmd := exec.Command(spine, "run", "--native", mode, "-json", program)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		fail(fmt.Errorf("spine run --native %s: %v", mode, err))
	}
	var resp struct {
		Value  json.RawMessage `json:"value"`
		Native []struct {
			Name, Status, Cache string
		} `json:"native"`
	}
	if err := json.Unmarshal(out, &resp); err != nil || string(resp.Value) != startupAnswer {
		fail(fmt.Errorf("spine run --native %s answered %s (%v)", mode, out, err))
	}
	if wantCache != "" {
		if len(resp.Native) != 3 {
			fail(fmt.Errorf("expected three native functions: %s", out))
		}
		for _, f := range resp.Native {
			if f.Status != "native" || f.Cache != wantCache {
				fail(fmt.Errorf("%s: %s, cache %s (want native, %s)", f.Name, f.Status, f.Cache, wantCache))
			}
		}
	}
	st := cmd.ProcessState
	return processCost{cpu: st.UserTime() + st.SystemTime(), wall: wall}
}

func costs(samples []processCost, cpu bool) []time.Duration {
	out := make([]time.Duration, len(samples))
	for i, s := range samples {
		out[i] = s.wall
		if cpu {
			out[i] = s.cpu
		}
	}
	return out
}

func medianOf(values []time.Duration) time.Duration {
	sorted := append([]time.Duration(nil), values...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func firstField(s string) string {
	for i, c := range s {
		if c == ' ' {
			return s[:i]
		}
	}
	return s
}

// compileSection runs compiletime.py over the corpus with the toolchain
// the engine uses.
func compileSection(every int) {
	toolchain := os.Getenv("SPINE_NATIVE")
	if toolchain == "" {
		toolchain = "build/spine-native"
	}
	toolchain, _ = filepath.Abs(toolchain)
	repo, _ := filepath.Abs(".")
	fmt.Println("## Cold compile time per module over the corpus")
	fmt.Println()
	fmt.Print("Command: `go run ./bench/nativebench -only compile` (`bench/nativebench/compiletime.py`; " +
		"g++ flags: `native.compiler.CXXFLAGS`, gold where installed). ")
	cmd := exec.Command("/usr/bin/python3", "-I", "-S", "bench/nativebench/compiletime.py", toolchain, repo,
		"--every", fmt.Sprint(every))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("compiletime.py: %v", err))
	}
}
