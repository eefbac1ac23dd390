package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The zygote's part of native mode, alone: a fresh /usr/bin/python3 that
// imports the guest's hot module, with and without hot.setup (which loads
// the loader, the runtime and loader libraries and libstdc++), interleaved.
// A process of about 20 ms instead of the CLI's 200 ms: contention, which
// only adds CPU time and roughly in proportion, moves it ten times less, so
// the difference is resolved to a fraction of a millisecond where the whole
// CLI's is not.
const zygoteStub = "import sys, types\n" +
	"sys.modules['_spine'] = types.ModuleType('_spine')  # hot needs the crossing only to run a program\n" +
	"sys.path.insert(0, sys.argv[1])\n" +
	"import ast, json, os, hot\n"

func zygoteSetupSection(rounds int) {
	toolchain := os.Getenv("SPINE_NATIVE")
	if toolchain == "" {
		toolchain = "build/spine-native"
	}
	python, err := filepath.Abs(filepath.Join(toolchain, "python"))
	if err != nil {
		fail(err)
	}
	guest, err := filepath.Abs("guest")
	if err != nil {
		fail(err)
	}
	without := zygoteStub
	with := zygoteStub + "hot.setup(sys.argv[2])\n"
	run := func(code string) time.Duration {
		cmd := exec.Command("/usr/bin/python3", "-I", "-S", "-c", code, guest, python)
		if out, err := cmd.CombinedOutput(); err != nil {
			fail(fmt.Errorf("python3 with hot.setup: %v: %s", err, out))
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	run(with) // the page cache warm for both
	var base, diffs []time.Duration
	for r := 0; r < rounds; r++ {
		var a, b time.Duration
		if r%2 == 0 {
			a = run(without)
			b = run(with)
		} else {
			b = run(with)
			a = run(without)
		}
		base = append(base, a)
		diffs = append(diffs, b-a)
	}
	low, high := medianInterval(diffs)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Println("### The zygote's part alone")
	fmt.Println()
	fmt.Printf("A fresh `/usr/bin/python3 -I -S` importing the guest's `hot` (the zygote has it either way), with and "+
		"without `hot.setup(<toolchain>/python)` (the loader, `libspine_runtime.so`, `libspine_loader.so`, their "+
		"extensions and libstdc++), %d interleaved pairs; CPU of each process (wait4). Load average at the end: %s.\n\n",
		rounds, firstField(string(load)))
	fmt.Println("| CPU, python3 importing hot | **CPU of hot.setup** (95% CI) | IQR of the pairs' differences |")
	fmt.Println("| ---: | ---: | ---: |")
	fmt.Printf("| %s | **%s** (%s to %s) | %s to %s |\n\n", ms(medianOf(base)), ms(medianOf(diffs)), ms(low), ms(high),
		ms(quantileOf(diffs, 0.25)), ms(quantileOf(diffs, 0.75)))
}
