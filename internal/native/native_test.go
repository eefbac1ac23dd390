package native

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
	"github.com/spine-sandbox/spine/internal/testenv"
)

func newCompiler(t *testing.T, opts Options) *Compiler {
	t.Helper()
	if opts.Toolchain == "" {
		opts.Toolchain = testenv.NativeToolchain(t)
	}
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func source(name string, k int) string {
	return "def " + name + "(x: int) -> int:\n    return x * " + string(rune('0'+k)) + "\n"
}

func TestKeyCoversToolchainNameAndSource(t *testing.T) {
	c := newCompiler(t, Options{})
	copyDir := filepath.Join(t.TempDir(), "tc")
	if err := os.CopyFS(copyDir, os.DirFS(testenv.NativeToolchain(t))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(copyDir, "python/native/compiler.py"), []byte("# another frontend\n"), 0o644)
	other, err := identity(copyDir, c.opts.CXX)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{
		key(c.ident, "f", source("f", 2)): true, key(other, "f", source("f", 2)): true,
		key(c.ident, "g", source("f", 2)): true, key(c.ident, "f", source("f", 3)): true,
	}
	if len(keys) != 4 || !strings.Contains(cpuIdentity(), "model") {
		t.Fatalf("keys collide or no CPU identity: %v %q", keys, cpuIdentity())
	}
}

func TestTimeoutKillsTheServiceAndLeavesNothing(t *testing.T) {
	cache := t.TempDir()
	c := newCompiler(t, Options{CacheDir: cache, Timeout: time.Nanosecond})
	j := c.compile(key(c.ident, "f", source("f", 2)), "f", source("f", 2))
	<-j.done
	if f := j.outcome.Failure; f == nil || f.Kind != "service" || !strings.Contains(f.Message, "longer than") {
		t.Fatalf("outcome %+v", j.outcome)
	}
	if c.lookup(key(c.ident, "f", source("f", 2))) != nil {
		t.Fatal("a timed-out compilation was remembered")
	}
	// A compiler with room to work builds the same key into the same cache.
	d := newCompiler(t, Options{CacheDir: cache})
	j = d.compile(key(d.ident, "f", source("f", 2)), "f", source("f", 2))
	<-j.done
	if j.outcome.Failure != nil || j.outcome.Path == "" {
		t.Fatalf("outcome %+v", j.outcome)
	}
	// The module where a child may read it; its C++ apart; nothing in the
	// making once the services are gone.
	d.Close()
	k := key(d.ident, "f", source("f", 2))
	want := "modules modules/" + k + ".so private private/" + k + ".cc"
	if files := strings.Join(cacheFiles(t, d), " "); files != want {
		t.Fatalf("the cache holds %s, want %s", files, want)
	}
}

func TestQueueIsBounded(t *testing.T) {
	c := newCompiler(t, Options{Workers: 1, Queue: 1})
	var jobs []*job
	for k := 2; k < 6; k++ {
		name := "f"
		jobs = append(jobs, c.compile(key(c.ident, name, source(name, k)), name, source(name, k)))
	}
	var ready, refused int
	for _, j := range jobs {
		<-j.done
		switch f := j.outcome.Failure; {
		case f == nil:
			ready++
		case f.Kind == "limit" && strings.Contains(f.Message, "queue is full"):
			refused++
		default:
			t.Fatalf("outcome %+v", f)
		}
	}
	// One runs, at most one waits, the rest are refused.
	if ready < 1 || ready > 2 || ready+refused != 4 {
		t.Fatalf("%d ready, %d refused", ready, refused)
	}
}

func TestSessionRefusesMalformedRequests(t *testing.T) {
	c := newCompiler(t, Options{MaxUnits: 2, MaxSourceBytes: 100, MaxRequestBytes: 1000})
	s := c.Session(context.Background(), "auto")
	for _, req := range []string{
		``, `{`, `[]`, `{"op": "start"} {"op": "poll"}`, `{"op": "start", "extra": 1}`, `{"op": "launch"}`,
		`{"op": "start", "units": [{"name": "a", "source": ""}, {"name": "a", "source": ""}]}`,
		`{"op": "start", "units": [{"name": "1a", "source": ""}]}`,
		`{"op": "compile", "name": "nothing"}`,
		strings.Repeat(" ", 1000+5000),
	} {
		var answer map[string]any
		if err := json.Unmarshal(s.Handle([]byte(req)), &answer); err != nil || answer["error"] == nil {
			t.Errorf("request %.60q: answer %v", req, answer)
		}
	}
	// A valid start still works after all that, exactly once.
	ok := `{"op": "start", "units": [{"name": "a", "source": "def a(x: int) -> int:\n    return x\n"}]}`
	if answer := string(s.Handle([]byte(ok))); answer != `{"units":[{"name":"a","status":"cold"}]}` {
		t.Fatalf("answer %s", answer)
	}
	if answer := string(s.Handle([]byte(ok))); !strings.Contains(answer, "already sent") {
		t.Fatalf("answer %s", answer)
	}
}

// A unit the host will not compile stays Python alone, saying why; the
// others of the same start go on (here: auto, so they are just cold).
func TestSessionRefusesUnitsAlone(t *testing.T) {
	c := newCompiler(t, Options{MaxUnits: 3, MaxSourceBytes: 100})
	s := c.Session(context.Background(), "auto")
	ok := `def a(x: int) -> int:\n    return x\n`
	req := `{"op": "start", "units": [{"name": "a", "source": "` + ok + `"}, {"name": "b", "source": "` +
		strings.Repeat("#", 101) + `"}, {"name": "c", "source": "\u0000"}, {"name": "d", "source": "` + ok + `"}]}`
	var answer struct {
		Units []answerUnit `json:"units"`
	}
	if err := json.Unmarshal(s.Handle([]byte(req)), &answer); err != nil || len(answer.Units) != 4 {
		t.Fatalf("answer %+v (%v)", answer, err)
	}
	want := map[string]string{"a": "", "b": "exceeds the limit of 100 bytes", "c": "is not text",
		"d": "the program hands over 4 functions; at most 3 per execution are compiled"}
	for _, u := range answer.Units {
		if want[u.Name] == "" {
			if u.Status != StatusCold || u.Failure != nil {
				t.Errorf("%s: %+v", u.Name, u)
			}
			continue
		}
		if u.Status != StatusFailed || u.Failure == nil || u.Failure.Kind != "limit" || !strings.Contains(u.Failure.Message, want[u.Name]) {
			t.Errorf("%s: %+v, want a limit failure saying %q", u.Name, u, want[u.Name])
		}
	}
	// A refused unit is never compiled, and asking for it says so again.
	if got := string(s.Handle([]byte(`{"op": "compile", "name": "b"}`))); !strings.Contains(got, `"status":"failed"`) {
		t.Fatalf("compile of a refused unit: %s", got)
	}
	if s.compiles != 0 {
		t.Fatalf("%d compilations", s.compiles)
	}
}

// copyToolchain copies the installed toolchain, stamp included.
func copyToolchain(t *testing.T) string {
	toolchain := filepath.Join(t.TempDir(), "tc")
	if err := os.CopyFS(toolchain, os.DirFS(testenv.NativeToolchain(t))); err != nil {
		t.Fatal(err)
	}
	return toolchain
}

// A toolchain without an install's stamp: every file's metadata is its state.
func TestIdentityIsRememberedPerToolchainState(t *testing.T) {
	toolchain := copyToolchain(t)
	if err := os.Remove(filepath.Join(toolchain, stampFile)); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	first := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache})
	computed, err := identity(toolchain, first.opts.CXX)
	if err != nil || first.ident != computed {
		t.Fatalf("first identity %s, computed %s (%v)", first.ident, computed, err)
	}
	memos, _ := filepath.Glob(filepath.Join(cache, privateDir, identityDir, "*"))
	if len(memos) != 1 {
		t.Fatalf("remembered identities: %v", memos)
	}
	// The next engine reads the memo instead of hashing the toolchain: a
	// memo rewritten by hand is what it gets.
	planted := strings.Repeat("ab", 32)
	if err := os.WriteFile(memos[0], []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if again := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache}); again.ident != planted {
		t.Fatalf("the memo was not used: %s", again.ident)
	}
	// A changed file of the toolchain is a new state: its identity is hashed anew.
	os.WriteFile(filepath.Join(toolchain, "python/native/compiler.py"), []byte("# another frontend\n"), 0o644)
	changed := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache})
	recomputed, err := identity(toolchain, first.opts.CXX)
	if err != nil || changed.ident != recomputed || changed.ident == computed || changed.ident == planted {
		t.Fatalf("after a change: %s, want %s (first %s, %v)", changed.ident, recomputed, computed, err)
	}
	// An unreadable memo is computed again.
	memos, _ = filepath.Glob(filepath.Join(cache, privateDir, identityDir, "*"))
	for _, m := range memos {
		os.WriteFile(m, []byte("not an identity"), 0o600)
	}
	if c := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache}); c.ident != recomputed {
		t.Fatalf("identity %s, want %s", c.ident, recomputed)
	}
}

// An installed toolchain: its stamp's metadata is its state, and every
// install rewrites the stamp, so a changed and reinstalled toolchain gets
// its identity hashed anew; the same files reinstalled keep it.
func TestReinstalledToolchainIsANewState(t *testing.T) {
	toolchain := copyToolchain(t)
	stamp := filepath.Join(toolchain, stampFile)
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("the installed toolchain has no stamp: %v", err)
	}
	cache := t.TempDir()
	first := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache})
	memos, _ := filepath.Glob(filepath.Join(cache, privateDir, identityDir, "*"))
	if len(memos) != 1 {
		t.Fatalf("remembered identities: %v", memos)
	}
	// The stamp stands for the files: a memo planted for this state is used.
	planted := strings.Repeat("cd", 32)
	if err := os.WriteFile(memos[0], []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if again := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache}); again.ident != planted {
		t.Fatalf("the memo of this stamp was not used: %s", again.ident)
	}
	// Only the stamp is looked at (one stat per process): a file rewritten
	// in place, without an install, is not.
	header := filepath.Join(toolchain, "include/spine/compiler/codegen_support.h")
	data, _ := os.ReadFile(header)
	os.WriteFile(header, append(data, "\n"...), 0o644)
	if again := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache}); again.ident != planted {
		t.Fatalf("a file was looked at besides the stamp: %s", again.ident)
	}
	os.WriteFile(header, data, 0o644)
	// Reinstalling the same files: a new stamp, the same identity.
	if err := os.WriteFile(stamp, []byte("installed again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache})
	if same.ident != first.ident {
		t.Fatalf("a reinstall of the same files changed the identity: %s, first %s", same.ident, first.ident)
	}
	// A changed frontend, installed: a new identity, the changed files' own.
	os.WriteFile(filepath.Join(toolchain, "python/native/compiler.py"), []byte("# another frontend\n"), 0o644)
	if err := os.WriteFile(stamp, []byte("installed with another frontend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := newCompiler(t, Options{Toolchain: toolchain, CacheDir: cache})
	recomputed, err := identity(toolchain, first.opts.CXX)
	if err != nil || changed.ident != recomputed || changed.ident == first.ident {
		t.Fatalf("after a reinstall with a change: %s, want %s (first %s, %v)", changed.ident, recomputed, first.ident, err)
	}
}

// The zygote imports the loader, and the compile service the frontend, in
// every process: the toolchain carries their bytecode, valid after a copy.
func TestToolchainShipsCheckedHashBytecode(t *testing.T) {
	dir := filepath.Join(testenv.NativeToolchain(t), "python", "native")
	sources, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	if len(sources) == 0 {
		t.Fatalf("no sources in %s", dir)
	}
	for _, src := range sources {
		name := strings.TrimSuffix(filepath.Base(src), ".py")
		data, err := os.ReadFile(filepath.Join(dir, "__pycache__", name+".cpython-311.pyc"))
		if err != nil {
			t.Fatalf("no bytecode for %s: %v", src, err)
		}
		// PEP 552: the flags word after the magic number; 0b11 = hash-based, checked.
		if len(data) < 8 || data[4] != 3 {
			t.Fatalf("%s: bytecode is not checked-hash (flags %v)", name, data[4:8])
		}
	}
}

// A toolchain that lacks a piece is refused, with its name, whether it
// carries an install's stamp or not, as long as no identity was remembered
// for its state: a remembered one is of a complete toolchain.
func TestIncompleteToolchainIsRefused(t *testing.T) {
	for _, stamped := range []bool{true, false} {
		toolchain := copyToolchain(t)
		if !stamped {
			os.Remove(filepath.Join(toolchain, stampFile))
		}
		if err := os.Remove(filepath.Join(toolchain, "python/native/loader.py")); err != nil {
			t.Fatal(err)
		}
		_, err := New(Options{Toolchain: toolchain, CacheDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "incomplete (python/native/loader.py is missing)") {
			t.Fatalf("stamped %v: %v, want the missing loader named", stamped, err)
		}
	}
}

// The plan a fresh child hands over may make its first crossing larger than
// any other, by the allowance LearnPlan names and no more; every later
// crossing has the usual bound, and one over it is refused, never learnt.
func TestLearnPlanWidensTheFirstCrossingOnly(t *testing.T) {
	c := newCompiler(t, Options{MaxRequestBytes: 1 << 10})
	filler := func(n int) string {
		return `, "kept": {"code": "` + strings.Repeat("A", n) + `", "helpers": [], "transformed": "", "python": "3"}`
	}
	start := func(n int) []byte { return []byte(`{"op": "start", "units": []` + filler(n) + `}`) }
	usual := c.opts.MaxRequestBytes + maxRequestOverhead

	learnt := 0
	s := c.Session(context.Background(), "auto")
	s.LearnPlan(8<<10, func(*protocol.Compiled, []protocol.NativeUnitSource) { learnt++ })
	if answer := string(s.Handle(start(usual + 1024))); answer != `{"units":[]}` || learnt != 1 {
		t.Fatalf("first crossing within the allowance: %s, learnt %d", answer, learnt)
	}
	if answer := string(s.Handle(start(usual + 1024))); !strings.Contains(answer, "exceeds the limit") || learnt != 1 {
		t.Fatalf("a second crossing as large: %s, learnt %d", answer, learnt)
	}

	over := c.Session(context.Background(), "auto")
	over.LearnPlan(8<<10, func(*protocol.Compiled, []protocol.NativeUnitSource) { learnt++ })
	if answer := string(over.Handle(start(usual + 9<<10))); !strings.Contains(answer, "exceeds the limit") || learnt != 1 {
		t.Fatalf("a first crossing beyond the allowance: %s, learnt %d", answer, learnt)
	}
	if answer := string(over.Handle(start(10))); answer != `{"units":[]}` || learnt != 1 {
		t.Fatalf("a crossing after a refused first one: %s, learnt %d (want nothing learnt)", answer, learnt)
	}
}
