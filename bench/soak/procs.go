package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// What the harness measures of its own process, and the sandbox's processes,
// through /proc.

type process struct {
	pid, ppid int
	state     string
	comm      string
	started   int64 // clock ticks after boot
}

// processes lists every process /proc shows.
func processes() []process {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []process
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := stat(pid); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// stat reads one process's /proc entry (false: it is gone).
func stat(pid int) (process, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return process{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return process{}, false
	}
	p := process{pid: pid, comm: s[open+1 : end]}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 20 {
		return process{}, false
	}
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime
	p.state = fields[0]
	p.ppid, err = strconv.Atoi(fields[1])
	if err == nil {
		p.started, err = strconv.ParseInt(fields[19], 10, 64)
	}
	return p, err == nil
}

// sandboxChildren lists the live (not zombie) descendants of this process's
// spine-guest zygotes: the children the sandbox forked (and anything they
// might have forked in turn).
func sandboxChildren() []process {
	byParent := map[int][]process{}
	for _, p := range processes() {
		byParent[p.ppid] = append(byParent[p.ppid], p)
	}
	var out []process
	var walk func(pid int)
	walk = func(pid int) {
		for _, c := range byParent[pid] {
			if c.state != "Z" {
				out = append(out, c)
			}
			walk(c.pid)
		}
	}
	for _, z := range byParent[os.Getpid()] {
		if isZygote(z) {
			walk(z.pid)
		}
	}
	return out
}

// isZygote reports whether p, a child of this process, is a sandbox zygote:
// the spine-guest launcher before its exec, or the python3 it becomes,
// which names the zygote's module among its arguments (guest-c/sandbox/
// launch.c). The name alone is python3's after the exec.
func isZygote(p process) bool {
	if p.comm == "spine-guest" {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
	if err != nil {
		return false
	}
	for _, arg := range strings.Split(string(data), "\x00") {
		if strings.HasSuffix(arg, "/"+zygoteModule) {
			return true
		}
	}
	return false
}

// zygoteModule is the extension module the launcher has python3 load.
const zygoteModule = "_spine_zygote.so"

// clockTicks is USER_HZ, the unit of /proc's start times: 100 on Linux's
// every architecture Go supports.
const clockTicks = 100

// age is how long ago p started.
func age(p process) time.Duration {
	data, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	var up float64
	fmt.Sscan(string(data), &up)
	return time.Duration(up*float64(time.Second)) - time.Duration(p.started)*time.Second/clockTicks
}

func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}

// rssKiB is this process's resident set (VmRSS).
func rssKiB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kib int64
			fmt.Sscan(rest, &kib)
			return kib
		}
	}
	return -1
}
