package wire

import (
	"os/exec"
	"syscall"
	"testing"
)

// startSleeper starts a process and opens a pidfd on it.
func startSleeper(t *testing.T) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pidfd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(cmd.Process.Pid), 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	t.Cleanup(func() { syscall.Close(int(pidfd)) })
	return cmd, int(pidfd)
}

func TestPidOfPidfdNamesTheProcess(t *testing.T) {
	cmd, pidfd := startSleeper(t)
	want := cmd.Process.Pid
	if got := pidOfPidfd(pidfd); got != want {
		t.Fatalf("pidOfPidfd = %d, want %d", got, want)
	}
	// Both ways agree, so the fallback is right where the ioctl is missing.
	if got := pidFromFdinfo(pidfd); got != want {
		t.Fatalf("pidFromFdinfo = %d, want %d", got, want)
	}
	if got, ok := pidFromInfo(pidfd); ok && got != want {
		t.Fatalf("pidFromInfo = %d, want %d", got, want)
	} else if !ok {
		t.Logf("this kernel has no PIDFD_GET_INFO: the fdinfo answered")
	}
}

func TestPidOfPidfdIsZeroOnceTheProcessIsReaped(t *testing.T) {
	cmd, pidfd := startSleeper(t)
	cmd.Process.Kill()
	cmd.Wait()
	if got := pidOfPidfd(pidfd); got != 0 {
		t.Fatalf("pidOfPidfd of a reaped process = %d, want 0", got)
	}
	if got := pidFromFdinfo(pidfd); got != 0 {
		t.Fatalf("pidFromFdinfo of a reaped process = %d, want 0", got)
	}
}

func TestPidOfPidfdIsZeroForAnotherDescriptor(t *testing.T) {
	fds := make([]int, 2)
	if err := syscall.Pipe2(fds, syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	if got := pidOfPidfd(fds[0]); got != 0 {
		t.Fatalf("pidOfPidfd of a pipe = %d, want 0", got)
	}
}
