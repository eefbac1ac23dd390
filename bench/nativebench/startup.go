package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
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

type processCost struct {
	cpu, wall time.Duration
	pid       int      // the CLI process, to find its classes in a scheduler recording
	class     classCPU // its CPU by class (-startup-classes)
}

// startupBuild is one build of the CLI measured: its binary and the
// environment it runs in (its own toolchain, beside it, for a build given
// by -startup-before).
type startupBuild struct {
	label, spine string
	env          []string
	off, eager   []processCost
}

// startupSection measures bin/spine, and with @p before (other builds'
// bin/spine, comma-separated) those builds too, in the same rounds: every
// round runs each build's two modes once, in an order shuffled every round
// (roundOrder), so load that comes and goes falls on every column alike. With
// @p aa bin/spine is measured twice, as two builds (A/A).
//
// With @p classes the rounds run under a system-wide recording of the
// scheduler's events, and each mode's CPU is also given by class of process
// (startup_classes.go).
func startupSection(rounds int, before string, aa, classes bool) {
	if classes {
		if why := perfCanRecord(); why != "" {
			fail(fmt.Errorf("-startup-classes: %s", why))
		}
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
	cache := "XDG_CACHE_HOME=" + filepath.Join(dir, "cache")
	spine, err := filepath.Abs("bin/spine")
	if err != nil {
		fail(err)
	}
	builds := []*startupBuild{}
	for _, other := range strings.FieldsFunc(before, func(r rune) bool { return r == ',' }) {
		old, err := filepath.Abs(other)
		if err != nil {
			fail(err)
		}
		// Another build runs with its own guest and toolchain, not those the environment names.
		env := []string{cache, "SPINE_NATIVE=" + filepath.Join(filepath.Dir(old), "spine-native")}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "SPINE_GUEST=") && !strings.HasPrefix(kv, "SPINE_NATIVE=") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
				env = append(env, kv)
			}
		}
		builds = append(builds, &startupBuild{label: other, spine: old, env: env})
	}
	if aa {
		builds = append(builds, &startupBuild{label: "this build again (A/A)", spine: spine, env: append(os.Environ(), cache)})
	}
	builds = append(builds, &startupBuild{label: "this build", spine: spine, env: append(os.Environ(), cache)})
	type run struct {
		b     *startupBuild
		eager bool
	}
	var order []run
	for _, b := range builds {
		runCLI(b.spine, program, "eager", b.env, "") // compiles what the cache lacks
		runCLI(b.spine, program, "off", b.env, "")   // and a first process of each mode, not counted
		order = append(order, run{b, false}, run{b, true})
	}
	var recorder *schedRecorder
	if classes {
		recorder = startSchedRecord(dir)
	}
	shuffle := roundOrder(len(order))
	for r := 0; r < rounds; r++ {
		for _, i := range shuffle() {
			x := order[i]
			if x.eager {
				x.b.eager = append(x.b.eager, runCLI(x.b.spine, program, "eager", x.b.env, "hit"))
			} else {
				x.b.off = append(x.b.off, runCLI(x.b.spine, program, "off", x.b.env, ""))
			}
		}
	}
	others := 0
	if recorder != nil {
		others = attributeClasses(recorder, builds)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	command := fmt.Sprintf("go run ./bench/nativebench -only startup -startup-rounds %d", rounds)
	if before != "" {
		command += " -startup-before " + before
	}
	if aa {
		command += " -startup-aa"
	}
	if classes {
		command += " -startup-classes"
	}
	fmt.Println("## Native mode's cost per process, every module cached")
	fmt.Println()
	fmt.Printf("`bin/spine run --native eager` against `--native off`, each a fresh process (engine, zygote, sandboxed "+
		"child; the default sandbox mode) on a program with three eligible functions (three modules, all in the cache: "+
		"each eager run checks it found them there), %d rounds, every round one process of each mode (and build), in "+
		"an order shuffled every round. CPU: user+system of the process and its reaped descendants (wait4); "+
		"eager minus off is the median of the per-round differences, with its 95%% confidence interval (bootstrap, "+
		"%d resamples) and the differences' interquartile range, and the difference of the two modes' lower deciles "+
		"(what contention from other processes, which only adds CPU time, moves least). Load average at the end: %s on %d cores. Command: `%s`.\n\n",
		rounds, bootstrapResamples, firstField(string(load)), runtime.NumCPU(), command)
	fmt.Println("| build | CPU, `--native off` | CPU, `--native eager` | **CPU, eager minus off** (95% CI) | IQR | " +
		"lower deciles, eager minus off | wall, eager minus off | target |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	for _, b := range builds {
		var cpuDiff, wallDiff []time.Duration
		for i := range b.off {
			cpuDiff = append(cpuDiff, b.eager[i].cpu-b.off[i].cpu)
			wallDiff = append(wallDiff, b.eager[i].wall-b.off[i].wall)
		}
		cpu := medianOf(cpuDiff)
		low, high := medianInterval(cpuDiff)
		decile := quantileOf(costs(b.eager, true), 0.1) - quantileOf(costs(b.off, true), 0.1)
		fmt.Printf("| %s | %s | %s | **%s** (%s to %s) | %s to %s | %s | %s | within 5 ms: %s |\n", b.label,
			ms(medianOf(costs(b.off, true))), ms(medianOf(costs(b.eager, true))), ms(cpu), ms(low), ms(high),
			ms(quantileOf(cpuDiff, 0.25)), ms(quantileOf(cpuDiff, 0.75)), ms(decile), ms(medianOf(wallDiff)),
			metWithin(cpu, high, 5*time.Millisecond))
	}
	fmt.Println()
	startupPairs(builds)
	if recorder != nil {
		startupClasses(builds, others)
	}
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
	return processCost{cpu: st.UserTime() + st.SystemTime(), wall: wall, pid: st.Pid()}
}

// roundOrder gives, at each call, an order of @p n runs for one round: a
// permutation drawn anew every round (fixed seed, so every run of the bench
// draws the same ones). A rotation would give each run the same predecessor
// in every round, and a process costs more or less after some others (the
// previous one's exit still tearing down its memory, what it left in the
// caches): an A/A pair measured that way differed by 4 ms of CPU with
// intervals that excluded zero.
func roundOrder(n int) func() []int {
	draw := rand.New(rand.NewSource(2))
	return func() []int { return draw.Perm(n) }
}

// bootstrapResamples is how many resamples medianInterval draws: enough
// that the interval's ends move by well under the figures' 0.1 ms.
const bootstrapResamples = 4000

// medianInterval is a 95% confidence interval of the median of @p values
// (percentile bootstrap): how far the median of this many paired rounds can
// be trusted, which their interquartile range alone does not say. The random
// generator's seed is fixed, so the same samples always give the same interval.
func medianInterval(values []time.Duration) (low, high time.Duration) {
	if len(values) == 0 {
		return 0, 0
	}
	draw := rand.New(rand.NewSource(1))
	medians := make([]time.Duration, bootstrapResamples)
	resample := make([]time.Duration, len(values))
	for i := range medians {
		for j := range resample {
			resample[j] = values[draw.Intn(len(values))]
		}
		medians[i] = medianOf(resample)
	}
	return quantileOf(medians, 0.025), quantileOf(medians, 0.975)
}

// metWithin says whether the median meets the target, and whether the whole
// confidence interval does (the median alone can land below it by chance).
func metWithin(median, high, target time.Duration) string {
	switch {
	case high <= target:
		return "yes, the whole interval"
	case median <= target:
		return "median only (the interval reaches " + ms(high) + ")"
	default:
		return "no"
	}
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

func medianOf(values []time.Duration) time.Duration { return quantileOf(values, 0.5) }

// quantileOf interpolates linearly between the two nearest ranks.
func quantileOf(values []time.Duration, q float64) time.Duration {
	if len(values) == 0 {
		return 0
	}
	sorted := append([]time.Duration(nil), values...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	at := q * float64(len(sorted)-1)
	low := int(at)
	if low+1 >= len(sorted) {
		return sorted[low]
	}
	return sorted[low] + time.Duration((at-float64(low))*float64(sorted[low+1]-sorted[low]))
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
