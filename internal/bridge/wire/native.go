package wire

import (
	"fmt"
	"os"
	"syscall"
)

// sendNativeSetup sends the 'N' control frame, before the init frame: the
// zygote imports the module loader from PythonDir before it forks (a
// confined child could not read it). A child reads nothing of the module
// cache: the answer that says a module is ready carries it as a descriptor
// (writeWithFiles).
func (p *Pool) sendNativeSetup() error {
	n := p.opts.Native
	if n == nil {
		return nil
	}
	if err := p.send(frame(kNativeSetup, []byte(n.PythonDir))); err != nil {
		return fmt.Errorf("%w: spine-guest did not take its native setup: %v", ErrCrashed, err)
	}
	return nil
}

// writeWithFiles writes one frame with files attached (SCM_RIGHTS): the
// kernel delivers them with the frame's first bytes, which the child reads
// with recvmsg. The files are the caller's to close.
func (g *sandboxGuest) writeWithFiles(msg []byte, files []*os.File) error {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	raw, err := g.c.conn.SyscallConn()
	if err != nil {
		return err
	}
	sent := 0
	var sendErr error
	err = raw.Write(func(fd uintptr) bool {
		sent, sendErr = syscall.SendmsgN(int(fd), msg, syscall.UnixRights(fds...), nil, syscall.MSG_NOSIGNAL)
		return sendErr != syscall.EAGAIN && sendErr != syscall.EINTR
	})
	if err == nil {
		err = sendErr
	}
	if err != nil {
		return err
	}
	if sent == len(msg) {
		// Nothing more: even a write of nothing fails once the child, which
		// may already have answered and exited, has closed its end.
		return nil
	}
	// The files went with the first bytes; the rest of a long frame follows.
	return g.write(msg[sent:])
}
