package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Failure is why a function stays Python.
type Failure struct {
	Kind      string `json:"kind"` // unsupported, compiler, invalid, service, limit
	Message   string `json:"message"`
	Line      int    `json:"line,omitempty"` // in the unit's source, 1-based (0: none)
	Col       int    `json:"col,omitempty"`
	Construct string `json:"construct,omitempty"`
}

func (f *Failure) Error() string {
	if f.Construct != "" {
		return fmt.Sprintf("line %d, column %d: %s: %s", f.Line, f.Col, f.Construct, f.Message)
	}
	return f.Message
}

// cacheable failures are properties of the source and toolchain, not of the
// moment: they are remembered beside the modules.
func (f *Failure) cacheable() bool { return f.Kind == "unsupported" || f.Kind == "compiler" }

// Outcome is how one compilation ended.
type Outcome struct {
	Path    string        // the module, when it compiled
	Failure *Failure      // why not, otherwise
	Compile time.Duration // the compile service's time (0 for a cache hit)
}

// job is one compilation, shared by every execution that asks for its key
// while it runs.
type job struct {
	done    chan struct{}
	outcome Outcome
}

// Compiler is the engine-wide half: the cache, the compile service's
// processes, and the compilations in flight. Safe for concurrent use.
type Compiler struct {
	opts  Options
	ident string

	mu      sync.Mutex
	jobs    map[string]*job // in flight, by key
	waiting int             // jobs not yet running
	idle    []*helper
	slots   chan struct{} // one per worker
	closed  bool
	all     map[*helper]struct{}
	running sync.WaitGroup
}

// New checks the toolchain and the compiler and computes the cache identity.
// The compile service starts on the first miss.
func New(opts Options) (*Compiler, error) {
	opts = opts.withDefaults()
	if opts.Toolchain == "" {
		return nil, errors.New("no native toolchain directory given")
	}
	abs, err := filepath.Abs(opts.Toolchain)
	if err != nil {
		return nil, err
	}
	opts.Toolchain = abs
	if err := checkToolchain(abs); err != nil {
		return nil, err
	}
	if opts.CXX == "" {
		if opts.CXX, err = exec.LookPath("g++"); err != nil {
			return nil, fmt.Errorf("native functions need a C++ compiler: g++ is not on PATH (%v)", err)
		}
	}
	if _, err := os.Stat(opts.Python); err != nil {
		return nil, fmt.Errorf("native functions need %s to run the compile service: %v", opts.Python, err)
	}
	if opts.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory for native modules: %v", err)
		}
		opts.CacheDir = filepath.Join(base, "spine", "native")
	}
	if opts.CacheDir, err = filepath.Abs(opts.CacheDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the native module cache: %w", err)
	}
	ident, err := identity(opts.Toolchain, opts.CXX)
	if err != nil {
		return nil, err
	}
	return &Compiler{opts: opts, ident: ident, jobs: map[string]*job{}, slots: make(chan struct{}, opts.Workers),
		all: map[*helper]struct{}{}}, nil
}

// PythonDir is the toolchain's Python directory (bindings and frontend).
func (c *Compiler) PythonDir() string { return PythonDir(c.opts.Toolchain) }

// CacheDir is the module cache; a sandboxed child may read it and nothing else of it.
func (c *Compiler) CacheDir() string { return c.opts.CacheDir }

// Close lets the compilations already running finish (each is bounded by
// the timeout; their modules fill the cache for the next engine), fails those
// still waiting for a worker, and stops the compile service.
func (c *Compiler) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.running.Wait()
	c.mu.Lock()
	helpers := slices.Collect(maps.Keys(c.all))
	c.mu.Unlock()
	for _, h := range helpers {
		h.kill()
	}
	return nil
}

func (c *Compiler) modulePath(key string) string { return filepath.Join(c.opts.CacheDir, key+".so") }

// lookup answers from the cache: a module, a remembered failure, or nil.
func (c *Compiler) lookup(key string) *Outcome {
	path := c.modulePath(key)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return &Outcome{Path: path}
	}
	data, err := os.ReadFile(filepath.Join(c.opts.CacheDir, key+".err"))
	if err != nil {
		return nil
	}
	var f Failure
	if json.Unmarshal(data, &f) != nil || !f.cacheable() {
		return nil // unreadable: compile again, which rewrites it
	}
	return &Outcome{Failure: &f}
}

// compile returns the job building key (already running, or started now).
func (c *Compiler) compile(key, name, source string) *job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if j := c.jobs[key]; j != nil {
		return j
	}
	j := &job{done: make(chan struct{})}
	switch {
	case c.closed:
		j.outcome.Failure = &Failure{Kind: "service", Message: errClosed.Error()}
		close(j.done)
		return j
	case c.waiting >= c.opts.Queue:
		j.outcome.Failure = &Failure{Kind: "limit", Message: fmt.Sprintf("the compile queue is full (%d waiting)", c.waiting)}
		close(j.done)
		return j
	}
	c.jobs[key] = j
	c.waiting++
	c.running.Add(1)
	go c.run(j, key, name, source)
	return j
}

func (c *Compiler) run(j *job, key, name, source string) {
	defer c.running.Done()
	c.slots <- struct{}{}
	c.mu.Lock()
	c.waiting--
	closed := c.closed
	c.mu.Unlock()
	if closed {
		j.outcome.Failure = &Failure{Kind: "service", Message: errClosed.Error()}
	} else {
		j.outcome = c.build(key, name, source)
	}
	<-c.slots
	if f := j.outcome.Failure; f != nil && f.cacheable() {
		if data, err := json.Marshal(f); err == nil {
			writeAtomic(c.opts.CacheDir, key+".err", data)
		}
	}
	c.mu.Lock()
	delete(c.jobs, key)
	c.mu.Unlock()
	close(j.done)
}

// serviceRequest and serviceResponse are one line each of the compile
// service's protocol (guest/native/service.py).
type serviceRequest struct {
	ID     uint64 `json:"id"`
	Name   string `json:"name"`
	Source string `json:"source"`
	Out    string `json:"out"`
}

type serviceResponse struct {
	ID        *uint64  `json:"id"`
	OK        bool     `json:"ok"`
	Functions []string `json:"functions"`
	Ms        float64  `json:"ms"`
	Failure
}

func (c *Compiler) build(key, name, source string) Outcome {
	if hit := c.lookup(key); hit != nil {
		return *hit // another engine sharing the cache built it meanwhile
	}
	h, err := c.acquire()
	if err != nil {
		return Outcome{Failure: &Failure{Kind: "service", Message: err.Error()}}
	}
	resp, err := h.do(serviceRequest{Name: name, Source: source, Out: c.modulePath(key)}, c.opts.Timeout)
	if err != nil {
		h.kill()
		c.forget(h)
		return Outcome{Failure: &Failure{Kind: "service", Message: err.Error()}}
	}
	c.release(h)
	if !resp.OK {
		f := resp.Failure
		return Outcome{Failure: &f}
	}
	return Outcome{Path: c.modulePath(key), Compile: time.Duration(resp.Ms * float64(time.Millisecond))}
}

func (c *Compiler) acquire() (*helper, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed
	}
	if n := len(c.idle); n > 0 {
		h := c.idle[n-1]
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		return h, nil
	}
	c.mu.Unlock()
	h, err := startHelper(c.opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		h.kill()
		return nil, errClosed
	}
	c.all[h] = struct{}{}
	return h, nil
}

func (c *Compiler) release(h *helper) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		h.kill()
		return
	}
	c.idle = append(c.idle, h)
}

func (c *Compiler) forget(h *helper) {
	c.mu.Lock()
	delete(c.all, h)
	c.mu.Unlock()
}

// helper is one compile service process: one request at a time.
type helper struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errs *cappedBuffer
	next uint64
	once sync.Once
}

const serviceLauncher = "import sys; sys.path.insert(0, sys.argv[1]); from native.service import main; main()"

// startHelper starts the compile service in its own user, network and IPC
// namespaces (no network at all: it processes untrusted source), in its own
// process group (a timeout kills g++ with it), with a tiny environment.
func startHelper(opts Options) (*helper, error) {
	h, err := spawnHelper(opts, true)
	if err != nil && opts.AllowNoNamespaces {
		h, err = spawnHelper(opts, false)
	} else if err != nil {
		err = fmt.Errorf("%w; set AllowNoNamespaces to run the compile service without its own namespaces", err)
	}
	return h, err
}

func spawnHelper(opts Options, namespaces bool) (*helper, error) {
	cmd := exec.Command(opts.Python, "-I", "-S", "-B", "-c", serviceLauncher,
		PythonDir(opts.Toolchain), filepath.Join(opts.Toolchain, "include"))
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "TMPDIR=" + os.TempDir(), "CXX=" + opts.CXX}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errs := &cappedBuffer{max: 4096}
	cmd.Stderr = errs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the compile service: %w", err)
	}
	return &helper{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), errs: errs}, nil
}

const maxResponseBytes = 1 << 20

// do sends one request and reads its answer within timeout.
func (h *helper) do(req serviceRequest, timeout time.Duration) (serviceResponse, error) {
	h.next++
	req.ID = h.next
	var resp serviceResponse
	line, err := json.Marshal(req)
	if err != nil {
		return resp, err
	}
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		if _, err := h.in.Write(append(line, '\n')); err != nil {
			done <- answer{nil, err}
			return
		}
		data, err := readLine(h.out, maxResponseBytes)
		done <- answer{data, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a := <-done:
		if a.err != nil {
			h.kill()
			return resp, fmt.Errorf("the compile service failed: %v%s", a.err, h.diagnostics())
		}
		if err := json.Unmarshal(a.data, &resp); err != nil || resp.ID == nil || *resp.ID != req.ID {
			return resp, fmt.Errorf("the compile service answered out of protocol")
		}
		return resp, nil
	case <-timer.C:
		h.kill()
		<-done
		return resp, fmt.Errorf("compilation took longer than %v", timeout)
	}
}

func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("an answer over %d bytes", max)
		}
		if err == nil {
			return line, nil
		}
		if err != bufio.ErrBufferFull {
			return nil, err
		}
	}
}

func (h *helper) diagnostics() string {
	if s := h.errs.String(); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// kill ends the service and everything it started (g++ included).
func (h *helper) kill() {
	h.once.Do(func() {
		syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
		h.in.Close()
		h.cmd.Wait()
	})
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
