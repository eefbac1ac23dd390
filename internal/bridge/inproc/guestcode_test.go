//go:build cgo

package inproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// startOnly, set in a copy of this test binary, makes the test below start
// the runtime and report, since a process initialises CPython only once.
const startOnly = "SPINE_INPROC_TEST_START_ONLY"

// startInAnotherProcess starts the in-process guest in a fresh copy of this
// test binary whose user cache directory is cacheHome; its error, if any.
func startInAnotherProcess(t *testing.T, cacheHome string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTheInProcessGuestKeepsAndRunsItsCompiledCode$")
	cmd.Env = append(os.Environ(), startOnly+"=1", "XDG_CACHE_HOME="+cacheHome)
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "start failed:") {
		t.Fatalf("the start process failed: %v: %s", err, out)
	}
	if _, failed, ok := strings.Cut(string(out), "start failed:"); ok {
		return failed
	}
	return ""
}

// The in-process guest keeps the code it compiled in the user's cache, runs
// that code at the next start (code that raises stops the start), and runs
// none that another interpreter made (compiled again, and rewritten).
func TestTheInProcessGuestKeepsAndRunsItsCompiledCode(t *testing.T) {
	if os.Getenv(startOnly) == "1" {
		if err := Start(); err != nil {
			t.Fatalf("start failed: %v", err)
		}
		return
	}
	home := t.TempDir()
	if failed := startInAnotherProcess(t, home); failed != "" {
		t.Fatalf("first start: %s", failed)
	}
	cache, err := guestcache.Open(filepath.Join(home, "spine", "guest-code"))
	if err != nil {
		t.Fatal(err)
	}
	modules := guest.Modules()
	for _, m := range modules {
		if _, err := cache.Load(m); err != nil {
			t.Fatalf("no code kept for %s: %v", m.Name, err)
		}
	}
	first := modules[0]
	head := testenv.GuestCodeHead(t, cache, first)
	raising := testenv.RaisingGuestCode(t, head, first)
	if err := cache.Store(first, raising); err != nil {
		t.Fatal(err)
	}
	if failed := startInAnotherProcess(t, home); !strings.Contains(failed, "RuntimeError: the kept code ran") {
		t.Fatalf("a start with kept code that raises: %q; want it to fail running that code", failed)
	}
	raising[0] ^= 1 // another interpreter's magic number
	if err := cache.Store(first, raising); err != nil {
		t.Fatal(err)
	}
	if failed := startInAnotherProcess(t, home); failed != "" {
		t.Fatalf("a start with another interpreter's code: %s", failed)
	}
	if kept, err := cache.Load(first); err != nil || !bytes.HasPrefix(kept, head) || bytes.Equal(kept[len(head):], raising[len(head):]) {
		t.Fatalf("the entry was not rewritten with this interpreter's compilation (%v)", err)
	}
}
