package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// inprocSection: in-process executions overlapping while they wait in a
// tool (16 at once, each waiting 100 ms, against the same 16 one after
// another), and the trivial program against its floor: the same work done
// by a C loop over the embedded interpreter, without Go or spine (floor/).
func inprocSection(n int) {
	wait := host.NewTool(host.ToolSpec{Name: "wait"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return json.RawMessage("null"), nil
	})
	engine, err := host.New(host.WithTools(append(demotools.Tools(), wait)...), host.WithIsolation(host.Inproc))
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginebench:", err)
		os.Exit(1)
	}
	defer engine.Close()
	waiting := host.Request{Source: "print('waiting')\nwait()\nresult = 1"}
	exec1(engine, waiting)
	start := time.Now()
	for i := 0; i < 16; i++ {
		exec1(engine, waiting)
	}
	serial := time.Since(start)
	var wg sync.WaitGroup
	start = time.Now()
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			exec1(engine, waiting)
		}()
	}
	wg.Wait()
	overlapped := time.Since(start)

	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	for i := 0; i < 200; i++ {
		exec1(engine, req)
	}
	samples := make([]time.Duration, n)
	cpuStart := processCPU()
	for i := range samples {
		samples[i] = exec1(engine, req)
	}
	spineCPU := (processCPU().self - cpuStart.self) / time.Duration(n)
	spine := summarize(samples)
	floor, floorCPU, why := floorMedian(n)

	fmt.Println("## In-process concurrency and the floor")
	fmt.Println()
	fmt.Println("`go run ./bench/enginebench -only inproc` (also part of `make bench`). Each execution runs on its")
	fmt.Println("caller's thread with a Python thread state of its own and releases the GIL while it waits in a tool.")
	fmt.Println()
	fmt.Println("| 16 executions, each waiting 100 ms in one tool | wall |")
	fmt.Println("| --- | ---: |")
	fmt.Printf("| one after another | %s |\n", ms(serial))
	fmt.Printf("| all at once | %s |\n", ms(overlapped))
	fmt.Println()
	fmt.Printf("Overlapped: %.1fx faster than serial (target: within 200 ms).\n", float64(serial)/float64(overlapped))
	fmt.Println()
	fmt.Printf("| trivial program, one tool call (`%s`), %d runs | median wall | CPU per run (all threads) |\n", trivial, n)
	fmt.Println("| --- | ---: | ---: |")
	fmt.Printf("| spine in process (Execute, from Go) | %s (p99 %s) | %s |\n", us(spine.median), us(spine.p99), us(spineCPU))
	if floor > 0 {
		fmt.Printf("| floor: C loop over the embedded CPython (json.loads, compile, exec, json.dumps) | %s | %s |\n", us(floor), us(floorCPU))
		fmt.Println()
		fmt.Printf("spine / floor: **%.2fx** wall, %.2fx CPU (target: at most 3x).\n",
			float64(spine.median)/float64(floor), float64(spineCPU)/float64(floorCPU))
	} else {
		fmt.Printf("| floor | not measured: %s | |\n", why)
	}
	fmt.Println()
}

// floorMedian builds floor/floor.c against the system's libpython (the one
// spine embeds) and returns its median wall time and CPU time per run; 0
// and why when it cannot.
func floorMedian(n int) (time.Duration, time.Duration, string) {
	dir, err := os.MkdirTemp("", "spine-floor")
	if err != nil {
		return 0, 0, err.Error()
	}
	defer os.RemoveAll(dir)
	flags, err := exec.Command("pkg-config", "--cflags", "--libs", "python3-embed").Output()
	if err != nil {
		return 0, 0, "pkg-config python3-embed: " + err.Error()
	}
	binary := filepath.Join(dir, "floor")
	args := append([]string{"-O2", "-o", binary, filepath.Join("bench", "enginebench", "floor", "floor.c")}, strings.Fields(string(flags))...)
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		return 0, 0, "cc: " + strings.TrimSpace(string(out))
	}
	out, err := exec.Command(binary, strconv.Itoa(n)).Output()
	if err != nil {
		return 0, 0, "floor: " + err.Error()
	}
	var wall, cpu int64
	if _, err := fmt.Sscan(string(out), &wall, &cpu); err != nil {
		return 0, 0, "floor printed " + string(out)
	}
	return time.Duration(wall), time.Duration(cpu), ""
}
