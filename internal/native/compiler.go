package native

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Failure is why a function stays Python.
type Failure struct {
	Kind      string `json:"kind"` // unsupported, compiler, invalid, service, limit, cancelled
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
// moment: they are remembered, in the cache's private part.
func (f *Failure) cacheable() bool { return f.Kind == "unsupported" || f.Kind == "compiler" }

// Outcome is how one compilation ended.
type Outcome struct {
	Path    string        // the module, when it compiled
	Failure *Failure      // why not, otherwise
	Compile time.Duration // the compile service's time (0 for a cache hit)
}

// job is one compilation, shared by every execution that asks for its key
// while it is queued or running, and cancelled when the last of them stops
// waiting: nobody would load its module in time.
type job struct {
	key, name, source string
	done              chan struct{} // closed once outcome is set
	outcome           Outcome

	// Guarded by Compiler.mu.
	waiters int           // executions waiting for it
	stop    chan struct{} // closed when it is cancelled
	why     string        // why it was cancelled
	service *helper       // the compile service building it, while it runs
}

// Compiler is the engine-wide half: the cache, the compile service's
// processes, and the compilations in flight. Safe for concurrent use.
type Compiler struct {
	opts  Options
	ident string

	mu      sync.Mutex
	jobs    map[string]*job // queued or running and still wanted, by key
	waiting int             // jobs not yet running
	idle    []*helper
	slots   chan struct{} // one per worker
	closed  bool
	all     map[*helper]struct{}
	running sync.WaitGroup // one per job goroutine
}

// New checks the toolchain and the compiler and computes the cache identity
// (the toolchain's pieces are checked with it, when it is not remembered).
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
	if err := cacheLayout(opts.CacheDir); err != nil {
		return nil, err
	}
	ident, err := rememberedIdentity(filepath.Join(opts.CacheDir, privateDir), opts.Toolchain, opts.CXX)
	if err != nil {
		return nil, err
	}
	return &Compiler{opts: opts, ident: ident, jobs: map[string]*job{}, slots: make(chan struct{}, opts.Workers),
		all: map[*helper]struct{}{}}, nil
}

// PythonDir is the toolchain's Python directory (bindings and frontend).
func (c *Compiler) PythonDir() string { return PythonDir(c.opts.Toolchain) }

// Close cancels every compilation, queued or running (their compile
// services are killed with their process groups), and returns once the
// compiler's goroutines have seen it: it never waits for a compilation.
func (c *Compiler) Close() error {
	c.mu.Lock()
	c.closed = true
	for _, j := range c.jobs {
		c.stopLocked(j, errClosed.Error())
	}
	helpers := slices.Collect(maps.Keys(c.all))
	c.idle = nil
	c.mu.Unlock()
	for _, h := range helpers {
		h.kill()
	}
	c.running.Wait()
	return nil
}

// compile returns the job building key (queued, running, or refused now);
// the caller waits for it until it calls leave.
func (c *Compiler) compile(key, name, source string) *job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if j := c.jobs[key]; j != nil {
		j.waiters++
		return j
	}
	j := &job{key: key, name: name, source: source, done: make(chan struct{}), stop: make(chan struct{}), waiters: 1}
	switch {
	case c.closed:
		j.outcome.Failure = &Failure{Kind: "cancelled", Message: errClosed.Error()}
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
	go c.run(j)
	return j
}

// leave says that one waiter of each job no longer waits. The last one
// cancels it: a queued job never runs, a running one's compile service is
// killed with its whole process group. All are cancelled before any service
// is killed, so a worker freed by the kill never starts another of them.
func (c *Compiler) leave(jobs ...*job) {
	var doomed []*helper
	c.mu.Lock()
	for _, j := range jobs {
		j.waiters--
		if j.waiters == 0 && !closed(j.done) {
			if h := c.stopLocked(j, "no execution waits for this compilation any more"); h != nil {
				doomed = append(doomed, h)
			}
		}
	}
	c.mu.Unlock()
	for _, h := range doomed {
		h.kill()
	}
}

// stopLocked cancels j and returns the compile service to kill, if it runs.
// The service is marked under the lock, so run never returns it to the idle
// list once it is doomed.
func (c *Compiler) stopLocked(j *job, why string) *helper {
	if closed(j.stop) {
		return nil
	}
	if c.jobs[j.key] == j {
		delete(c.jobs, j.key) // the next request for the key starts afresh
	}
	j.why = why
	close(j.stop)
	if h := j.service; h != nil {
		h.killed.Store(true)
		return h
	}
	return nil
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (c *Compiler) run(j *job) {
	defer c.running.Done()
	select {
	case c.slots <- struct{}{}:
	case <-j.stop:
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
		c.end(j, c.cancelled(j))
		return
	}
	c.mu.Lock()
	c.waiting--
	c.mu.Unlock()
	o := c.build(j)
	<-c.slots
	c.end(j, o)
}

func (c *Compiler) cancelled(j *job) Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Outcome{Failure: &Failure{Kind: "cancelled", Message: j.why}}
}

// end publishes j's outcome; failures of the source or toolchain are
// remembered, a cancellation or a service failure is not.
func (c *Compiler) end(j *job, o Outcome) {
	c.remember(j.key, o.Failure)
	c.mu.Lock()
	if c.jobs[j.key] == j {
		delete(c.jobs, j.key)
	}
	c.mu.Unlock()
	j.outcome = o
	close(j.done)
}

func (c *Compiler) build(j *job) Outcome {
	if closed(j.stop) {
		return c.cancelled(j)
	}
	if hit := c.lookup(j.key); hit != nil {
		return *hit // another engine sharing the cache built it meanwhile
	}
	h, err := c.acquire()
	if err != nil {
		return Outcome{Failure: &Failure{Kind: "service", Message: err.Error()}}
	}
	c.mu.Lock()
	if closed(j.stop) {
		c.mu.Unlock()
		c.release(h)
		return c.cancelled(j)
	}
	j.service = h
	c.mu.Unlock()
	resp, err := h.do(serviceRequest{Name: j.name, Source: j.source, Out: c.modulePath(j.key),
		KeepSource: filepath.Join(c.privatePath(), j.key+".cc")}, c.opts.Timeout)
	c.mu.Lock()
	j.service = nil
	stopped := closed(j.stop)
	c.mu.Unlock()
	if err != nil {
		h.kill()
		c.forget(h)
		if stopped {
			return c.cancelled(j)
		}
		return Outcome{Failure: &Failure{Kind: "service", Message: err.Error()}}
	}
	c.release(h) // a service killed after it answered is not kept
	if !resp.OK {
		f := resp.Failure
		return Outcome{Failure: &f}
	}
	return Outcome{Path: c.modulePath(j.key), Compile: time.Duration(resp.Ms * float64(time.Millisecond))}
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
	h, err := startHelper(c.opts, c.privatePath())
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

// release keeps a live service for the next compilation.
func (c *Compiler) release(h *helper) {
	c.mu.Lock()
	if c.closed || h.killed.Load() {
		delete(c.all, h)
		c.mu.Unlock()
		h.kill()
		return
	}
	c.idle = append(c.idle, h)
	c.mu.Unlock()
}

func (c *Compiler) forget(h *helper) {
	c.mu.Lock()
	delete(c.all, h)
	c.mu.Unlock()
}
