package host_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// compilingTool returns once the latest compilation runs cc1plus, so a
// program can end right after its compilation started, ordered by that event.
func compilingTool(cxx testenv.SlowCXX) host.Tool {
	return host.NewTool(host.ToolSpec{Name: "compiling"}, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		for {
			if groups := cxx.Groups(); len(groups) > 0 {
				for _, p := range testenv.GroupMembers(groups[len(groups)-1]) {
					if p.Command == "cc1plus" {
						return json.RawMessage("true"), nil
					}
				}
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
}

// A program makes a function hot, waits until its compilation runs g++, and
// ends: nothing waits for the compilation any more, so it is cancelled and
// the compiler's whole process group is gone, while the engine stays open.
func TestNativeCompilationEndsWithItsExecution(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		cxx := testenv.NewSlowCXX(t)
		t.Setenv("PATH", cxx.Dir+":"+os.Getenv("PATH")) // the engine's g++
		e := nativeEngine(t, isolation, t.TempDir(), host.WithTools(compilingTool(cxx)))
		program := `
def slow_step(x: int) -> int:
    return x + 1

n = 0
for i in range(60):
    n = slow_step(n)
result = [compiling(), n]
`
		resp := execNative(t, e, host.NativeAuto, program, `{}`)
		f := nativeEntry(t, resp, "slow_step")
		if string(resp.Value) != `[true, 60]` || f.Status != "python" || f.Reason != "still compiling when the program ended" ||
			f.Cache != "miss" {
			t.Fatalf("value %s trace %+v", resp.Value, f)
		}
		testenv.WaitGroupGone(t, cxx.Groups()[0])
		// The next execution compiles again (a cancellation is not remembered).
		resp = execNative(t, e, host.NativeAuto, program, `{}`)
		if f := nativeEntry(t, resp, "slow_step"); f.Cache != "miss" || len(cxx.Groups()) != 2 {
			t.Fatalf("second execution: trace %+v, %d compilations", f, len(cxx.Groups()))
		}
		testenv.WaitGroupGone(t, cxx.Groups()[1])
	})
}
