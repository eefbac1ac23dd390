package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SlowCXX is a C++ compiler for tests of what happens to a compilation that
// takes long: a directory holding "g++", which is the real g++ except that a
// generated source naming a function slow_* first starts a real g++ whose
// cc1plus blocks reading a pipe that never ends (no CPU, killed with its
// process group). Every compilation appends its process group ID to Marks
// before anything else, so a test learns which group to watch. Put Dir first
// on PATH, or name Path as the compiler.
type SlowCXX struct {
	Dir, Path, Marks string
}

// NewSlowCXX writes the wrapper into a temporary directory.
func NewSlowCXX(t testing.TB) SlowCXX {
	t.Helper()
	real, err := exec.LookPath("g++")
	if err != nil {
		t.Fatalf("the tests of native code need g++: %v", err)
	}
	dir := t.TempDir()
	s := SlowCXX{Dir: dir, Path: filepath.Join(dir, "g++"), Marks: filepath.Join(dir, "marks")}
	script := fmt.Sprintf(`#!/bin/sh
case "$1" in --version|-dumpmachine) exec %[1]s "$@";; esac
read -r _ _ _ _ group _ < /proc/$$/stat
echo "$group" >> %[2]s
for arg; do case "$arg" in *.cc) source=$arg;; esac; done
if grep -q slow_ "$source"; then
  sleep 3600 | %[1]s -x c++ -fsyntax-only -
fi
exec %[1]s "$@"
`, real, s.Marks)
	if err := os.WriteFile(s.Path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // whatever the test found, leave no compiler running
		for _, group := range s.Groups() {
			syscall.Kill(-group, syscall.SIGKILL)
		}
	})
	return s
}

// Groups are the process groups of the compilations started so far, in order.
func (s SlowCXX) Groups() []int {
	data, _ := os.ReadFile(s.Marks)
	var groups []int
	for _, field := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(field); err == nil {
			groups = append(groups, n)
		}
	}
	return groups
}

// WaitCompiling waits until the n-th compilation (from 1) has a cc1plus in
// its process group, and returns the group.
func (s SlowCXX) WaitCompiling(t testing.TB, n int) int {
	t.Helper()
	var group int
	Eventually(t, fmt.Sprintf("compilation %d running cc1plus", n), func() bool {
		if groups := s.Groups(); len(groups) >= n {
			group = groups[n-1]
			for _, p := range GroupMembers(group) {
				if p.Command == "cc1plus" {
					return true
				}
			}
		}
		return false
	})
	return group
}

// Process is a live process of a group.
type Process struct {
	PID     int
	Command string
}

// GroupMembers lists the live (not zombie) processes of process group pgid.
func GroupMembers(pgid int) []Process {
	entries, _ := os.ReadDir("/proc")
	var out []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		stat := string(data)
		open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(stat[end+1:])
		if len(fields) < 3 || fields[0] == "Z" || fields[0] == "X" {
			continue
		}
		if group, _ := strconv.Atoi(fields[2]); group == pgid {
			out = append(out, Process{PID: pid, Command: stat[open+1 : end]})
		}
	}
	return out
}

// WaitGroupGone waits until process group pgid has no live process.
func WaitGroupGone(t testing.TB, pgid int) {
	t.Helper()
	deadline := time.Now().Add(eventually)
	for left := GroupMembers(pgid); len(left) > 0; left = GroupMembers(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has %+v after %v", pgid, left, eventually)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// eventually is the generous deadline of what a test waits for.
const eventually = 30 * time.Second

// Eventually polls cond until it holds, failing after a generous deadline:
// for events a test cannot be told of, such as another process's exit.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(eventually)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", eventually, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
