package host

import (
	"context"
	"fmt"
	"sync"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/bridge/inproc"
	"github.com/spine-sandbox/spine/internal/bridge/wire"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// newTransport makes the transport of the configured isolation, ready for
// hot functions when native is set; a sandbox's children warm up on warm
// (see warmRequest). It is the one place that names a transport:
// everything else drives guests through bridge.Transport.
func newTransport(cfg config, native *bridge.NativeSetup, warm []byte) (bridge.Transport, error) {
	if cfg.isolation == Inproc {
		return inproc.New(native)
	}
	opts := cfg.sandbox
	binary, err := guestBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	pool, err := wire.NewPool(wire.Options{Binary: binary, Prefork: opts.Prefork, NoRefill: opts.OneExecution, MaxChildren: opts.MaxChildren,
		MemoryBytes: opts.MemoryBytes, CPUSeconds: opts.CPUSeconds, AllowNoNamespaces: opts.AllowNoNamespaces,
		AllowNoLandlock: opts.AllowNoLandlock, Native: native, Warm: warm, Logger: cfg.telemetry.logger})
	if err != nil {
		return nil, fmt.Errorf("spine: %w", err)
	}
	return pool, nil
}

// newSessionChild makes where a session's executions run: a sandboxed
// child of its own, or its own namespace in the in-process interpreter.
// waiting bounds the wait for a child.
func newSessionChild(guests bridge.Transport, waiting *bridge.Session, id string) (sessionChild, error) {
	if pool, ok := guests.(*wire.Pool); ok {
		return pool.AcquireSession(waiting)
	}
	return &inprocSessionChild{guests: guests, id: id}, nil
}

// inprocSessionChild runs a session's executions on the in-process
// interpreter, in the session's namespace (bootstrap keeps it by id).
type inprocSessionChild struct {
	guests bridge.Transport
	id     string

	mu   sync.Mutex
	gone error
}

func (c *inprocSessionChild) Execute(s *bridge.Session, request []byte) (*bridge.Result, error) {
	if err := c.Alive(); err != nil {
		return nil, err
	}
	g, err := c.guests.Acquire(s)
	if err != nil {
		return nil, err
	}
	defer g.Release()
	return g.Execute(request)
}

func (c *inprocSessionChild) Entry(s *bridge.Session, name string, arg []byte) error {
	if err := c.Alive(); err != nil {
		return err
	}
	g, err := c.guests.Acquire(s)
	if err != nil {
		return err
	}
	defer g.Release()
	return g.Entry(name, arg)
}

func (c *inprocSessionChild) Alive() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

// Close drops the session's namespace from the interpreter.
func (c *inprocSessionChild) Close(why error) {
	c.mu.Lock()
	if c.gone != nil {
		c.mu.Unlock()
		return
	}
	c.gone = why
	c.mu.Unlock()
	s := bridge.NewSession(context.Background(), bridge.Config{})
	defer s.Close()
	if g, err := c.guests.Acquire(s); err == nil {
		g.Entry(protocol.EntrySessionEnd, []byte(c.id))
		g.Release()
	}
}

func (c *inprocSessionChild) PID() int { return 0 }
