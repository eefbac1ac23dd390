package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// The sandbox's zygote runs inside Debian's /usr/bin/python3 (spine-guest
// exec's it and loads the zygote as an extension module): programs run on
// that interpreter, and see nothing of how it was launched, as the
// embedded interpreter showed nothing: no start code or module path in
// sys.argv or sys.orig_argv, no zygote module, no start code names in
// __main__.
func TestSandboxRunsOnPython3AndHidesTheLaunch(t *testing.T) {
	e := newSandboxEngine(t)
	resp, err := e.Execute(context.Background(), host.Request{Source: `import sys, __main__
result = {
    'executable': sys.executable,
    'argv': sys.argv,
    'orig_argv': sys.orig_argv,
    'zygote_module': [name for name in sys.modules if 'zygote' in name],
    'main_names': sorted(k for k in vars(__main__) if not k.startswith('_') and k != 'sandbox_policy'),
}`})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(resp.Value, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"executable":    "/usr/bin/python3.11",
		"argv":          []any{""},
		"orig_argv":     []any{},
		"zygote_module": []any{},
		"main_names":    []any{},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// A launcher without its zygote module beside it starts no sandbox: the
// engine fails, saying why, instead of running anything unconfined.
func TestSandboxFailsClosedWithoutItsZygoteModule(t *testing.T) {
	launcher, err := os.ReadFile(testenv.GuestBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "spine-guest")
	if err := os.WriteFile(alone, launcher, 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := host.New(host.WithSandbox(host.SandboxOptions{Binary: alone}))
	if err == nil {
		e.Close()
		t.Fatal("a sandbox engine started without the zygote module")
	}
	if !strings.Contains(err.Error(), "_spine_zygote") {
		t.Fatalf("the error does not name the missing module: %v", err)
	}
}
