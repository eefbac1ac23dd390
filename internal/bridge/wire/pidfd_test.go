package wire

import (
	"os/exec"
	"syscall"
	"testing"
)

// sleeperPidfd is startSleeper whose pidfd is closed when the test ends.
func sleeperPidfd(t *testing.T) (*exec.Cmd, int) {
	t.Helper()
	cmd, pidfd := startSleeper(t)
	t.Cleanup(func() { syscall.Close(pidfd) })
	return cmd, pidfd
}

func TestPidOfPidfdNamesTheProcess(t *testing.T) {
	cmd, pidfd := sleeperPidfd(t)
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
	cmd, pidfd := sleeperPidfd(t)
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
