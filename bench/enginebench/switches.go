package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Context switches per paced execution: a figure the machine's load moves
// far less than a wall-clock tail, counting the wake-ups an execution costs
// across this process, the sandbox's zygote and every child it forks. This
// process's own come from getrusage (all its threads); the zygote's side
// from perf counters on each task of the processes the paced engine
// started, inherited by every process and thread they create afterwards (a
// child's count joins its parent's counter when it exits): every switch
// (the context-switches software event) and the voluntary ones
// (sched:sched_switch with the task going to sleep, S or D: one per wait,
// so one wake-up each; the involuntary rest are preemptions, which grow
// with the machine's load). It needs perf_event_paranoid <= 1 or root (the
// voluntary count also tracefs); otherwise the figure says why it is
// missing.

// switchCount is a snapshot of the context switches so far.
type switchCount struct {
	hostVoluntary, hostInvoluntary int64
	guest, guestVoluntary          int64 // the zygote, its children and their threads
}

// switchWatch holds the perf counters on a sandbox engine's processes.
type switchWatch struct {
	fds, voluntary []int // voluntary: empty when the tracepoint is not available
	err            error
}

// sleepFilter keeps the sched_switch events of a task going to sleep
// (TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE; a preempted task is R, with
// the preemption bit).
const sleepFilter = "prev_state == 1 || prev_state == 2"

// switchTracepoint is the id of sched:sched_switch, or 0.
func switchTracepoint() uint64 {
	for _, root := range []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"} {
		if data, err := os.ReadFile(root + "/events/sched/sched_switch/id"); err == nil {
			id, _ := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
			return id
		}
	}
	return 0
}

// openCounter opens an inherited counter on task tid; filter, if set, is
// the tracepoint's.
func openCounter(kind uint32, config uint64, tid int, filter string) (int, error) {
	attr := unix.PerfEventAttr{Type: kind, Config: config, Bits: unix.PerfBitInherit}
	attr.Size = uint32(binary.Size(attr))
	fd, err := unix.PerfEventOpen(&attr, tid, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil || filter == "" {
		return fd, err
	}
	text := append([]byte(filter), 0)
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.PERF_EVENT_IOC_SET_FILTER, uintptr(unsafe.Pointer(&text[0]))); errno != 0 {
		unix.Close(fd)
		return -1, errno
	}
	return fd, nil
}

// childPIDs is this process's direct child processes.
func childPIDs() map[int]bool {
	pids := map[int]bool{}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, task := range tasks {
		list, _ := os.ReadFile(task)
		for _, field := range strings.Fields(string(list)) {
			if pid, err := strconv.Atoi(field); err == nil {
				pids[pid] = true
			}
		}
	}
	return pids
}

// watchSwitches opens a counter on every task of the child processes that
// are not in before (those an engine started since), and of their
// descendants.
func watchSwitches(before map[int]bool) *switchWatch {
	w := &switchWatch{}
	var roots []int
	for pid := range childPIDs() {
		if !before[pid] {
			roots = append(roots, pid)
		}
	}
	if len(roots) == 0 {
		w.err = fmt.Errorf("no new child process to watch")
		return w
	}
	tracepoint := switchTracepoint()
	for len(roots) > 0 {
		pid := roots[0]
		roots = roots[1:]
		tids, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
		for _, dir := range tids {
			tid, _ := strconv.Atoi(filepath.Base(dir))
			fd, err := openCounter(unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CONTEXT_SWITCHES, tid, "")
			if err != nil {
				w.close()
				w.err = fmt.Errorf("perf_event_open: %w (needs perf_event_paranoid <= 1 or root)", err)
				return w
			}
			w.fds = append(w.fds, fd)
			if tracepoint != 0 {
				if fd, err := openCounter(unix.PERF_TYPE_TRACEPOINT, tracepoint, tid, sleepFilter); err == nil {
					w.voluntary = append(w.voluntary, fd)
				} else {
					tracepoint = 0 // all or none: a partial count would mislead
					closeAll(w.voluntary)
					w.voluntary = nil
				}
			}
			children, _ := os.ReadFile(dir + "/children")
			for _, field := range strings.Fields(string(children)) {
				if child, err := strconv.Atoi(field); err == nil {
					roots = append(roots, child)
				}
			}
		}
	}
	return w
}

// read is the count now.
func (w *switchWatch) read() switchCount {
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	c := switchCount{hostVoluntary: self.Nvcsw, hostInvoluntary: self.Nivcsw}
	c.guest, c.guestVoluntary = sumCounters(w.fds), sumCounters(w.voluntary)
	return c
}

func sumCounters(fds []int) int64 {
	var buf [8]byte
	var sum int64
	for _, fd := range fds {
		if n, err := unix.Read(fd, buf[:]); err == nil && n == 8 {
			sum += int64(binary.LittleEndian.Uint64(buf[:]))
		}
	}
	return sum
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

func (w *switchWatch) close() {
	closeAll(w.fds)
	closeAll(w.voluntary)
	w.fds, w.voluntary = nil, nil
}

// perExecution describes the switches between two counts over n executions.
func (w *switchWatch) perExecution(before, after switchCount, n int) string {
	if w.err != nil {
		return "not counted: " + w.err.Error()
	}
	per := func(d int64) float64 { return float64(d) / float64(n) }
	guestVoluntary := "not counted: no sched:sched_switch tracepoint"
	if len(w.voluntary) > 0 {
		guestVoluntary = fmt.Sprintf("%.1f", per(after.guestVoluntary-before.guestVoluntary))
	}
	return fmt.Sprintf("host %.1f (voluntary %.1f), zygote and children %.1f (voluntary %s)",
		per(after.hostVoluntary-before.hostVoluntary+after.hostInvoluntary-before.hostInvoluntary),
		per(after.hostVoluntary-before.hostVoluntary), per(after.guest-before.guest), guestVoluntary)
}

// switchTally adds up the switches of the runs of one peer (others run
// between them, in this process too).
type switchTally struct {
	w     *switchWatch
	total switchCount
	n     int
}

// around runs f, which makes n executions, counting its switches.
func (t *switchTally) around(n int, f func()) {
	if t == nil {
		f()
		return
	}
	before := t.w.read()
	f()
	after := t.w.read()
	t.total.hostVoluntary += after.hostVoluntary - before.hostVoluntary
	t.total.hostInvoluntary += after.hostInvoluntary - before.hostInvoluntary
	t.total.guest += after.guest - before.guest
	t.total.guestVoluntary += after.guestVoluntary - before.guestVoluntary
	t.n += n
}

func (t *switchTally) String() string {
	return t.w.perExecution(switchCount{}, t.total, max(t.n, 1))
}
