package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/testenv"
)

var (
	sharedOnce sync.Once
	shared     *Pool
	sharedErr  error
)

// sharedPool is one pool for the tests that do not count resources.
func sharedPool(t testing.TB) *Pool {
	t.Helper()
	sharedOnce.Do(func() {
		shared, sharedErr = NewPool(Options{Binary: testenv.GuestBinary(t), MemoryBytes: 512 << 20, CPUSeconds: 10})
	})
	if sharedErr != nil {
		t.Fatalf("NewPool: %v", sharedErr)
	}
	return shared
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, p := range []*Pool{shared, patient} {
		if p != nil {
			p.Close()
		}
	}
	os.Exit(code)
}

func mustTool(t testing.TB, name string, speculative bool, h bridge.Handler) *bridge.Tool {
	t.Helper()
	tool, err := bridge.NewTool(name, "", nil, speculative, h)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// testTools: echo (its arguments back), add (x+y), big (a string of n
// bytes, past the runtime's 64 KiB answer buffer), slow (sleeps Ms), and
// sleep (waits ms, then returns value), the demo tool the security programs
// call.
func testTools(t testing.TB) map[string]*bridge.Tool {
	return map[string]*bridge.Tool{
		"echo": mustTool(t, "echo", true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			return args, nil
		}),
		"add": mustTool(t, "add", true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct{ X, Y int }
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return json.Marshal(a.X + a.Y)
		}),
		"big": mustTool(t, "big", false, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct{ N int }
			json.Unmarshal(args, &a)
			return json.Marshal(strings.Repeat("b", a.N))
		}),
		"sleep": mustTool(t, "sleep", true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct {
				Ms    float64
				Value json.RawMessage
			}
			json.Unmarshal(args, &a)
			select {
			case <-time.After(time.Duration(a.Ms * float64(time.Millisecond))):
				if len(a.Value) == 0 {
					return json.RawMessage("null"), nil
				}
				return a.Value, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}),
		"slow": mustTool(t, "slow", true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct{ Ms int }
			json.Unmarshal(args, &a)
			select {
			case <-time.After(time.Duration(a.Ms) * time.Millisecond):
				return json.RawMessage(`"slept"`), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}),
	}
}

const testManifest = `[{"name":"echo","speculative":true},{"name":"add","speculative":true},{"name":"big","speculative":false},{"name":"slow","speculative":true},{"name":"sleep","speculative":true}]`

func request(source string, plm bool) []byte {
	encoded, _ := json.Marshal(map[string]any{"source": source, "inputs": map[string]any{"k": 7},
		"manifest": json.RawMessage(testManifest), "plm": plm})
	return encoded
}

type outcome struct {
	result  *bridge.Result
	err     error
	session *bridge.Session
}

// runIn executes source in a fresh child of p with the test tools.
func runIn(t testing.TB, p *Pool, source string, timeout time.Duration, plm bool) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s := bridge.NewSession(ctx, bridge.Config{Tools: testTools(t), Limits: bridge.Limits{MaxToolCalls: 50, MaxArgBytes: 1 << 20}})
	g, err := p.Acquire(s)
	if err != nil {
		s.Close()
		return outcome{err: err, session: s}
	}
	result, err := g.Execute(request(source, plm))
	g.Release()
	s.Close()
	return outcome{result: result, err: err, session: s}
}

// acquire binds a child of the shared pool to a fresh session with the test
// tools and a 10-second deadline, for tests that drive the child by hand.
// The session and its context end with the test; the caller releases the
// child where its test needs it released.
func acquire(t testing.TB) (*bridge.Session, bridge.Guest) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	s := bridge.NewSession(ctx, bridge.Config{Tools: testTools(t)})
	t.Cleanup(s.Close) // before cancel: cleanups run last-registered first
	g, err := sharedPool(t).Acquire(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, g
}

// envelope is bootstrap's response.
type envelope struct {
	Value json.RawMessage `json:"value"`
	Error *string         `json:"error"`
	Kind  string          `json:"kind"`
}

func decode(t testing.TB, r *bridge.Result) envelope {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(r.Response, &e); err != nil {
		t.Fatalf("response %q: %v", r.Response, err)
	}
	return e
}

// mustValue runs source and returns its result value as compact JSON.
func mustValue(t testing.TB, p *Pool, source string) string {
	t.Helper()
	o := runIn(t, p, source, 10*time.Second, false)
	if o.err != nil {
		t.Fatalf("execution failed: %v", o.err)
	}
	e := decode(t, o.result)
	if e.Error != nil {
		t.Fatalf("program raised: %s", *e.Error)
	}
	return compact(e.Value)
}

// compact is JSON without insignificant space, for comparisons.
func compact(raw []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		return string(raw)
	}
	return out.String()
}

// startSleeper starts a process (killed when the test ends) and opens a
// pidfd on it, which the caller owns.
func startSleeper(t *testing.T) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pidfd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(cmd.Process.Pid), 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return cmd, int(pidfd)
}

const sysPidfdOpen = 434 // pidfd_open(2), x86_64 and arm64 alike
