package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTimes is this process's CPU time, and its child processes' (the
// sandbox's zygote) with everything they reaped (the zygote's children).
type cpuTimes struct{ self, children time.Duration }

func processCPU() cpuTimes {
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	return cpuTimes{time.Duration(self.Utime.Nano() + self.Stime.Nano()), childProcessesCPU()}
}

const clockTicks = 100 // USER_HZ, what /proc/PID/stat counts in on Linux

// childProcessesCPU sums utime, stime, cutime and cstime of this process's
// direct children (/proc/self/task/*/children, then /proc/PID/stat).
func childProcessesCPU() time.Duration {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var ticks int64
	for _, task := range tasks {
		list, _ := os.ReadFile(task)
		for _, pid := range strings.Fields(string(list)) {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				continue
			}
			// Fields after the command (which may hold spaces): state is
			// field 3; utime, stime, cutime, cstime are fields 14-17.
			fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			for _, f := range fields[11:15] {
				n, _ := strconv.ParseInt(f, 10, 64)
				ticks += n
			}
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

func (c cpuTimes) minus(before cpuTimes) (self, children time.Duration) {
	return c.self - before.self, c.children - before.children
}
