package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The classic kernels as their authors write them (typing names, `-> None`
// helpers changing lists in place, classes, module constants), unchanged
// for native code: each runs natively, under CPython, and as mypyc's build
// of the same file, in the same run.
//
//go:embed kernels/*.py
var kernelFiles embed.FS

type kernel struct {
	module, entry string
	arg, reps     int
}

var kernels = []kernel{
	{"nbody", "bench_nbody", 20000, 3},
	{"spectral_norm", "bench_spectral_norm", 120, 3},
	{"nqueens", "bench_nqueens", 9, 3},
	{"fannkuch", "bench_fannkuch", 8, 3},
	{"sieve", "bench_sieve", 200000, 3},
	{"lcs", "bench_lcs", 500, 3},
	{"heapsort", "bench_heapsort", 100000, 3},
	{"richards", "bench_richards", 10, 3},
}

// kernelDriver times the entry point inside the program (the fastest of reps calls).
const kernelDriver = `
import time
best = None
for _ in range(inputs["reps"]):
    start = time.perf_counter()
    answer = %s(inputs["arg"])
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
result = [answer, best]
`

type mypycResult struct {
	CPython float64  `json:"cpython"`
	Mypyc   float64  `json:"mypyc"`
	Answer  string   `json:"answer"`
	Error   []string `json:"error"`
}

func kernelSection(engine *host.Engine) {
	fmt.Println("## Kernels as their authors write them: native, CPython and mypyc, same run")
	fmt.Println()
	fmt.Println("Each file of `bench/nativebench/kernels/` as its authors wrote it (typing names, `-> None` helpers " +
		"that change lists in place, classes with inheritance and Optional links, module constants and a module-level " +
		"instance; richards is mypyc's typed version with only its imports and harness adapted, see its docstring): in process with `Native: off` and `eager` (the program times " +
		"its entry point, fastest of 3 calls), and built by mypyc (from PyPI, in a venv made from /usr/bin/python3, " +
		"`bench/nativebench/mypyc.sh`) and timed in that venv's CPython (fastest of 3). Answers compared equal. " +
		"The native column counts the file's functions compiled natively (helpers whose signature holds a class " +
		"instance run natively inside their callers and are counted so).")
	fmt.Println()
	var table [][]interface{}
	for _, k := range kernels {
		table = append(table, []interface{}{k.module, k.entry, k.arg, k.reps})
	}
	spec, _ := json.Marshal(table)
	peers := map[string]mypycResult{}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", "bench/nativebench/mypyc.sh", "bench/nativebench/kernels", string(spec))
	cmd.Stderr = &stderr
	mypycWhy := ""
	if out, err := cmd.Output(); err != nil || json.Unmarshal(out, &peers) != nil {
		mypycWhy = fmt.Sprintf("mypyc peer unavailable: %v %s", err, oneLine(stderr.String()))
	}
	fmt.Println("| kernel | native functions | CPython | native | mypyc | native vs CPython | native vs mypyc | target: at least mypyc |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
	eligible, total := 0, 0
	for _, k := range kernels {
		source, err := kernelFiles.ReadFile("kernels/" + k.module + ".py")
		if err != nil {
			fail(err)
		}
		program := string(source) + fmt.Sprintf(kernelDriver, k.entry)
		inputs := fmt.Sprintf(`{"arg": %d, "reps": %d}`, k.arg, k.reps)
		python, pyAnswer, _ := execute(engine, program, inputs, host.NativeOff)
		native, nativeAnswer, resp := execute(engine, program, inputs, host.NativeEager)
		if pyAnswer != nativeAnswer {
			fail(fmt.Errorf("%s: native answered %s, CPython %s", k.module, nativeAnswer, pyAnswer))
		}
		counted, natives, why := countNative(resp, k.entry)
		eligible += natives
		total += counted
		status := fmt.Sprintf("%d of %d", natives, counted)
		if why != "" {
			status += ": " + oneLine(why)
		}
		peer, ok := peers[k.module]
		mypyc, vsMypyc, verdict := "", "", "not measured: "+mypycWhy
		if ok && len(peer.Error) > 0 {
			verdict = "not measured: mypyc: " + oneLine(strings.Join(peer.Error, " "))
		} else if ok {
			m := time.Duration(peer.Mypyc * float64(time.Second))
			mypyc = ms(m)
			vsMypyc = fmt.Sprintf("%.2fx", float64(m)/float64(native))
			verdict = met(native <= m)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | **%.1fx** | %s | %s |\n", k.module, status, ms(python), ms(native),
			mypyc, float64(python)/float64(native), vsMypyc, verdict)
	}
	fmt.Println()
	fmt.Printf("Eligibility over these files: **%d of %d** functions native (%.0f%%).\n\n", eligible, total,
		100*float64(eligible)/float64(total))
}

// countNative: how many of the program's functions run natively (a helper
// that cannot be called from Python counts when a native unit contains it),
// and why the entry point stayed Python, if it did.
func countNative(resp *host.Response, entry string) (int, int, string) {
	native := map[string]bool{}
	why := ""
	for _, f := range resp.Native {
		if f.Status == "native" {
			native[f.Name] = true
		}
		if f.Name == entry && f.Status != "native" {
			why = f.Reason
		}
	}
	count := 0
	for _, f := range resp.Native {
		if native[f.Name] || (strings.Contains(f.Reason, "native code may call it") && native[entry]) {
			count++
		}
	}
	return len(resp.Native), count, why
}
