package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The CPU of each kind of process a `spine run` makes: the CLI (the Go host
// with its threads), the zygote, and the zygote's sandboxed children. The
// whole process tree's CPU (wait4) moves by several milliseconds from one
// process to the next, mostly in the host and the zygote, so native mode's
// few milliseconds are read better class by class: each class's
// eager-minus-off then has the spread of that class alone, and the sum of
// the classes is the tree's figure again.
//
// The figures come from the scheduler's own accounting, not from samples:
// `perf record -a` of sched_stat_runtime (each task's run time as the
// scheduler charges it), with sched_process_fork and sched_process_exec to
// place every task under the CLI process it descends from.
type classCPU struct{ host, zygote, child, other time.Duration }

func (c classCPU) total() time.Duration { return c.host + c.zygote + c.child + c.other }

// schedRecorder is one system-wide `perf record` of the scheduler's events.
type schedRecorder struct {
	cmd    *exec.Cmd
	file   string
	stderr strings.Builder
}

var schedEvents = []string{"sched:sched_stat_runtime", "sched:sched_process_fork", "sched:sched_process_exec"}

// startSchedRecord starts recording into @p dir; it fails the bench when
// perf cannot record the whole system (it needs root, or
// kernel.perf_event_paranoid at -1).
func startSchedRecord(dir string) *schedRecorder {
	r := &schedRecorder{file: filepath.Join(dir, "sched.data")}
	args := []string{"record", "-q", "-a", "-m", "4096", "-o", r.file}
	for _, e := range schedEvents {
		args = append(args, "-e", e)
	}
	r.cmd = exec.Command("perf", args...)
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		fail(fmt.Errorf("-startup-classes needs perf: %v", err))
	}
	// perf opens its events before it records anything; a process started
	// before that would lose its first milliseconds.
	time.Sleep(2 * time.Second)
	if r.cmd.ProcessState != nil || r.cmd.Process.Signal(syscall.Signal(0)) != nil {
		fail(fmt.Errorf("perf record stopped at once: %s", r.stderr.String()))
	}
	return r
}

var (
	childPidField = regexp.MustCompile(`child_pid=(\d+)`)
	runtimeField  = regexp.MustCompile(`runtime=(\d+) \[ns\]`)
	filenameField = regexp.MustCompile(`filename=(\S+)`)
)

// stop ends the recording and returns the CPU of each class under every CLI
// process in @p clis (their pids), and how many processes of the "other"
// class it found (a compile service, a helper: none in a cached run).
func (r *schedRecorder) stop(clis map[int]bool) (map[int]classCPU, int) {
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	_ = r.cmd.Wait()
	if strings.Contains(strings.ToLower(r.stderr.String()), "lost") {
		fail(fmt.Errorf("perf lost events, the figures would be short: %s", r.stderr.String()))
	}
	script := exec.Command("perf", "script", "-i", r.file, "-F", "pid,tid,event,trace")
	out, err := script.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := script.Start(); err != nil {
		fail(err)
	}
	parent := map[int]int{}            // a task -> the process (tgid) that forked it
	exe := map[int]string{}            // a process -> the last file it executed
	charged := map[int]time.Duration{} // a process (tgid) -> its tasks' run time
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 1<<16), 1<<20)
	for lines.Scan() {
		line := lines.Text()
		tgid, rest, ok := leadingTgid(line)
		if !ok {
			continue
		}
		switch {
		case strings.Contains(rest, "sched:sched_stat_runtime:"):
			if m := runtimeField.FindStringSubmatch(rest); m != nil {
				ns, _ := strconv.ParseInt(m[1], 10, 64)
				charged[tgid] += time.Duration(ns)
			}
		case strings.Contains(rest, "sched:sched_process_fork:"):
			if m := childPidField.FindStringSubmatch(rest); m != nil {
				child, _ := strconv.Atoi(m[1])
				parent[child] = tgid
			}
		case strings.Contains(rest, "sched:sched_process_exec:"):
			if m := filenameField.FindStringSubmatch(rest); m != nil {
				exe[tgid] = m[1]
			}
		}
	}
	if err := script.Wait(); err != nil {
		fail(fmt.Errorf("perf script: %v", err))
	}
	perCLI := map[int]classCPU{}
	others := 0
	for tgid, cpu := range charged {
		cli, path := ancestry(tgid, parent, clis)
		if cli == 0 {
			continue
		}
		c := perCLI[cli]
		top := "" // what the process the CLI forked executed
		if len(path) > 0 {
			top = exe[path[len(path)-1]]
		}
		switch {
		case len(path) == 0 || top == "":
			// A process the CLI forks and that never executes a program (a
			// probe of what the kernel allows) does the CLI's own work.
			c.host += cpu
		case !isGuestExecutable(top):
			c.other += cpu
			others++
		case len(path) == 1:
			c.zygote += cpu
		default:
			c.child += cpu
		}
		perCLI[cli] = c
	}
	return perCLI, others
}

// leadingTgid splits "PID/TID event: trace" into the process id and the rest.
func leadingTgid(line string) (int, string, bool) {
	line = strings.TrimLeft(line, " ")
	slash := strings.IndexByte(line, '/')
	if slash <= 0 {
		return 0, "", false
	}
	tgid, err := strconv.Atoi(line[:slash])
	return tgid, line[slash:], err == nil
}

// ancestry walks from @p tgid up the forks to a CLI process: that CLI's pid
// (0 if none) and the processes on the way, @p tgid first.
func ancestry(tgid int, parent map[int]int, clis map[int]bool) (int, []int) {
	var path []int
	for t := tgid; len(path) < 64; {
		if clis[t] {
			return t, path
		}
		path = append(path, t)
		up, ok := parent[t]
		if !ok || up == t {
			return 0, nil
		}
		t = up
	}
	return 0, nil
}

// isGuestExecutable: the process the CLI starts for its sandbox (spine-guest,
// which runs the interpreter) is the zygote; anything else it starts is not.
func isGuestExecutable(path string) bool {
	base := filepath.Base(path)
	return base == "spine-guest" || strings.HasPrefix(base, "python3")
}

// perfCanRecord reports why perf could not record the whole system here, or "".
func perfCanRecord() string {
	if _, err := exec.LookPath("perf"); err != nil {
		return "perf is not installed"
	}
	if os.Geteuid() != 0 {
		paranoid, _ := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
		if strings.TrimSpace(string(paranoid)) != "-1" {
			return "recording the scheduler's events needs root or kernel.perf_event_paranoid=-1"
		}
	}
	return ""
}

// attributeClasses stops @p r and gives every measured process its classes;
// it returns how many processes of the "other" class the recording held.
func attributeClasses(r *schedRecorder, builds []*startupBuild) int {
	clis := map[int]bool{}
	for _, b := range builds {
		for _, s := range append(append([]processCost(nil), b.off...), b.eager...) {
			clis[s.pid] = true
		}
	}
	perCLI, others := r.stop(clis)
	for _, b := range builds {
		for _, samples := range [][]processCost{b.off, b.eager} {
			for i := range samples {
				c, ok := perCLI[samples[i].pid]
				if !ok || c.host == 0 || c.zygote == 0 || c.child == 0 {
					fail(fmt.Errorf("the recording lacks a class of process %d: %+v", samples[i].pid, c))
				}
				samples[i].class = c
			}
		}
	}
	return others
}

// startupClasses prints each build's CPU by class of process: the median of
// each mode, and eager minus off as the median of the per-round differences
// with its 95% interval.
func startupClasses(builds []*startupBuild, others int) {
	fmt.Printf("By class of process (the scheduler's own accounting of every task, `perf record -a` of %s; "+
		"host: the CLI and its threads, zygote: the process it starts for the sandbox, child: the zygote's "+
		"children; %d processes of any other class were found):\n\n", strings.Join(schedEvents, ", "), others)
	fmt.Println("| build | class | CPU, `--native off` | CPU, `--native eager` | **eager minus off** (95% CI) | IQR |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: |")
	classes := []struct {
		name string
		of   func(classCPU) time.Duration
	}{
		{"host", func(c classCPU) time.Duration { return c.host }},
		{"zygote", func(c classCPU) time.Duration { return c.zygote }},
		{"child", func(c classCPU) time.Duration { return c.child }},
		{"all (recorded)", classCPU.total},
	}
	for _, b := range builds {
		for _, class := range classes {
			var off, eager, diff []time.Duration
			for i := range b.off {
				o, e := class.of(b.off[i].class), class.of(b.eager[i].class)
				off, eager, diff = append(off, o), append(eager, e), append(diff, e-o)
			}
			fmt.Printf("| %s | %s | %s | %s | %s | %s to %s |\n", b.label, class.name, ms(medianOf(off)),
				ms(medianOf(eager)), withInterval(diff), ms(quantileOf(diff, 0.25)), ms(quantileOf(diff, 0.75)))
		}
	}
	fmt.Println()
}
