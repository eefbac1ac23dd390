package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// isolationMode is one of the places a guest runs. The engine's behaviour
// is the same in each, so its tests take the mode and run once per mode.
type isolationMode struct{ level host.Isolation }

var (
	inprocMode     = isolationMode{host.Inproc}
	sandboxMode    = isolationMode{host.Sandbox}
	isolationModes = []isolationMode{inprocMode, sandboxMode}
)

// options are the options of an engine of this mode with the demo tools,
// then opts (which may override them).
func (m isolationMode) options(t testing.TB, opts ...host.Option) []host.Option {
	base := []host.Option{host.WithTools(demotools.Tools()...), host.WithIsolation(m.level)}
	if m.level == host.Sandbox {
		base = append(base, host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: 2}))
	}
	return append(base, opts...)
}

// engine makes an engine of this mode, closed when the test ends.
func (m isolationMode) engine(t testing.TB, opts ...host.Option) *host.Engine {
	t.Helper()
	e, err := host.New(m.options(t, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// forEachIsolation runs test once per isolation mode, as a subtest named
// after the mode.
func forEachIsolation(t *testing.T, test func(t *testing.T, m isolationMode)) {
	for _, m := range isolationModes {
		t.Run(string(m.level), func(t *testing.T) { test(t, m) })
	}
}

// engineIn makes an engine of the given isolation with the demo tools.
func engineIn(t testing.TB, isolation host.Isolation, opts ...host.Option) *host.Engine {
	t.Helper()
	return isolationMode{isolation}.engine(t, opts...)
}
