package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// barrier is a tool that returns only once `want` calls are inside it at the
// same time, or fails at its context's deadline: all of them returning
// proves they all ran at once, whatever the machine's speed.
type barrier struct {
	want    int
	mu      sync.Mutex
	arrived int
	all     chan struct{}
	check   func() error // run at every arrival
}

func newBarrier(want int, check func() error) *barrier {
	return &barrier{want: want, all: make(chan struct{}), check: check}
}

func (b *barrier) tool(t testing.TB) *bridge.Tool {
	return mustTool(t, "barrier", false, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		if err := b.check(); err != nil {
			return nil, err
		}
		b.mu.Lock()
		b.arrived++
		if b.arrived == b.want {
			close(b.all)
		}
		b.mu.Unlock()
		select {
		case <-b.all:
			return json.RawMessage(`"together"`), nil
		case <-ctx.Done():
			b.mu.Lock()
			defer b.mu.Unlock()
			return nil, fmt.Errorf("only %d of %d calls were in flight at once", b.arrived, b.want)
		}
	})
}

// runWith executes source in a child of p with the given tools, under a
// deadline of d.
func runWith(p *Pool, tools map[string]*bridge.Tool, manifest, source string, d time.Duration) (*bridge.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{Tools: tools, Limits: bridge.Limits{MaxToolCalls: 10, MaxArgBytes: 1 << 16}})
	defer s.Close()
	g, err := p.Acquire(s)
	if err != nil {
		return nil, err
	}
	defer g.Release()
	req, _ := json.Marshal(map[string]any{"source": source, "inputs": map[string]any{}, "manifest": json.RawMessage(manifest)})
	return g.Execute(req)
}

// valueIs checks, off the test's goroutine, that an execution returned want.
func valueIs(result *bridge.Result, err error, want string) error {
	if err != nil {
		return err
	}
	var e envelope
	if jerr := json.Unmarshal(result.Response, &e); jerr != nil || e.Error != nil || compact(e.Value) != want {
		return fmt.Errorf("response %s, want the value %s", result.Response, want)
	}
	return nil
}

const barrierManifest = `[{"name":"barrier","speculative":false}]`

// Sixteen executions that each wait in a tool all run at once with only two
// children kept warm: taking the last spare asks for its replacement at
// once, and waiting executions ask for more, up to MaxChildren.
func TestPoolGrowsWithDemand(t *testing.T) {
	const executions = 16
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2, MaxChildren: executions, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b := newBarrier(executions, func() error {
		if c := p.counts(); c.Busy+c.Spare+c.Starting > executions {
			return fmt.Errorf("more children than MaxChildren: %s", c)
		}
		return nil
	})
	tools := map[string]*bridge.Tool{"barrier": b.tool(t)}
	errs := make(chan error, executions)
	for i := 0; i < executions; i++ {
		go func() {
			result, err := runWith(p, tools, barrierManifest, "result = barrier()", 60*time.Second)
			errs <- valueIs(result, err, `"together"`)
		}()
	}
	for i := 0; i < executions; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// holdAll acquires n children and returns their guests and sessions.
func holdAll(t *testing.T, p *Pool, n int) (release func()) {
	t.Helper()
	var guests []bridge.Guest
	var sessions []*bridge.Session
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		s := bridge.NewSession(ctx, bridge.Config{})
		g, err := p.Acquire(s)
		if err != nil {
			cancel()
			t.Fatalf("child %d of %d: %v", i+1, n, err)
		}
		guests, sessions = append(guests, g), append(sessions, s)
		t.Cleanup(cancel)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			for i, g := range guests {
				g.Release()
				sessions[i].Close()
			}
		})
	}
	t.Cleanup(release)
	return release
}

// waitUntil polls cond (the pool's counts move on other goroutines) for up
// to a generous deadline.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// With MaxChildren busy, Acquire waits, and its wait ends with the
// session's context: a deadline is a timeout that matches
// context.DeadlineExceeded, a cancel matches context.Canceled. A freed slot
// then serves a waiting Acquire.
func TestAcquireWaitsOnlyForAFullPoolAndObeysItsContext(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, MaxChildren: 2, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	release := holdAll(t, p, 2)

	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		s := bridge.NewSession(ctx, bridge.Config{})
		defer s.Close()
		_, err := p.Acquire(s)
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrTimeout) || errors.Is(err, context.Canceled) {
			t.Fatalf("Acquire past its deadline: %v", err)
		}
	})
	t.Run("session deadline", func(t *testing.T) {
		// A stream's session: a context without a deadline, and the
		// deadline the host set on the session.
		s := bridge.NewSession(context.Background(), bridge.Config{})
		defer s.Close()
		s.SetDeadline(time.Now().Add(200 * time.Millisecond))
		_, err := p.Acquire(s)
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrTimeout) {
			t.Fatalf("Acquire past the session's deadline: %v", err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		s := bridge.NewSession(ctx, bridge.Config{})
		defer s.Close()
		done := make(chan error, 1)
		go func() {
			_, err := p.Acquire(s)
			done <- err
		}()
		waitUntil(t, "the Acquire to wait", func() bool { return p.counts().Waiting == 1 })
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTimeout) {
			t.Fatalf("Acquire cancelled while waiting: %v", err)
		}
	})
	t.Run("already done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := bridge.NewSession(ctx, bridge.Config{})
		defer s.Close()
		before := p.counts()
		if _, err := p.Acquire(s); !errors.Is(err, context.Canceled) {
			t.Fatalf("Acquire with a cancelled context: %v", err)
		}
		if after := p.counts(); after.Busy != before.Busy {
			t.Fatalf("a cancelled Acquire took a child: %s, then %s", before, after)
		}
	})
	t.Run("freed slot", func(t *testing.T) {
		done := make(chan error, 1)
		tools := testTools(t)
		go func() {
			result, err := runWith(p, tools, testManifest, "result = add(X=2, Y=3)", 60*time.Second)
			done <- valueIs(result, err, "5")
		}()
		waitUntil(t, "the execution to wait for a child", func() bool { return p.counts().Waiting == 1 })
		release()
		if err := <-done; err != nil {
			t.Fatalf("the execution waiting for a freed slot: %v", err)
		}
	})
	// Release frees a slot once it has killed the child, just after it returns.
	waitUntil(t, "every slot to be free again", func() bool { c := p.counts(); return c.Waiting == 0 && c.Busy == 0 })
}

func TestNegativeCapacityIsRefused(t *testing.T) {
	for _, o := range []Options{{Prefork: -1}, {MaxChildren: -2}} {
		o.Binary = testenv.GuestBinary(t)
		if _, err := NewPool(o); err == nil || !strings.Contains(err.Error(), "must not be negative") {
			t.Fatalf("%+v: %v", o, err)
		}
	}
}

func TestPreforkNeverExceedsMaxChildren(t *testing.T) {
	if o := (Options{Prefork: 8, MaxChildren: 3}).withDefaults(); o.Prefork != 3 || o.MaxChildren != 3 {
		t.Fatalf("Prefork %d, MaxChildren %d", o.Prefork, o.MaxChildren)
	}
	if o := (Options{MemoryBytes: 1 << 62}).withDefaults(); o.MaxChildren != 1 || o.Prefork != 1 {
		t.Fatalf("children larger than the machine: MaxChildren %d, Prefork %d (want 1, 1)", o.MaxChildren, o.Prefork)
	}
}

// A pool that serves one execution (NoRefill) forks its Prefork child and
// nothing more: not for an execution that comes before that child is ready
// (it waits for it), not a replacement when it is taken or released. An
// execution that then finds no child at all still gets one forked for it.
func TestNoRefillForksNoReplacement(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, NoRefill: true, MaxChildren: 4,
		MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	release := take(t, p) // at once: the zygote is still warming up, so this Acquire waits
	if c := p.counts(); c != (counts{Busy: 1}) {
		t.Fatalf("after the child was taken: %s, want one busy, none spare or starting", c)
	}
	release()
	waitUntil(t, "the child released", func() bool { return p.counts().Busy == 0 })
	if c := p.counts(); c != (counts{}) {
		t.Fatalf("after the release: %s, want no child spare or starting", c)
	}
	if got := mustValue(t, p, "result = 'forked on demand'"); got != `"forked on demand"` {
		t.Fatal(got)
	}
	waitUntil(t, "the second child released", func() bool { return p.counts().Busy == 0 })
	if c := p.counts(); c != (counts{}) {
		t.Fatalf("after the second execution: %s, want no child spare or starting", c)
	}
}
