package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// What a child's creation costs, split between the zygote (its fork,
// mostly the page-table copy, which grows with its resident anonymous pages
// and its mappings) and the children it reaped (their start-up,
// confinement, warm-up, copy-on-write faults, execution and teardown). CPU
// time and page-fault counts move far less with the machine's load than
// wall-clock figures, so a change to the zygote or the child can be judged
// on a shared machine.

// zygoteCounters is one zygote's CPU time and minor page faults, its own
// and those of the children it reaped (/proc/PID/stat).
type zygoteCounters struct {
	cpu, childCPU       time.Duration
	faults, childFaults int64
}

// zygotePIDs is this process's child processes running spine's zygote.
func zygotePIDs() []int {
	var pids []int
	for pid := range childPIDs() {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && bytes.Contains(cmdline, []byte("_spine_zygote")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// readZygote is the zygote's counters now; ok is false when it cannot be read.
func readZygote(pid int) (c zygoteCounters, ok bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return c, false
	}
	// After the command (which may hold spaces): minflt, cminflt are
	// fields 10 and 11, utime, stime, cutime, cstime 14-17.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	n := func(field int) int64 {
		v, _ := strconv.ParseInt(fields[field-3], 10, 64)
		return v
	}
	ticks := func(a, b int) time.Duration { return time.Duration(n(a)+n(b)) * time.Second / clockTicks }
	return zygoteCounters{cpu: ticks(14, 15), childCPU: ticks(16, 17), faults: n(10), childFaults: n(11)}, true
}

// zygoteMemory is the zygote's resident anonymous memory and its number of
// mappings: what each fork copies an entry for, and walks.
func zygoteMemory(pid int) string {
	rollup, err1 := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	maps, err2 := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err1 != nil || err2 != nil {
		return "not readable"
	}
	anon := "?"
	for _, line := range strings.Split(string(rollup), "\n") {
		if rest, found := strings.CutPrefix(line, "Anonymous:"); found {
			anon = strings.TrimSpace(rest)
		}
	}
	return fmt.Sprintf("resident anonymous %s, %d mappings", anon, bytes.Count(maps, []byte("\n")))
}

// zygoteWatch measures one zygote over a stretch of executions.
type zygoteWatch struct {
	pid    int
	before zygoteCounters
	ok     bool
}

// watchZygote starts measuring the only zygote among this process's
// children (none or several: the figure says so).
func watchZygote() *zygoteWatch {
	pids := zygotePIDs()
	if len(pids) != 1 {
		return &zygoteWatch{pid: -len(pids)}
	}
	before, ok := readZygote(pids[0])
	return &zygoteWatch{pid: pids[0], before: before, ok: ok}
}

// perExecution is what n executions since watchZygote cost the zygote and
// its children, each, and the zygote's memory now.
func (w *zygoteWatch) perExecution(n int) string {
	if !w.ok {
		return fmt.Sprintf("not measured (%d zygotes among this process's children)", -w.pid)
	}
	after, ok := readZygote(w.pid)
	if !ok {
		return "not measured (the zygote is gone)"
	}
	per := func(d time.Duration) string { return us(d / time.Duration(n)) }
	perCount := func(c int64) string { return fmt.Sprintf("%.1f", float64(c)/float64(n)) }
	return fmt.Sprintf("zygote CPU %s, page faults %s; its children CPU %s, page faults %s; the zygote: %s",
		per(after.cpu-w.before.cpu), perCount(after.faults-w.before.faults),
		per(after.childCPU-w.before.childCPU), perCount(after.childFaults-w.before.childFaults), zygoteMemory(w.pid))
}
