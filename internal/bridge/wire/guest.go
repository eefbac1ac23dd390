package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// child is one forked child as the host holds it: its channel, a pidfd to
// kill it by, and the pipe that is its fds 1 and 2.
type child struct {
	pid    uint32
	conn   *os.File
	output *os.File

	mu     sync.Mutex
	pidfd  int // -1 once closed
	status int // wait status; -1 unknown (the zygote died first)
	cpu    time.Duration
	exited chan struct{}
	once   sync.Once
	// hostPid caches hostPID for the creation priority (priority.go).
	hostPid int

	// ids checks the ids of the child's crossings. They belong to the
	// child's channel, not to one execution: a session's child numbers its
	// crossings on across the executions it serves, each read by a guest of
	// its own, one at a time.
	ids protocol.CrossingIDs
}

func newChild(pid uint32, channel, pidfd, output int) *child {
	// Non-blocking descriptors make os.File pollable: reads honour Close.
	syscall.SetNonblock(channel, true)
	syscall.SetNonblock(output, true)
	return &child{pid: pid, pidfd: pidfd, status: -1, exited: make(chan struct{}),
		conn: os.NewFile(uintptr(channel), "spine-child"), output: os.NewFile(uintptr(output), "spine-child-output")}
}

const sysPidfdSendSignal = 424 // pidfd_send_signal(2), x86_64 and arm64 alike

// kill sends SIGKILL through the pidfd: it reaches the child whatever its
// PID namespace and can never hit a recycled pid.
func (c *child) kill() { c.signal(syscall.SIGKILL) }

// signal sends sig through the pidfd (nothing once it is closed).
func (c *child) signal(sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pidfd >= 0 {
		syscall.Syscall6(sysPidfdSendSignal, uintptr(c.pidfd), uintptr(sig), 0, 0, 0, 0)
	}
}

// hostPID is the child's process id as this process sees it (pidfd.go);
// 0 once its pidfd is closed or when unknown.
func (c *child) hostPID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pidfd < 0 {
		return 0
	}
	return pidOfPidfd(c.pidfd)
}

// hostPIDOnce is hostPID, asked of the kernel the first time only.
func (c *child) hostPIDOnce() int {
	c.mu.Lock()
	pid := c.hostPid
	c.mu.Unlock()
	if pid > 0 {
		return pid
	}
	pid = c.hostPID()
	c.mu.Lock()
	c.hostPid = pid
	c.mu.Unlock()
	return pid
}

// exitedNow reports whether the child is already gone, asking the kernel
// through its pidfd (readable once the process has exited) instead of
// waiting for the zygote's report, which may be a few milliseconds behind a
// kill from outside.
func (c *child) exitedNow() bool {
	if c.hasExited() {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pidfd < 0 {
		return false
	}
	const pollIn = 0x1
	pfd := struct {
		fd             int32
		events, revent int16
	}{int32(c.pidfd), pollIn, 0}
	n, _, errno := syscall.Syscall(syscall.SYS_POLL, uintptr(unsafe.Pointer(&pfd)), 1, 0)
	return errno == 0 && n == 1 && pfd.revent&pollIn != 0
}

// goFrame lets a new child begin its creation (gate.go).
var goFrame = frame(kGo)

// letStart sends the go frame: the child confines itself and warms up. A
// child that died first is seen dead by its admission (awaitReady).
func (c *child) letStart() { c.conn.Write(goFrame) }

// awaitReady reads the child's ready frame: it has confined itself and
// warmed up, so an execution never waits for either. Usually the frame is
// already in the socket and this is one read.
func (c *child) awaitReady(ctx context.Context) error {
	if deadline, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(deadline)
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetReadDeadline(time.Now()) })
	defer stop()
	var head [headerLen]byte
	_, err := io.ReadFull(c.conn, head[:])
	c.conn.SetReadDeadline(time.Time{})
	if err != nil {
		return err
	}
	if head[0] != kReady || binary.LittleEndian.Uint32(head[1:]) != 0 {
		return fmt.Errorf("%w: expected the ready frame, got %q", errBreach, head[0])
	}
	return nil
}

// discard kills a child that never served and returns what it wrote to its
// fds 1 and 2 (why it could not confine itself, if it said).
func (c *child) discard() string {
	c.kill()
	c.output.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	var out limitedBuffer
	out.max = 4096
	io.Copy(&out, c.output)
	c.close()
	return out.String()
}

func (c *child) exit(status int, cpu time.Duration) {
	c.once.Do(func() {
		c.mu.Lock()
		c.status, c.cpu = status, cpu
		c.mu.Unlock()
		close(c.exited)
	})
}

func (c *child) hasExited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// wait returns the wait status, or -1 if it is not known within d.
func (c *child) wait(d time.Duration) int {
	select {
	case <-c.exited:
	case <-time.After(d):
		return -1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

func (c *child) close() {
	c.conn.Close()
	c.output.Close()
	c.mu.Lock()
	if c.pidfd >= 0 {
		syscall.Close(c.pidfd)
		c.pidfd = -1
	}
	c.mu.Unlock()
}

// Why the host killed a child.
const (
	killNone int32 = iota
	killTimeout
	killCancel
	killOutput
	killBreach
	killRelease
)

// sandboxGuest is one child bound to one session: a stream's entries and
// then one execution, after which the child waits for Release to kill it.
type sandboxGuest struct {
	p      *Pool
	c      *child
	s      *bridge.Session
	r      *bufio.Reader
	used   bool
	killed atomic.Int32 // why the host killed the child
	breach string

	raw     limitedBuffer // what the child wrote to fds 1 and 2 (diagnostics)
	rawDone chan struct{}

	writeMu sync.Mutex // answers go out whole, one at a time
	flight  inflight

	timerMu  sync.Mutex
	timer    *time.Timer
	stopCtx  func() bool
	released bool

	// running is this guest's execution for the creation gate (gate.go),
	// from Acquire to Release; nil once it ended.
	running atomic.Pointer[foreground]
}

// readers are the channel readers of finished guests: 64 KiB each, too big
// to allocate (and collect) once per execution.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

func newGuest(p *Pool, c *child, s *bridge.Session) *sandboxGuest {
	r := readers.Get().(*bufio.Reader)
	r.Reset(c.conn)
	g := &sandboxGuest{p: p, c: c, s: s, r: r, rawDone: make(chan struct{})}
	g.raw.max = 4096
	p.gate.prio.taken(c)
	g.running.Store(p.gate.begin())
	go g.drainOutput()
	g.watch()
	return g
}

// notRunning tells the creation gate that this guest's execution ended.
func (g *sandboxGuest) notRunning() {
	if f := g.running.Swap(nil); f != nil {
		g.p.gate.end(f)
	}
}

// watch kills the child Grace after the session's deadline, or at once when
// its context is cancelled (stopCtx stops watching).
func (g *sandboxGuest) watch() {
	p, ctx := g.p, g.s.Context()
	g.stopCtx = context.AfterFunc(ctx, func() {
		switch g.s.Ended() {
		case bridge.Timeout:
			g.timerMu.Lock()
			if !g.released {
				g.timer = time.AfterFunc(p.opts.Grace, func() { g.killFor(killTimeout) })
			}
			g.timerMu.Unlock()
		case bridge.Cancelled:
			g.killFor(killCancel)
		}
		// Otherwise the program ended (Session.EndProgram): nothing to stop.
	})
}

func (g *sandboxGuest) killFor(why int32) {
	g.killed.CompareAndSwap(killNone, why)
	g.c.kill()
}

// drainOutput reads the child's fds 1 and 2: bootstrap captures the
// program's sys.stdout/stderr itself, so this is only what bypassed it
// (os.write(1, ...), an interpreter's fatal error). It is bounded: past
// MaxRawOutput the child is killed.
func (g *sandboxGuest) drainOutput() {
	defer close(g.rawDone)
	buf := make([]byte, 8192)
	total := 0
	for {
		n, err := g.c.output.Read(buf)
		total += n
		g.raw.Write(buf[:n])
		if total > g.p.opts.MaxRawOutput {
			g.killFor(killOutput)
			io.Copy(io.Discard, g.c.output)
			return
		}
		if err != nil {
			return
		}
	}
}

func (g *sandboxGuest) deadlineMillis() uint32 {
	deadline, ok := g.s.Deadline()
	if !ok {
		return 1<<32 - 1
	}
	// Rounded up: the child's timer must not fire before the host's
	// deadline, or its timeout would be one the host never sent (Accept).
	ms := (time.Until(deadline) + time.Millisecond - 1).Milliseconds()
	return uint32(max(1, min(ms, 1<<32-1)))
}

// send writes a frame of the host's own (execute, entry) whole, never
// inside an answer another goroutine is writing.
func (g *sandboxGuest) send(msg []byte) error {
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	return g.write(msg)
}

func (g *sandboxGuest) write(msg []byte) error {
	_, err := g.c.conn.Write(msg)
	return err
}

// Execute runs bootstrap.execute(request) in the child and returns what it
// produced. It may return a Result together with an error wrapping
// ErrMemory (the program raised MemoryError): the Result keeps its output.
func (g *sandboxGuest) Execute(request []byte) (*bridge.Result, error) {
	if g.used {
		return nil, fmt.Errorf("%w: a sandboxed child runs one execution", ErrViolation)
	}
	g.used = true
	// Once Execute returns the child serves nothing more: it waits for
	// Release to kill it, and the session's end (its context cancelled when
	// the caller's response is built) must not kill it first.
	defer g.unwatch()
	// Threads the program left running may still be crossing: their
	// crossings end with the execution, after its result or failure.
	defer g.endCrossings()
	head := make([]byte, 4)
	binary.LittleEndian.PutUint32(head, g.deadlineMillis())
	if err := g.send(frame(kExecute, head, request)); err != nil {
		return nil, g.failure(err)
	}
	for {
		kind, payload, err := g.next()
		if err != nil {
			return nil, g.failure(err)
		}
		switch kind {
		case kResult:
			result, err := g.result(payload)
			if err != nil {
				return nil, g.failure(err)
			}
			if why := g.killed.Load(); why == killOutput {
				return nil, g.failure(errors.New("output limit"))
			}
			if isMemoryError(result.Envelope()) {
				return result, fmt.Errorf("%w: the program exceeded its memory limit of %d bytes (MemoryError)", ErrMemory, g.p.opts.MemoryBytes)
			}
			return result, nil
		case kFailed:
			return nil, fmt.Errorf("%w: the sandboxed guest failed: %s", ErrCrashed, clip(payload))
		default:
			return nil, g.failure(fmt.Errorf("%w: unexpected frame %q during an execution", errBreach, kind))
		}
	}
}

// Entry runs a bootstrap entry point (prefix_begin, prefix_feed,
// prefix_abort) in the child; it may prepare tool calls meanwhile.
func (g *sandboxGuest) Entry(name string, arg []byte) error {
	if g.used {
		return fmt.Errorf("%w: the child's execution already ran", ErrViolation)
	}
	if err := g.send(frame(kEntry, []byte(name), []byte{0}, arg)); err != nil {
		return g.failure(err)
	}
	for {
		kind, payload, err := g.next()
		if err != nil {
			return g.failure(err)
		}
		if kind != kDone {
			return g.failure(fmt.Errorf("%w: unexpected frame %q during %s", errBreach, kind, name))
		}
		if len(payload) < 1 {
			return g.failure(fmt.Errorf("%w: empty done frame", errBreach))
		}
		if payload[0] != 1 {
			return fmt.Errorf("spine: %s failed: %s", name, clip(payload[1:]))
		}
		return nil
	}
}

// next reads frames, handing each tool crossing to be answered on its own
// (crossings.go), until one that is not a crossing.
func (g *sandboxGuest) next() (byte, []byte, error) {
	if g.r == nil {
		return 0, nil, fmt.Errorf("%w: the guest was released", ErrClosed)
	}
	for {
		if skipped, err := g.oversized(); err != nil {
			return 0, nil, err
		} else if skipped {
			continue
		}
		head, err := g.r.Peek(protocol.HeaderLen)
		if err == nil {
			kind := protocol.Kind(head[0])
			if crossing, ok := protocol.CrossingOf(kind); ok {
				length := int(binary.LittleEndian.Uint32(head[1:]))
				if length > g.frameMax(kind) {
					length = 0 // ReadFrame refuses it unread
				}
				if err := g.crossing(kind, crossing, length); err != nil {
					return 0, nil, err
				}
				continue
			}
		}
		kind, payload, err := protocol.ReadFrame(g.r, g.frameMax)
		if err != nil {
			return 0, nil, err
		}
		return byte(kind), payload, nil
	}
}

// frameMax is the largest frame the child may send: a result within the
// execution's result limits, anything else within the pool's frame limit.
func (g *sandboxGuest) frameMax(kind protocol.Kind) int {
	if kind == protocol.KindResult {
		return min(g.p.opts.MaxFrameBytes, g.s.ResultLimits().ResultFrameMax())
	}
	return g.p.opts.MaxFrameBytes
}

// result parses a result frame and has the session accept it.
func (g *sandboxGuest) result(payload []byte) (*bridge.Result, error) {
	frame, err := protocol.ParseResult(payload)
	if err != nil {
		return nil, err
	}
	result := &bridge.Result{Response: frame.Response, Stdout: frame.Stdout, Stderr: frame.Stderr, Interrupted: frame.Reason}
	if err := g.s.Accept(result); err != nil {
		return nil, err
	}
	return result, nil
}

// failure ends the child and names what happened, from why the host killed
// it or, failing that, how it died.
func (g *sandboxGuest) failure(cause error) error {
	if errors.Is(cause, errBreach) {
		g.breach = cause.Error()
		g.killFor(killBreach)
	}
	if g.killed.Load() == killNone {
		// The channel broke on its own: let the child finish dying so its
		// status (a signal, an exit code) names what happened.
		g.c.wait(250 * time.Millisecond)
	}
	g.c.kill()
	status := g.c.wait(2 * time.Second)
	select {
	case <-g.rawDone:
	case <-time.After(time.Second):
	}
	switch g.killed.Load() {
	case killTimeout:
		return fmt.Errorf("%w: the sandboxed child was killed %v after its deadline (a long C call cannot be interrupted)", ErrTimeout, g.p.opts.Grace)
	case killCancel:
		return fmt.Errorf("the sandboxed child was killed: %w", context.Canceled)
	case killOutput:
		return fmt.Errorf("%w: the program wrote more than %d bytes to its descriptors", ErrOutputLimit, g.p.opts.MaxRawOutput)
	case killBreach:
		return fmt.Errorf("%w: the sandboxed child broke the protocol: %s", ErrViolation, g.breach)
	}
	raw := g.raw.String()
	if status < 0 {
		return fmt.Errorf("%w: the sandboxed child's channel failed (%v) and its exit status is unknown", ErrCrashed, cause)
	}
	ws := syscall.WaitStatus(status)
	if ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGSYS:
			return fmt.Errorf("%w: the program made a system call the sandbox forbids (killed by seccomp)%s", ErrViolation, detail(raw))
		case syscall.SIGXCPU:
			return fmt.Errorf("%w: the program used up its %d CPU seconds", ErrTimeout, g.p.opts.CPUSeconds)
		case syscall.SIGALRM:
			// The deadline's timer, after the program took away its handler.
			return fmt.Errorf("%w: the execution exceeded its deadline", ErrTimeout)
		case syscall.SIGKILL:
			g.c.mu.Lock()
			cpu := g.c.cpu
			g.c.mu.Unlock()
			if cpu >= time.Duration(g.p.opts.CPUSeconds)*time.Second {
				return fmt.Errorf("%w: the program used up its %d CPU seconds", ErrTimeout, g.p.opts.CPUSeconds)
			}
		}
		if memoryText(raw) {
			return fmt.Errorf("%w: the program exhausted its memory limit (%s)", ErrMemory, firstLine(raw))
		}
		return fmt.Errorf("%w: the sandboxed child died of signal %v%s", ErrCrashed, ws.Signal(), detail(raw))
	}
	if memoryText(raw) {
		return fmt.Errorf("%w: the program exhausted its memory limit (%s)", ErrMemory, firstLine(raw))
	}
	return fmt.Errorf("%w: the sandboxed child exited with status %d before it answered%s", ErrCrashed, ws.ExitStatus(), detail(raw))
}

// Release kills the child (it has served its one stream) and frees its
// descriptors; nothing of the session stays anywhere.
func (g *sandboxGuest) Release() {
	g.timerMu.Lock()
	g.released = true
	if g.timer != nil {
		g.timer.Stop()
	}
	g.timerMu.Unlock()
	g.stopCtx()
	g.notRunning() // before the release asks for a replacement
	g.killed.CompareAndSwap(killNone, killRelease)
	g.r.Reset(nil)
	readers.Put(g.r)
	g.r = nil
	// Nothing of the child reaches the session any more: Execute has
	// returned and nobody reads its channel or its output. Killing it,
	// closing its descriptors and freeing its slot happen after the caller
	// has its result, all at once: closing the output ends its drainer
	// (drainOutput) now, instead of when the kernel has torn the child down
	// and the pipe's end reports it, a second wake-up of the host per
	// execution for nothing.
	go func() {
		g.c.kill()
		g.c.close()
		g.p.released()
	}()
}

func isMemoryError(envelope *protocol.Response) bool {
	return envelope != nil && envelope.Error != nil && strings.HasPrefix(*envelope.Error, "MemoryError")
}

func memoryText(raw string) bool {
	return strings.Contains(raw, "MemoryError") || strings.Contains(raw, "Cannot allocate memory") ||
		strings.Contains(raw, "out of memory")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return clip([]byte(s))
}

func detail(raw string) string {
	if raw == "" {
		return ""
	}
	return " (" + firstLine(raw) + ")"
}

func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 300 {
		b = append(b[:300:300], "..."...)
	}
	return strings.ToValidUTF8(string(b), "?")
}
