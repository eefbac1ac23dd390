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

// After the handshake the control channel is read and written through the
// runtime's poller (pollControl): a goroutine that waits for the zygote's
// next message parks instead of holding a thread in a blocking recvmsg.
// Blocked there, it kept the runtime's monitor thread (sysmon) retaking its
// processor and so polling every 20 µs for as long as the pool lived: about
// half the host's CPU per sandboxed execution went to those wake-ups.

// sendPolled sends one datagram on a non-blocking socket, waiting for room
// in the poller.
func sendPolled(raw syscall.RawConn, msg []byte) error {
	var werr error
	err := raw.Write(func(fd uintptr) bool {
		for {
			if _, werr = syscall.Write(int(fd), msg); werr != syscall.EINTR {
				return werr != syscall.EAGAIN
			}
		}
	})
	if err != nil {
		return err
	}
	return werr
}

// recvPolled receives one datagram and its control message on a
// non-blocking socket, waiting in the poller. n is 0 at the end of stream.
func recvPolled(raw syscall.RawConn, buf, oob []byte) (n, oobn int, err error) {
	var rerr error
	err = raw.Read(func(fd uintptr) bool {
		for {
			n, oobn, _, _, rerr = syscall.Recvmsg(int(fd), buf, oob, syscall.MSG_CMSG_CLOEXEC)
			if rerr != syscall.EINTR {
				return rerr != syscall.EAGAIN
			}
		}
	})
	if err != nil {
		return 0, 0, err
	}
	return n, oobn, rerr
}
