package native

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// The compilations of these tests run the real compile service and the real
// g++; testenv.SlowCXX makes the compilation of a function named slow_*
// block in a real cc1plus until its process group is killed. The compile
// timeout is far beyond the tests' deadlines, so only what a test exercises
// can end a compilation.
const noTimeout = time.Hour

func slowSource(name string) string { return "def " + name + "(x: int) -> int:\n    return x + 1\n" }

// ask sends one request of the guest's protocol and decodes the answer.
func ask(t *testing.T, s *Session, request any) []answerUnit {
	t.Helper()
	raw, _ := json.Marshal(request)
	var answer struct {
		Units []answerUnit `json:"units"`
		Error *string      `json:"error"`
	}
	if err := json.Unmarshal(s.Handle(raw), &answer); err != nil || answer.Error != nil {
		t.Fatalf("request %s: %v %v", raw, err, answer.Error)
	}
	return answer.Units
}

// startAuto hands the named functions over in auto mode (nothing compiles yet).
func startAuto(t *testing.T, s *Session, names ...string) {
	t.Helper()
	var units []unitSpec
	for _, name := range names {
		units = append(units, unitSpec{Name: name, Source: slowSource(name)})
	}
	ask(t, s, map[string]any{"op": "start", "units": units})
}

// compileNow is the guest's "compile" of one hot function; its status.
func compileNow(t *testing.T, s *Session, name string) answerUnit {
	t.Helper()
	units := ask(t, s, map[string]any{"op": "compile", "name": name})
	if len(units) != 1 || units[0].Name != name {
		t.Fatalf("compile %s: %+v", name, units)
	}
	return units[0]
}

// jobOf is the compilation in flight for a function's key.
func jobOf(t *testing.T, c *Compiler, name string) *job {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	j := c.jobs[key(c.ident, name, slowSource(name))]
	if j == nil {
		t.Fatalf("no compilation of %s in flight", name)
	}
	return j
}

// waitJob waits for j's outcome, failing after a generous deadline.
func waitJob(t *testing.T, j *job) {
	t.Helper()
	select {
	case <-j.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the compilation did not end within 30s")
	}
}

func record(t *testing.T, s *Session, name string) Record {
	t.Helper()
	for _, r := range s.Records() {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no record of %s", name)
	return Record{}
}

// cacheFiles lists what the cache holds, relative to its root, but for the
// remembered identities (TestIdentityIsRememberedPerToolchainState).
func cacheFiles(t *testing.T, c *Compiler) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(c.opts.CacheDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && path != c.opts.CacheDir {
			rel, _ := filepath.Rel(c.opts.CacheDir, path)
			if rel == filepath.Join(privateDir, identityDir) {
				return filepath.SkipDir
			}
			files = append(files, rel)
		}
		return nil
	})
	return files
}

func TestExecutionEndCancelsItsCompilation(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	c := newCompiler(t, Options{CXX: cxx.Path, Timeout: noTimeout})
	ctx, endExecution := context.WithCancel(context.Background())
	s := c.Session(ctx, "auto")
	startAuto(t, s, "slow_f")
	if u := compileNow(t, s, "slow_f"); u.Status != StatusPending {
		t.Fatalf("compile: %+v", u)
	}
	j := jobOf(t, c, "slow_f")
	group := cxx.WaitCompiling(t, 1)
	endExecution()
	waitJob(t, j)
	if f := j.outcome.Failure; f == nil || f.Kind != "cancelled" || f.Message != "no execution waits for this compilation any more" {
		t.Fatalf("outcome %+v", j.outcome)
	}
	testenv.WaitGroupGone(t, group) // the service, the wrapper, g++ and cc1plus
	if r := record(t, s, "slow_f"); r.Status != StatusFailed || r.Failure.Kind != "cancelled" {
		t.Fatalf("record %+v", r)
	}
	// A cancellation is not a failure of the source: nothing is remembered,
	// and nothing the killed compilation was writing is left.
	if files := cacheFiles(t, c); strings.Join(files, " ") != "modules private" {
		t.Fatalf("the cache holds %v", files)
	}
	if c.lookup(key(c.ident, "slow_f", slowSource("slow_f"))) != nil {
		t.Fatal("the cancellation was remembered")
	}
}

func TestSharedCompilationLivesWhileAnExecutionWaits(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	c := newCompiler(t, Options{CXX: cxx.Path, Timeout: noTimeout})
	first, second := c.Session(context.Background(), "auto"), c.Session(context.Background(), "auto")
	for _, s := range []*Session{first, second} {
		startAuto(t, s, "slow_g")
		compileNow(t, s, "slow_g")
	}
	j := jobOf(t, c, "slow_g")
	group := cxx.WaitCompiling(t, 1)
	first.Close()
	c.mu.Lock()
	stopped, service := closed(j.stop), j.service
	c.mu.Unlock()
	if stopped || service == nil || service.killed.Load() || len(cxx.Groups()) != 1 {
		t.Fatalf("one execution left and the shared compilation stopped (%v) or restarted (%v)", stopped, cxx.Groups())
	}
	second.Close()
	waitJob(t, j)
	if f := j.outcome.Failure; f == nil || f.Kind != "cancelled" {
		t.Fatalf("outcome %+v", j.outcome)
	}
	testenv.WaitGroupGone(t, group)
}

// One execution asks for more compilations than its share: the rest wait in
// the execution, so the next execution's compilation is queued, not refused,
// and runs as soon as the first execution ends.
func TestOneExecutionCannotFillTheQueue(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	c := newCompiler(t, Options{CXX: cxx.Path, Timeout: noTimeout, Workers: 1, Queue: 4, PerExecution: 2})
	ctx, endGreedy := context.WithCancel(context.Background())
	greedy := c.Session(ctx, "auto")
	var names []string
	for i := range 10 {
		names = append(names, fmt.Sprintf("slow_%d", i))
	}
	startAuto(t, greedy, names...)
	for _, name := range names {
		if u := compileNow(t, greedy, name); u.Status != StatusPending {
			t.Fatalf("%s: %+v", name, u)
		}
	}
	c.mu.Lock()
	inFlight := len(c.jobs)
	c.mu.Unlock()
	if inFlight != 2 {
		t.Fatalf("%d of one execution's compilations reached the compiler, want its share of 2", inFlight)
	}
	group := cxx.WaitCompiling(t, 1)

	next := c.Session(context.Background(), "auto")
	startAuto(t, next, "fast")
	if u := compileNow(t, next, "fast"); u.Status != StatusPending {
		t.Fatalf("the next execution's compilation: %+v", u)
	}
	j := jobOf(t, c, "fast")
	endGreedy()
	waitJob(t, j)
	if j.outcome.Failure != nil {
		t.Fatalf("the next execution's compilation: %+v", j.outcome.Failure)
	}
	if r := record(t, next, "fast"); r.Status != StatusReady || r.Cache != "miss" {
		t.Fatalf("record %+v", r)
	}
	for _, name := range names {
		if r := record(t, greedy, name); r.Status != StatusFailed || r.Failure.Kind != "cancelled" {
			t.Fatalf("%s: %+v", name, r)
		}
	}
	testenv.WaitGroupGone(t, group)
	if n := len(cxx.Groups()); n != 2 { // the greedy execution's first, then "fast"
		t.Fatalf("%d compilations started", n)
	}
}

// Eager mode waits for all of an execution's functions, handing them over
// within its share as earlier ones finish.
func TestEagerCompilesBeyondItsShareInTurn(t *testing.T) {
	c := newCompiler(t, Options{Workers: 1, Queue: 4, PerExecution: 1})
	s := c.Session(context.Background(), "eager")
	units := ask(t, s, map[string]any{"op": "start", "units": []unitSpec{
		{Name: "a", Source: slowSource("a")}, {Name: "b", Source: slowSource("b")}, {Name: "c", Source: slowSource("c")}}})
	if len(units) != 3 {
		t.Fatalf("answer %+v", units)
	}
	for _, u := range units {
		if u.Status != StatusReady || u.Cache != "miss" {
			t.Fatalf("answer %+v", units)
		}
	}
}

func TestCloseCancelsRatherThanWaits(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	c := newCompiler(t, Options{CXX: cxx.Path, Timeout: noTimeout})
	s := c.Session(context.Background(), "auto")
	startAuto(t, s, "slow_h")
	compileNow(t, s, "slow_h")
	j := jobOf(t, c, "slow_h")
	group := cxx.WaitCompiling(t, 1)
	c.Close() // returns: it does not wait for a compilation that never ends
	waitJob(t, j)
	if f := j.outcome.Failure; f == nil || f.Kind != "cancelled" || f.Message != errClosed.Error() {
		t.Fatalf("outcome %+v", j.outcome)
	}
	testenv.WaitGroupGone(t, group)
	if u := compileNow(t, s, "slow_h"); u.Status != StatusFailed {
		t.Fatalf("compile after Close: %+v", u)
	}
}

// The parent-death signal fires when the thread that started the service
// ends. A thread ends when a goroutine locked to it returns; a service asked
// for from such a goroutine must outlive it.
func TestServiceOutlivesTheThreadThatAskedForIt(t *testing.T) {
	c := newCompiler(t, Options{})
	type started struct {
		h      *helper
		tid    int
		err    error
		onMain chan struct{} // the goroutine ran on the main thread, which never ends
	}
	result := make(chan started)
	var r started
	for r.h == nil && r.err == nil {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
			if syscall.Gettid() == os.Getpid() {
				// The runtime never ends the main thread: keep it busy until
				// the test ends, and try again on another thread.
				release := make(chan struct{})
				result <- started{onMain: release}
				<-release
				runtime.UnlockOSThread()
				return
			}
			h, err := startHelper(c.opts, c.privatePath())
			result <- started{h: h, tid: syscall.Gettid(), err: err}
		}()
		if r = <-result; r.onMain != nil {
			defer close(r.onMain)
		}
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.h.kill()
	testenv.Eventually(t, "the locked thread's end", func() bool {
		_, err := os.Stat(fmt.Sprintf("/proc/self/task/%d", r.tid))
		return os.IsNotExist(err)
	})
	k := key(c.ident, "f", source("f", 3))
	resp, err := r.h.do(serviceRequest{Name: "f", Source: source("f", 3), Out: c.modulePath(k)}, time.Minute)
	if err != nil || !resp.OK {
		t.Fatalf("the service died with the thread that asked for it: %v %+v", err, resp)
	}
}

// hostRole makes this test binary the host that TestKilledHostLeavesNoCompiler
// kills: it starts a compilation that never ends, then waits to be killed.
const hostRole = "SPINE_NATIVE_TEST_HOST"

func TestMain(m *testing.M) {
	if dir := os.Getenv(hostRole); dir != "" {
		c, err := New(Options{Toolchain: os.Getenv("SPINE_NATIVE"), CacheDir: filepath.Join(dir, "cache"),
			CXX: filepath.Join(dir, "g++"), Timeout: noTimeout})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		c.compile(key(c.ident, "slow_k", slowSource("slow_k")), "slow_k", slowSource("slow_k"))
		for {
			time.Sleep(time.Hour)
		}
	}
	os.Exit(m.Run())
}

func TestKilledHostLeavesNoCompiler(t *testing.T) {
	cxx := testenv.NewSlowCXX(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hostRole+"="+cxx.Dir, "SPINE_NATIVE="+testenv.NativeToolchain(t))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	group := cxx.WaitCompiling(t, 1)
	if members := testenv.GroupMembers(group); len(members) < 4 { // service, watchdog, wrapper, g++, cc1plus...
		t.Fatalf("the compilation's group holds %+v", members)
	}
	cmd.Process.Kill() // SIGKILL: the host runs no code of its own any more
	cmd.Wait()
	testenv.WaitGroupGone(t, group)
}
