package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The zygote's part of native mode, alone: a fresh /usr/bin/python3 that
// imports the guest's hot module, with and without hot.setup (which loads
// the loader, the runtime and loader libraries and their extensions),
// interleaved. A process of about 20 ms instead of the CLI's 200 ms:
// contention, which only adds CPU time and roughly in proportion, moves it
// ten times less, so the difference is resolved to a fraction of a
// millisecond where the whole CLI's is not.
const zygoteStub = "import sys, types\n" +
	"sys.modules['_spine'] = types.ModuleType('_spine')  # hot needs the crossing only to run a program\n" +
	"sys.path.insert(0, sys.argv[1])\n" +
	"import ast, json, os, hot\n"

// zygoteToolchain is one toolchain whose hot.setup is measured, and its
// samples: hot.setup's CPU in each round (the process with it minus the
// round's process without it).
type zygoteToolchain struct {
	label, python string
	setup         []time.Duration
}

// zygoteSetupSection measures hot.setup with this build's toolchain and,
// with @p before (other toolchains' directories, comma-separated), theirs
// too in the same rounds: every round runs the process without hot.setup
// once and one with it per toolchain, in an order shuffled every round
// (roundOrder), so each toolchain's cost and their paired differences come from
// the same moments of the machine.
func zygoteSetupSection(rounds int, before string) {
	toolchain := os.Getenv("SPINE_NATIVE")
	if toolchain == "" {
		toolchain = "build/spine-native"
	}
	guest, err := filepath.Abs("guest")
	if err != nil {
		fail(err)
	}
	toolchains := []*zygoteToolchain{{label: "this build", python: toolchainPython(toolchain)}}
	for _, dir := range strings.Split(before, ",") {
		if dir != "" {
			toolchains = append(toolchains, &zygoteToolchain{label: dir, python: toolchainPython(dir)})
		}
	}
	run := func(python string) time.Duration {
		code := zygoteStub
		if python != "" {
			code += "hot.setup(sys.argv[2])\n"
		}
		cmd := exec.Command("/usr/bin/python3", "-I", "-S", "-c", code, guest, python)
		if out, err := cmd.CombinedOutput(); err != nil {
			fail(fmt.Errorf("python3 with hot.setup(%q): %v: %s", python, err, out))
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	for _, tc := range toolchains {
		run(tc.python) // the page cache warm for every toolchain
	}
	var base []time.Duration
	shuffle := roundOrder(len(toolchains) + 1)
	for r := 0; r < rounds; r++ {
		// Slot 0 is the process without hot.setup, slot i the i-th toolchain's.
		cpu := make([]time.Duration, len(toolchains)+1)
		for _, slot := range shuffle() {
			if slot == 0 {
				cpu[0] = run("")
			} else {
				cpu[slot] = run(toolchains[slot-1].python)
			}
		}
		base = append(base, cpu[0])
		for i, tc := range toolchains {
			tc.setup = append(tc.setup, cpu[i+1]-cpu[0])
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Println("### The zygote's part alone")
	fmt.Println()
	fmt.Printf("A fresh `/usr/bin/python3 -I -S` importing the guest's `hot` (the zygote has it either way), with and "+
		"without `hot.setup(<toolchain>/python)` (the loader, `libspine_runtime.so`, `libspine_loader.so` and their "+
		"extensions), %d rounds, each toolchain's process and the one without in an order shuffled every round; CPU of "+
		"each process (wait4). Load average at the end: %s.\n\n", rounds, firstField(string(load)))
	fmt.Println("| toolchain | CPU, python3 importing hot | **CPU of hot.setup** (95% CI) | IQR of the rounds' differences |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	for _, tc := range toolchains {
		low, high := medianInterval(tc.setup)
		fmt.Printf("| %s | %s | **%s** (%s to %s) | %s to %s |\n", tc.label, ms(medianOf(base)), ms(medianOf(tc.setup)),
			ms(low), ms(high), ms(quantileOf(tc.setup, 0.25)), ms(quantileOf(tc.setup, 0.75)))
	}
	fmt.Println()
	if len(toolchains) == 1 {
		return
	}
	fmt.Println("| toolchain minus this build, CPU of hot.setup | median of the rounds' differences (95% CI) |")
	fmt.Println("| --- | ---: |")
	for _, tc := range toolchains[1:] {
		diffs := make([]time.Duration, rounds)
		for r := range diffs {
			diffs[r] = tc.setup[r] - toolchains[0].setup[r]
		}
		low, high := medianInterval(diffs)
		fmt.Printf("| %s | **%s** (%s to %s) |\n", tc.label, ms(medianOf(diffs)), ms(low), ms(high))
	}
	fmt.Println()
}

func toolchainPython(dir string) string {
	python, err := filepath.Abs(filepath.Join(dir, "python"))
	if err != nil {
		fail(err)
	}
	return python
}
