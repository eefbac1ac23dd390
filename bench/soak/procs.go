package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// What the harness measures of its own process, and the sandbox's processes,
// through /proc.

type process struct {
	pid, ppid int
	state     string
	comm      string
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
	_, err = fmt.Sscan(s[end+1:], &p.state, &p.ppid)
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
		if z.comm == "spine-guest" {
			walk(z.pid)
		}
	}
	return out
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
