package wire

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// The raw system calls on the zygote's control channel. Go's syscall
// package does not retry EINTR, and a signal reaches a host thread often:
// the runtime itself preempts goroutines with SIGURG. A blocking call that
// the kernel restarts on its own (SA_RESTART) rarely sees EINTR, but one
// with a socket timeout always does (signal(7): "interfaces with a timeout
// set via setsockopt ... fail with EINTR"), which is how a start-up
// handshake failed with "interrupted system call". Every call here retries.

// writeMessage sends one datagram. On a SOCK_SEQPACKET socket a send that
// failed with EINTR sent nothing, so sending it again cannot duplicate it.
func writeMessage(fd int, msg []byte) error {
	for {
		_, err := syscall.Write(fd, msg)
		if err != syscall.EINTR {
			return err
		}
	}
}

// recvWithin receives one datagram, waiting at most d in all: an
// interrupted wait resumes with the time that is left, so a signal storm
// neither fails the receive nor stretches its bound.
func recvWithin(fd int, buf []byte, d time.Duration) (int, error) {
	deadline := time.Now().Add(d)
	defer syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &syscall.Timeval{})
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return 0, fmt.Errorf("nothing arrived within %v", d)
		}
		// A zero timeval means "wait forever": never round down to it.
		tv := syscall.NsecToTimeval(max(left, time.Millisecond).Nanoseconds())
		if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
			return 0, err
		}
		n, _, _, _, err := syscall.Recvmsg(fd, buf, nil, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case errors.Is(err, syscall.EAGAIN):
			return 0, fmt.Errorf("nothing arrived within %v", d)
		}
		return n, err
	}
}
