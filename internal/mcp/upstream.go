package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConnectTimeout bounds starting (or dialling) a server and its
// initialization handshake.
const ConnectTimeout = 20 * time.Second

// upstream is one configured server: connected once, shared by every
// execution (the SDK's session takes concurrent calls), and reconnected in
// the background when it dies. While it is down, calls fail at once with
// the reason, so a program never hangs on a dead server.
type upstream struct {
	name   string
	cfg    ServerConfig
	client *sdk.Client

	mu      sync.Mutex
	current *connection // nil while down
	down    error       // why it is down; nil while up
	closed  bool
	stop    chan struct{} // closed by close: ends the restart loop
	ready   chan struct{} // closed (and replaced) each time a connection comes up
}

// connection is one live session with the server (and its process).
type connection struct {
	session *sdk.ClientSession
	proc    *process      // nil for a URL
	done    chan struct{} // closed once the session ended, for whatever reason
}

func newUpstream(name string, cfg ServerConfig) *upstream {
	client := sdk.NewClient(&sdk.Implementation{Name: "spine", Version: "1"}, nil)
	return &upstream{name: name, cfg: cfg, client: client, stop: make(chan struct{}), ready: make(chan struct{})}
}

// connect starts (or dials) the server and completes the handshake.
func (u *upstream) connect(ctx context.Context) (*connection, error) {
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	var transport sdk.Transport
	var proc *process
	if u.cfg.URL != "" {
		transport = &sdk.StreamableClientTransport{Endpoint: u.cfg.URL, MaxRetries: -1,
			HTTPClient: &http.Client{Transport: headers{values: u.cfg.Headers}}}
	} else {
		var err error
		if proc, transport, err = startProcess(u.cfg); err != nil {
			return nil, err
		}
	}
	session, err := u.client.Connect(ctx, transport, nil)
	if err != nil {
		if proc != nil {
			proc.kill()
			if how, ok := proc.ended(time.Second); ok {
				return nil, fmt.Errorf("%w; the server %s", err, how)
			}
		}
		return nil, err
	}
	c := &connection{session: session, proc: proc, done: make(chan struct{})}
	go func() {
		session.Wait()
		close(c.done)
		u.lost(c)
	}()
	return c, nil
}

// start brings the server up for the first time.
func (u *upstream) start(ctx context.Context) error {
	c, err := u.connect(ctx)
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.current = c
	close(u.ready)
	return nil
}

// lost runs when a session ends: unless the engine closed it, the server
// is down and a restart begins.
func (u *upstream) lost(c *connection) {
	why := c.why(nil) // may wait for the process: not under the lock
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed || u.current != c {
		return
	}
	u.current = nil
	u.ready = make(chan struct{})
	u.down = fmt.Errorf("mcp server %q is down: %s; spine is restarting it", u.name, why)
	go u.restart()
}

// why says how a session ended; cause is the error a call met, if any.
func (c *connection) why(cause error) string {
	if c.proc != nil {
		if how, ok := c.proc.ended(time.Second); ok {
			return "it " + how
		}
		return "it closed its connection"
	}
	if cause != nil {
		return "the connection failed (" + cause.Error() + ")"
	}
	return "the connection ended"
}

// restartDelays are the waits between restart attempts (the last repeats).
var restartDelays = []time.Duration{0, 100 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second, 5 * time.Second}

func (u *upstream) restart() {
	for attempt := 0; ; attempt++ {
		select {
		case <-u.stop:
			return
		case <-time.After(restartDelays[min(attempt, len(restartDelays)-1)]):
		}
		c, err := u.connect(context.Background())
		u.mu.Lock()
		if u.closed {
			u.mu.Unlock()
			if c != nil {
				c.session.Close()
			}
			return
		}
		if err == nil {
			u.current, u.down = c, nil
			close(u.ready)
			u.mu.Unlock()
			return
		}
		u.down = fmt.Errorf("mcp server %q is down and does not restart: %v", u.name, err)
		u.mu.Unlock()
	}
}

// waitReady waits until the server is up (tests and benchmarks; a program's
// call never waits).
func (u *upstream) waitReady(ctx context.Context) error {
	u.mu.Lock()
	ready := u.ready
	u.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call sends one tools/call. A call in flight when the server dies, and
// every call while it restarts, fails with why it is down.
func (u *upstream) call(ctx context.Context, tool string, args any) (*sdk.CallToolResult, error) {
	u.mu.Lock()
	c, down, closed := u.current, u.down, u.closed
	u.mu.Unlock()
	switch {
	case closed:
		return nil, fmt.Errorf("mcp server %q: the engine is closed", u.name)
	case c == nil:
		return nil, down
	}
	result, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err == nil {
		return result, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var answer *jsonrpc.Error
	if errors.As(err, &answer) && !localFailures[answer.Code] && !errors.Is(err, sdk.ErrConnectionClosed) {
		return nil, fmt.Errorf("mcp server %q refused the call: %w", u.name, err)
	}
	// The connection failed under the call: once it is seen to end, say how,
	// and mark the server down now, so the next call is told so rather than
	// trying the dead session too.
	c.session.Close()
	select {
	case <-c.done:
	case <-time.After(2 * time.Second):
	}
	u.lost(c)
	return nil, fmt.Errorf("mcp server %q failed during the call: %s; spine is restarting it", u.name, c.why(err))
}

// localFailures are the JSON-RPC codes the SDK gives a call that never got
// an answer (the client or server closing, the transport rejecting the
// request: an HTTP server that is gone): the connection failed, the server
// did not refuse.
var localFailures = map[int64]bool{-32003: true, -32004: true, -32005: true}

// close ends the session (and process) for good.
func (u *upstream) close() {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return
	}
	u.closed = true
	close(u.stop)
	c := u.current
	u.current = nil
	u.mu.Unlock()
	if c != nil {
		c.session.Close()
	}
}

// headers adds the configured headers to every request to a URL server.
type headers struct{ values map[string]string }

func (h headers) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.values) > 0 {
		req = req.Clone(req.Context())
		for key, value := range h.values {
			req.Header.Set(key, value)
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}
