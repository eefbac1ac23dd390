package wire

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// Without namespaces (AllowNoNamespaces) a child has no private root and
// no private /proc: the pool says so in its layers, and Landlock alone
// confines the child, which can stat the host's tree but read nothing of it.
func TestWithoutNamespacesTheChildSeesTheHostTreeAndLayersSaySo(t *testing.T) {
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 1, MemoryBytes: 512 << 20, CPUSeconds: 10,
		AllowNoNamespaces: true, withoutNamespaces: errors.New("namespaces refused by the test")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	l := p.Layers()
	if l.Namespaces || l.PrivateRoot || l.Landlock == 0 || !strings.Contains(l.Missing, "refused by the test") ||
		!strings.Contains(l.Missing, "private root") {
		t.Fatalf("layers %+v: want no namespaces, no private root, Landlock, and Missing saying so", l)
	}
	o := runIn(t, p, `
import os
def attempt(fn):
    try:
        return fn()
    except OSError as e:
        return type(e).__name__
result = [
    attempt(lambda: os.stat('/etc').st_nlink > 0),
    attempt(lambda: open('/etc/passwd').read(1)),
    attempt(lambda: os.readlink('/proc/self') == str(os.getpid())),
]
`, 10*time.Second, false)
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got := compact(decode(t, o.result).Value); got != `[true,"PermissionError",true]` {
		t.Fatalf("value %s: want the host's /etc visible, unreadable, and the host's /proc", got)
	}
}

// A zygote that fails in its namespaces (as one would if the kernel refused
// its private root) is started again without them when the level may be
// lowered, and the layers say why; otherwise NewPool fails.
func TestAZygoteFailingInNamespacesIsRetriedWithoutThemOnlyWhenAllowed(t *testing.T) {
	// PID 1 only in a new PID namespace: the wrapper fails there, as the
	// zygote does when a step of its private root fails.
	wrapper := filepath.Join(t.TempDir(), "spine-guest")
	script := "#!/bin/sh\nif [ $$ = 1 ]; then echo 'private root: refused by the test' >&2; exit 1; fi\nexec " +
		testenv.GuestBinary(t) + "\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPool(Options{Binary: wrapper, Prefork: 1}); !errors.Is(err, ErrCrashed) {
		t.Fatalf("without AllowNoNamespaces: %v, want ErrCrashed", err)
	}
	p, err := NewPool(Options{Binary: wrapper, Prefork: 1, MemoryBytes: 512 << 20, AllowNoNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if l := p.Layers(); l.Namespaces || l.PrivateRoot || !strings.Contains(l.Missing, "refused by the test") {
		t.Fatalf("layers %+v: want no namespaces and the zygote's reason", l)
	}
	if v := mustValue(t, p, "result = 1 + 1"); v != "2" {
		t.Fatalf("the lowered pool returned %s", v)
	}
}
