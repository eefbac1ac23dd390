// Package wire is the sandbox transport: every execution runs in a freshly
// forked, confined child of the spine-guest zygote (guest-c/sandbox), and
// talks to the host over length-prefixed frames on its own socket. The host
// side needs no cgo: it builds and runs with CGO_ENABLED=0.
//
// The host validates every frame (size, kind, lengths, JSON), dispatches
// tool requests only through the execution's bridge.Session (so only the
// tools of its manifest, with the same handle table and workers as the
// in-process transport), and never evaluates anything the guest sends. A
// child is killed, never trusted: at its deadline plus a grace, on any
// breach, and when its guest is released.
package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/lasting"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Options configure a Pool; zero fields take the defaults.
type Options struct {
	Binary string // path of spine-guest (required)
	// Prefork children are kept warm: forked, confined and ready beyond the
	// busy ones, so an execution rarely waits for a fork (default 4; never
	// more than MaxChildren).
	Prefork int
	// NoRefill: the Prefork children are forked at start and not replaced
	// when taken or released (a pool that serves one execution and closes).
	// An Acquire that finds none ready waits for those starting, and has a
	// child forked for it only when none is.
	NoRefill bool
	// MaxChildren caps the children alive at once, busy, ready or starting
	// (default: sized for the machine, see defaultMaxChildren). Acquire
	// waits only when MaxChildren are busy.
	MaxChildren   int
	MemoryBytes   uint64        // RLIMIT_AS of a child (default 1 GiB)
	CPUSeconds    uint64        // RLIMIT_CPU of a child (default 30)
	OpenFiles     uint64        // RLIMIT_NOFILE of a child (default 32)
	MaxFrameBytes int           // largest frame a child may send (default 64 MiB)
	MaxRawOutput  int           // bytes a child may write to its fds 1 and 2 (default 64 KiB)
	Grace         time.Duration // after the deadline, before the kill (default 500ms)
	// AllowNoNamespaces and AllowNoLandlock lower the level: without them a
	// missing layer makes NewPool fail (ErrUnavailable).
	AllowNoNamespaces bool
	AllowNoLandlock   bool
	// Warm, when set, is an execute request in the shape of the caller's
	// own (its manifest under its key, its limits): the zygote runs it in
	// its warm-up and every child runs it as its own warm-up, its tool calls
	// answered inside the child. The manifest is then parsed once, in the
	// zygote, and a child's first writes to the pages an execution of that
	// shape touches (copy-on-write faults) happen while it is a spare, not
	// during the execution. Without it the children warm up on a built-in
	// request.
	Warm []byte
	// Native, when set, prepares the zygote for hot functions (native.go).
	Native *bridge.NativeSetup
	// GuestCodeDir keeps the guest modules' compiled code from one zygote
	// to the next (guestcache; "": its default, under the user's cache
	// directory).
	GuestCodeDir string
	// Logger receives the pool's own events (log.go); nil: none.
	Logger *slog.Logger

	// withoutNamespaces, when set, is why the zygote starts without
	// namespaces: it failed in them (see NewPool), or a test asks for the
	// lowered level where the kernel would allow more.
	withoutNamespaces error
}

func (o Options) withDefaults() Options {
	if o.Prefork == 0 {
		o.Prefork = 4
	}
	if o.MemoryBytes == 0 {
		o.MemoryBytes = 1 << 30
	}
	if o.MaxChildren == 0 {
		o.MaxChildren = defaultMaxChildren(o.MemoryBytes)
	}
	o.Prefork = min(o.Prefork, o.MaxChildren)
	if o.CPUSeconds == 0 {
		o.CPUSeconds = 30
	}
	if o.OpenFiles == 0 {
		o.OpenFiles = 32
	}
	if o.MaxFrameBytes <= 0 {
		o.MaxFrameBytes = 64 << 20
	}
	if o.MaxRawOutput <= 0 {
		o.MaxRawOutput = 64 << 10
	}
	if o.Grace <= 0 {
		o.Grace = 500 * time.Millisecond
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Layers reports which isolation layers are active.
type Layers struct {
	Namespaces bool // user, mount, PID, network, IPC and UTS namespaces
	// PrivateRoot: a child's root is a read-only tmpfs with only the stdlib,
	// and its /proc shows it only itself (it needs the namespaces). Without
	// it a child sees the host's file tree by stat and readlink, and its
	// reads are limited by Landlock alone.
	PrivateRoot bool
	Landlock    int  // the Landlock ABI in force (0: none)
	Seccomp     bool // the seccomp allowlist (always on)
	// Missing explains what is not active and why ("" when all are).
	Missing string
}

// Pool is the sandbox transport: one zygote, Prefork warm children, and as
// many more as demand asks for, up to MaxChildren (capacity.go).
type Pool struct {
	opts   Options
	layers Layers
	cmd    *exec.Cmd
	ctl    int // the host end of the control channel
	ctlMu  sync.Mutex
	// ctlFile and ctlRaw: the control channel through the runtime's poller,
	// from the end of the handshake on (pollControl); nil before.
	ctlFile *os.File
	ctlRaw  syscall.RawConn
	diag    *limitedBuffer // the zygote's own stderr (diagnostics; bounded)

	mu       sync.Mutex
	children map[uint32]*child // forked and not yet reaped
	closed   bool
	busy     int // children bound to a session, from Acquire to Release
	starting int // forks asked for whose child is not yet ready nor failed
	waiting  int // Acquire calls waiting for a child
	peak     int // the most children alive at once so far (busy, spare or starting)

	ready    *readyStack   // children that are confined, warmed up and unused
	gate     *creationGate // holds their creation back while executions run (gate.go)
	unready  unready       // children that died before they were ready
	dead     chan struct{} // closed when the zygote is gone
	deadErr  error
	reader   sync.WaitGroup
	closeOne sync.Once
}

var _ bridge.Transport = (*Pool)(nil)

const namespaceFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// NewPool starts the zygote and forks the first children. It fails with
// ErrUnavailable when namespaces or Landlock are missing and the options do
// not lower the level.
func NewPool(opts Options) (*Pool, error) {
	if opts.Prefork < 0 || opts.MaxChildren < 0 {
		return nil, fmt.Errorf("wire: Prefork (%d) and MaxChildren (%d) must not be negative (0 takes the default)", opts.Prefork, opts.MaxChildren)
	}
	opts = opts.withDefaults()
	if opts.Binary == "" {
		return nil, errors.New("wire: Options.Binary (the spine-guest path) is required")
	}
	if _, err := os.Stat(opts.Binary); err != nil {
		return nil, fmt.Errorf("wire: spine-guest not found: %w", err)
	}
	p := newPool(opts)
	var missing []string
	err := opts.withoutNamespaces
	if err == nil {
		err = p.start(true)
	}
	if err != nil {
		if !opts.AllowNoNamespaces {
			return nil, fmt.Errorf("%w: cannot start spine-guest in new namespaces (%v); set AllowNoNamespaces to run without them", ErrUnavailable, err)
		}
		missing = append(missing, "namespaces: "+err.Error())
		if err = p.start(false); err != nil {
			return nil, fmt.Errorf("wire: cannot start spine-guest: %w", err)
		}
	}
	p.layers.Namespaces = err == nil && len(missing) == 0
	hello, err := p.handshake()
	if err != nil {
		// Close waits for the zygote, so what it wrote to stderr (why it
		// failed) is all in the diagnostics before they are read.
		p.Close()
		err = fmt.Errorf("%w%s", err, p.diagnostics())
		if p.layers.Namespaces && opts.AllowNoNamespaces {
			// In its namespaces the zygote could not start, for instance
			// because the kernel refused its private root or /proc: the
			// level may be lowered, so try without them.
			opts.withoutNamespaces = err
			return NewPool(opts)
		}
		return nil, err
	}
	p.layers.Landlock = hello.Landlock
	p.layers.PrivateRoot = hello.Root
	if p.layers.Namespaces != hello.Root {
		// In its namespaces the zygote makes the private root or fails; it
		// cannot make one without them. Anything else is not the zygote we
		// started.
		p.Close()
		return nil, fmt.Errorf("%w: spine-guest reported a private root %v in namespaces %v", ErrViolation, hello.Root, p.layers.Namespaces)
	}
	if !hello.Root {
		missing = append(missing, "private root: without namespaces a child sees the host's file tree (stat, readlink) and /proc; Landlock alone limits what it reads")
	}
	if hello.Landlock == 0 {
		if !opts.AllowNoLandlock {
			p.Close()
			return nil, fmt.Errorf("%w: Landlock is not available (%s); set AllowNoLandlock to run without it", ErrUnavailable, hello.LandlockError)
		}
		missing = append(missing, "landlock: "+hello.LandlockError)
	}
	p.layers.Missing = fmt.Sprint(missing)
	if len(missing) == 0 {
		p.layers.Missing = ""
	}
	if err := p.pollControl(); err != nil {
		p.Close()
		return nil, fmt.Errorf("wire: the control channel cannot be polled: %w", err)
	}
	// Before the first fork and before the control reader runs: the gate
	// reads prio from now on.
	p.gate.prio = newCreationPriority(p.zygotePID())
	p.reader.Add(1)
	go p.readControl()
	p.replenish()
	return p, nil
}

// newPool is a pool's state before its zygote starts.
func newPool(opts Options) *Pool {
	p := &Pool{opts: opts, children: map[uint32]*child{}, ready: newReadyStack(opts.MaxChildren),
		dead: make(chan struct{}), diag: &limitedBuffer{max: 4096}, layers: Layers{Seccomp: true}}
	p.gate = newCreationGate(p.enoughSpares, p.backgroundCreation, p.sendFork)
	return p
}

// pollControl moves the control channel to the runtime's poller (see
// syscalls.go): from now on it is non-blocking and owned by ctlFile.
func (p *Pool) pollControl() error {
	if err := syscall.SetNonblock(p.ctl, true); err != nil {
		return err
	}
	p.ctlMu.Lock()
	defer p.ctlMu.Unlock()
	p.ctlFile = os.NewFile(uintptr(p.ctl), "spine-guest-control") // Close closes it
	raw, err := p.ctlFile.SyscallConn()
	p.ctlRaw = raw
	return err
}

// Level is "sandbox".
func (p *Pool) Level() string { return "sandbox" }

// Layers reports the active isolation layers.
func (p *Pool) Layers() Layers { return p.layers }

func (p *Pool) start(namespaces bool) error {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	theirs := os.NewFile(uintptr(fds[1]), "spine-guest-control")
	defer theirs.Close()
	cmd := exec.Command(p.opts.Binary)
	cmd.Dir = "/"
	// An explicit, tiny environment: nothing of the host's reaches the guest.
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	cmd.ExtraFiles = []*os.File{theirs} // fd 3, the only descriptor beyond 0-2
	cmd.Stderr = p.diag
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		attr.Cloneflags = namespaceFlags
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	// Pdeathsig follows the thread that starts the zygote: a thread that
	// lasts as long as the host (internal/lasting).
	if err := lasting.Start(cmd); err != nil {
		syscall.Close(fds[0])
		return err
	}
	p.cmd, p.ctl = cmd, fds[0]
	return nil
}

type hello = protocol.Hello

// helloTimeout bounds the zygote's start: CPython with the pre-imports and
// the warm-up take about 100 ms, far more on a loaded machine.
const helloTimeout = 30 * time.Second

// sendChunks sends data in control messages of kind, 32 KiB of it per
// message after prefix (the zygote appends the chunks); nothing when data is
// empty, unless a prefix names it.
func (p *Pool) sendChunks(kind byte, prefix, data []byte) error {
	for off := 0; off < len(data) || (off == 0 && prefix != nil); off += 32 << 10 {
		end := min(off+32<<10, len(data))
		if err := p.send(frame(kind, prefix, data[off:end])); err != nil {
			return err
		}
	}
	return nil
}

// handshake sends the guest modules and the limits, and waits for hello,
// keeping what the zygote compiled before it.
func (p *Pool) handshake() (hello, error) {
	var h hello
	modules := guest.Modules()
	code, err := guestcache.Open(p.opts.GuestCodeDir)
	if err != nil {
		p.opts.Logger.Warn("guest code cache unusable: the guest compiles its modules", "error", err)
	}
	if err := p.sendModules(modules, code); err != nil {
		return h, err
	}
	if err := p.sendNativeSetup(); err != nil {
		return h, err
	}
	if err := p.sendChunks(kWarm, nil, p.opts.Warm); err != nil {
		return h, fmt.Errorf("%w: spine-guest did not take its warm-up request: %v", ErrCrashed, err)
	}
	init := make([]byte, protocol.InitLen)
	binary.LittleEndian.PutUint64(init, p.opts.MemoryBytes)
	binary.LittleEndian.PutUint64(init[8:], p.opts.CPUSeconds)
	binary.LittleEndian.PutUint64(init[16:], p.opts.OpenFiles)
	if err := p.send(frame(kInit, init)); err != nil {
		return h, fmt.Errorf("%w: spine-guest did not take its limits: %v", ErrCrashed, err)
	}
	buf := make([]byte, 64<<10)
	compiled := map[string][]byte{}
	// One deadline for everything before the hello: compiled-code frames
	// do not extend it.
	deadline := time.Now().Add(helloTimeout)
	for {
		n, err := recvWithin(p.ctl, buf, time.Until(deadline))
		if err != nil || n < headerLen {
			return h, fmt.Errorf("%w: spine-guest did not start: %v", ErrCrashed, err)
		}
		kind, payload := buf[0], buf[headerLen:n]
		if kind == kCompiled {
			if err := addCompiled(compiled, modules, payload); err != nil {
				return h, err
			}
			continue
		}
		if kind == kError {
			return h, fmt.Errorf("%w: spine-guest failed to start: %s", ErrCrashed, payload)
		}
		if kind != kHello || json.Unmarshal(payload, &h) != nil {
			return h, fmt.Errorf("%w: spine-guest sent a malformed hello", ErrViolation)
		}
		break
	}
	p.keepCompiled(code, modules, compiled)
	return h, nil
}

func (p *Pool) diagnostics() string {
	if d := p.diag.String(); d != "" {
		return " (spine-guest: " + d + ")"
	}
	return ""
}

func (p *Pool) send(msg []byte) error {
	p.ctlMu.Lock()
	defer p.ctlMu.Unlock()
	if p.ctlRaw != nil {
		return sendPolled(p.ctlRaw, msg)
	}
	return writeMessage(p.ctl, msg)
}

// readControl receives children and exit statuses until the zygote is gone.
func (p *Pool) readControl() {
	defer p.reader.Done()
	buf := make([]byte, 4096)
	oob := make([]byte, syscall.CmsgSpace(8*4))
	var cause error
	for {
		n, oobn, err := recvPolled(p.ctlRaw, buf, oob)
		var fds []int
		if err == nil && oobn > 0 {
			if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
				for _, m := range msgs {
					if rights, rerr := syscall.ParseUnixRights(&m); rerr == nil {
						fds = append(fds, rights...)
					}
				}
			}
		}
		if err != nil || n == 0 {
			closeAll(fds)
			cause = err
			break
		}
		p.control(buf[:n], fds)
	}
	if cause == nil {
		cause = errors.New("the zygote closed its channel")
	}
	p.mu.Lock()
	p.deadErr = cause
	orphans := p.children
	p.children = map[uint32]*child{}
	p.mu.Unlock()
	for _, c := range orphans {
		c.exit(-1, 0)
	}
	p.gate.zygoteGone()
	p.zygoteGone(cause)
	close(p.dead)
}

func (p *Pool) control(msg []byte, fds []int) {
	if len(msg) < headerLen || int(binary.LittleEndian.Uint32(msg[1:])) != len(msg)-headerLen {
		closeAll(fds)
		return
	}
	payload := msg[headerLen:]
	switch msg[0] {
	case kChild:
		if len(payload) != protocol.ChildLen || len(fds) != 3 {
			closeAll(fds)
			return
		}
		c := newChild(binary.LittleEndian.Uint32(payload), fds[0], fds[1], fds[2])
		p.mu.Lock()
		closed := p.closed
		if !closed {
			p.children[c.pid] = c
		}
		p.mu.Unlock()
		if closed {
			c.kill()
			c.close()
			return
		}
		if p.gate.prio != nil {
			c.hostPIDOnce() // read here, not under the gate's lock
		}
		p.gate.arrived(c)
		go p.admit(c)
	case kExit:
		closeAll(fds)
		if len(payload) != protocol.ExitLen {
			return
		}
		pid := binary.LittleEndian.Uint32(payload)
		p.mu.Lock()
		c := p.children[pid]
		delete(p.children, pid)
		p.mu.Unlock()
		if c != nil {
			c.exit(int(binary.LittleEndian.Uint32(payload[4:])), time.Duration(binary.LittleEndian.Uint64(payload[8:]))*time.Millisecond)
		}
	case kError:
		// After its hello the zygote reports only forks it could not make.
		closeAll(fds)
		p.diag.Write(append([]byte("zygote: "), payload...))
		p.forkFailed(string(payload))
	default:
		closeAll(fds)
	}
}

// Close kills every child and the zygote, and waits for them.
func (p *Pool) Close() error {
	p.closeOne.Do(func() {
		p.mu.Lock()
		p.closed = true
		alive := make([]*child, 0, len(p.children))
		for _, c := range p.children {
			alive = append(alive, c)
		}
		p.mu.Unlock()
		for _, c := range alive {
			c.kill()
		}
		p.gate.closing()
		// The zygote's channel closing makes it exit; as PID 1 of its
		// namespace its exit takes every remaining child with it.
		syscall.Shutdown(p.ctl, syscall.SHUT_RDWR)
		if p.cmd != nil && p.cmd.Process != nil {
			done := make(chan struct{})
			go func() {
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					p.cmd.Process.Kill()
				}
			}()
			p.cmd.Wait()
			close(done)
		}
		p.reader.Wait()
		if p.ctlFile != nil {
			p.ctlFile.Close()
		} else {
			syscall.Close(p.ctl)
		}
		for _, c := range p.ready.drain() {
			c.close()
		}
	})
	return nil
}

// zygotePID is the zygote's process id in the host's namespace (tests).
func (p *Pool) zygotePID() int { return p.cmd.Process.Pid }

func closeAll(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(bytes.TrimSpace(b.buf.Bytes()))
}
