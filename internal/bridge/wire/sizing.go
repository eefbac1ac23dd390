package wire

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// childrenPerCPU is how many children a core may carry by default. Most of
// an execution's time is spent waiting for its tools, so a core serves many
// at once; a CPU-bound program shares its core with the others, and at this
// many its deadline, not the pool, is what stops it (RATIONALE: "How many
// children").
const childrenPerCPU = 8

// defaultMaxChildren sizes the pool for the machine: childrenPerCPU per
// core, and no more than the machine's memory (or its cgroup's limit) holds
// if every child filled its memory limit, so that no set of programs can
// make the host run out of memory together. At least one.
func defaultMaxChildren(memoryBytes uint64) int {
	n := childrenPerCPU * runtime.NumCPU()
	if total := machineMemory(); total > 0 && memoryBytes > 0 {
		n = int(min(uint64(n), total/memoryBytes))
	}
	return max(n, 1)
}

// machineMemory is the physical memory, or the memory limit of this
// process's cgroup if that is lower (0 if neither can be read).
func machineMemory() uint64 {
	var info syscall.Sysinfo_t
	var total uint64
	if syscall.Sysinfo(&info) == nil {
		total = uint64(info.Totalram) * uint64(info.Unit)
	}
	if limit := cgroupMemoryLimit(); limit > 0 && (total == 0 || limit < total) {
		total = limit
	}
	return total
}

// cgroupMemoryLimit is the memory limit of this process's cgroup (v2
// memory.max, or v1 memory.limit_in_bytes), tried at the cgroup's path and,
// for a container whose cgroup is its mount's root, at the root; 0 when
// there is none ("max") or it cannot be read.
func cgroupMemoryLimit() uint64 {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.SplitN(line, ":", 3)
		if len(fields) != 3 {
			continue
		}
		var dir, file string
		switch {
		case fields[0] == "0" && fields[1] == "":
			dir, file = "/sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(fields[1], ","), "memory"):
			dir, file = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for _, path := range []string{dir + strings.TrimSuffix(fields[2], "/") + "/" + file, dir + "/" + file} {
			raw, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			if limit, err := strconv.ParseUint(strings.TrimSpace(string(raw)), 10, 64); err == nil {
				return limit
			}
			break // "max": no limit here
		}
	}
	return 0
}
