package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
	"github.com/spine-sandbox/spine/tests/security"
)

// The security suite: every tests/security/*.py is one attack, run through
// the public API in the default sandbox mode with the demo tools, and must
// end exactly as its header says (status, exception type, value). A secret
// is planted in the environment the sandbox starts from and in a file whose
// path the program is given; whatever the outcome, the secret must never come
// back in any part of the response, and the next plain execution must work.
//
// Programs that measure the host's RSS run first, one at a time (the figure
// is the whole process's); the rest run in parallel against shared engines.
func TestSecuritySuite(t *testing.T) {
	// go test runs in the package's directory: the programs are beside it.
	files, err := filepath.Glob(filepath.Join("..", "tests", "security", "*.py"))
	if err != nil || len(files) < 40 {
		t.Fatalf("security suite: %d programs (%v)", len(files), err)
	}
	secret := fmt.Sprintf("SPINE-SECRET-%d", time.Now().UnixNano())
	t.Setenv("SPINE_PLANTED_SECRET", secret) // before the zygote starts, so it inherits it
	secretPath := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secretPath, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := &securitySuite{secret: secret, secretPath: secretPath}
	suite.plain = securityEngine(t)
	t.Cleanup(suite.closeNative) // after the parallel subtests

	type program struct {
		name   string
		source []byte
		expect security.Expectation
	}
	var serial, parallel []program
	for _, file := range files {
		source, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p := program{name: strings.TrimSuffix(filepath.Base(file), ".py"), source: source}
		if p.expect, err = security.Parse(source); err != nil {
			t.Errorf("%s: malformed header: %v", filepath.Base(file), err)
			continue
		}
		if p.expect.RSSMiB > 0 {
			serial = append(serial, p)
		} else {
			parallel = append(parallel, p)
		}
	}
	// Serial subtests all end before the parallel ones start.
	for _, p := range serial {
		t.Run(p.name, func(t *testing.T) { suite.check(t, p.source, p.expect) })
	}
	for _, p := range parallel {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			suite.check(t, p.source, p.expect)
		})
	}
}

type securitySuite struct {
	secret, secretPath string
	plain              *host.Engine

	nativeOnce  sync.Once
	native      *host.Engine
	nativeCache string
	nativeErr   error
}

// securityEngine is the engine a service would make: the default isolation
// (sandbox) and default limits, but for a timeout long enough that each
// program's own deadline (its context) is what ends it.
func securityEngine(t *testing.T, opts ...host.Option) *host.Engine {
	t.Helper()
	opts = append([]host.Option{host.WithTools(demotools.Tools()...), host.WithLimits(host.Limits{Timeout: time.Minute}),
		host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t)})}, opts...)
	e, err := host.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// nativeEngine is started on the first program that asks for native code,
// with a module cache of its own.
func (s *securitySuite) nativeEngine(t *testing.T) *host.Engine {
	s.nativeOnce.Do(func() {
		cache, err := os.MkdirTemp("", "spine-security-native-")
		if err != nil {
			s.nativeErr = err
			return
		}
		s.native, s.nativeErr = host.New(host.WithTools(demotools.Tools()...),
			host.WithLimits(host.Limits{Timeout: time.Minute}),
			host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t)}),
			host.WithNative(host.NativeOptions{Toolchain: testenv.NativeToolchain(t), CacheDir: cache, HotCalls: 50}))
		s.nativeCache = cache
	})
	if s.nativeErr != nil {
		t.Fatalf("native engine: %v", s.nativeErr)
	}
	if s.native == nil { // the first program to ask failed finding the toolchain
		t.Fatal("native engine: no toolchain (see the first native program's failure)")
	}
	return s.native
}

func (s *securitySuite) closeNative() {
	if s.native != nil {
		s.native.Close()
	}
	if s.nativeCache != "" {
		os.RemoveAll(s.nativeCache)
	}
}

// check runs one program and holds it to its expectation.
func (s *securitySuite) check(t *testing.T, source []byte, x security.Expectation) {
	e := s.plain
	if x.Native != "" {
		e = s.nativeEngine(t)
	}
	var resp *host.Response
	var err error
	run := func() { resp, err = s.run(e, string(source), x) }
	if x.RSSMiB > 0 {
		grew, measureErr := rssPeak(run)
		if measureErr != nil {
			t.Fatal(measureErr)
		}
		t.Logf("host RSS grew %d KiB at its peak (bound %d MiB)", grew, x.RSSMiB)
		if grew >= x.RSSMiB<<10 {
			t.Errorf("the host's RSS grew %d KiB, bound %d MiB", grew, x.RSSMiB)
		}
	} else {
		run()
	}
	if resp == nil {
		t.Fatalf("no response (err %v); want status %s", err, x.Status)
	}
	if leak := s.leak(resp, err); leak != "" {
		t.Errorf("the planted secret came back in %s", leak)
	}
	if resp.Status != x.Status {
		t.Fatalf("status %s, want %s (error %q, err %v, value %.200s)", resp.Status, x.Status, resp.Error, err, resp.Value)
	}
	if x.Exception != "" && exceptionType(resp.Error) != x.Exception {
		t.Fatalf("error %q, want exception type %s", resp.Error, x.Exception)
	}
	if (err == nil) != (x.Status == host.StatusOK) {
		t.Fatalf("status %s with err %v", resp.Status, err)
	}
	// Call offsets count from the execution's start, which is after its
	// context was made: a call that succeeded with an offset past the
	// deadline ran under a done context.
	for _, c := range resp.Calls {
		if c.Start > x.Deadline && c.Error == "" {
			t.Errorf("a %s call started %v into the execution, after its %v deadline", c.Tool, c.Start, x.Deadline)
		}
	}
	if x.Value != nil && !sameJSON(resp.Value, x.Value) {
		t.Fatalf("value %.500s, want %s", resp.Value, x.Value)
	}
	next, err := e.Execute(context.Background(), host.Request{Source: "result = 1 + 1"})
	if err != nil || string(next.Value) != "2" {
		t.Fatalf("the next plain execution: %v (value %s)", err, valueOf(next))
	}
}

// run executes the program in its mode, under its deadline.
func (s *securitySuite) run(e *host.Engine, source string, x security.Expectation) (*host.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), x.Deadline)
	defer cancel()
	inputs, _ := json.Marshal(map[string]string{"secret_path": s.secretPath})
	req := host.Request{Inputs: inputs, PLM: x.Mode == "plm", Native: x.Native}
	if x.Mode != "stream" {
		req.Source = source
		return e.Execute(ctx, req)
	}
	stream, err := e.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	const chunk = 7 // small enough to cut tokens, strings and UTF-8 sequences
	for start := 0; start < len(source); start += chunk {
		if err := stream.Feed([]byte(source[start:min(start+chunk, len(source))])); err != nil {
			stream.Abort()
			return nil, fmt.Errorf("feed at byte %d: %w", start, err)
		}
	}
	return stream.Finish()
}

// leak names the part of the outcome that carries the secret ("" if none).
func (s *securitySuite) leak(resp *host.Response, err error) string {
	parts := map[string]string{"value": string(resp.Value), "error": resp.Error, "traceback": resp.Traceback,
		"stdout": resp.Stdout, "stderr": resp.Stderr, "transformed": resp.Transformed}
	if err != nil {
		parts["the returned error"] = err.Error()
	}
	for i, c := range resp.Calls {
		parts[fmt.Sprintf("trace call %d", i)] = c.Tool + string(c.Args) + c.Error
	}
	for i, v := range resp.Emitted {
		parts[fmt.Sprintf("emitted value %d", i)] = string(v)
	}
	for i, f := range resp.Native {
		parts[fmt.Sprintf("native entry %d", i)] = f.Name + f.Reason
	}
	for name, text := range parts {
		if strings.Contains(text, s.secret) {
			return fmt.Sprintf("%s: %.300q", name, text)
		}
	}
	return ""
}
