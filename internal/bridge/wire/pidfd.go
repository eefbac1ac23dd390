package wire

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// A child's process id as this process sees it. The zygote reports the id
// in the child's own PID namespace; the host needs its own view to set the
// child's scheduling policy (priority.go), and reads it from the child's
// pidfd, which names the process in the caller's namespace whatever the
// child's.
//
// Since Linux 6.13 one ioctl on the pidfd answers (PIDFD_GET_INFO), in
// under a microsecond. Before it, the only way is the pidfd's fdinfo, a
// procfs file printed for the reader: an open, a read and a close, about
// ten times the cost, once per child. So the ioctl comes first, and the
// fdinfo answers where the kernel does not know it.

// pidfdGetInfo is PIDFD_GET_INFO, _IOWR(0xFF, 11, struct pidfd_info) with
// the first version of the struct (64 bytes), the same on x86_64 and arm64.
const pidfdGetInfo = 3<<30 | 64<<16 | 0xFF<<8 | 11

// pidfdInfoPID asks PIDFD_GET_INFO for the pid (PIDFD_INFO_PID).
const pidfdInfoPID = 1

// pidfdInfo is struct pidfd_info as far as its first version goes.
type pidfdInfo struct {
	mask     uint64
	cgroupID uint64
	pid      uint32
	rest     [11]uint32 // tgid, ppid, the credentials, exit_code
}

// pidOfPidfd is the pid of the process fd refers to, in this process's
// namespace: 0 when it cannot be known (the process is gone and reaped, or
// fd is no pidfd).
func pidOfPidfd(fd int) int {
	if pid, ok := pidFromInfo(fd); ok {
		return pid
	}
	return pidFromFdinfo(fd)
}

// pidFromInfo asks the kernel through PIDFD_GET_INFO; ok is false when the
// kernel does not have that ioctl (ENOTTY, EINVAL), so the caller falls
// back to the fdinfo.
func pidFromInfo(fd int) (pid int, ok bool) {
	info := pidfdInfo{mask: pidfdInfoPID}
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), pidfdGetInfo, uintptr(unsafe.Pointer(&info)))
	switch {
	case errno == 0 && info.mask&pidfdInfoPID != 0:
		return int(info.pid), true
	case errno == syscall.ENOTTY || errno == syscall.EINVAL:
		return 0, false
	default: // ESRCH: the process is gone; EBADF: no such descriptor
		return 0, true
	}
}

// pidFromFdinfo reads the "Pid:" line of the pidfd's fdinfo (-1 there once
// the process is gone).
func pidFromFdinfo(fd int) int {
	data, _ := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	for _, line := range strings.Split(string(data), "\n") {
		if value, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, _ := strconv.Atoi(strings.TrimSpace(value))
			return max(pid, 0)
		}
	}
	return 0
}
