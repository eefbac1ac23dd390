package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// peakRSSGrowthMiB is rssPeak (the security suite's measure) in MiB.
func peakRSSGrowthMiB(t *testing.T, fn func()) float64 {
	t.Helper()
	growth, err := rssPeak(fn)
	if err != nil {
		t.Fatal(err)
	}
	return float64(growth) / 1024
}

func securityProgram(t *testing.T, name string) string {
	t.Helper()
	source, err := os.ReadFile(filepath.Join("..", "tests", "security", name+".py"))
	if err != nil {
		t.Fatal(err)
	}
	return string(source)
}

// Programs that flood the host with what it would keep for them (refused
// calls, pending prepared calls, huge arguments, emitted values, output)
// for as long as they are let end with `limit`, well before their generous
// deadline, and the host's resident set grows by less than 64 MiB.
func TestHostMemoryFloodsEndWithLimit(t *testing.T) {
	floods := []struct{ program, limit string }{
		{"unknown_tool_call_loop", "tool call limit of 10000 exceeded"},
		{"schema_refusal_flood", "tool call limit of 10000 exceeded"},
		{"prepare_flood_small", "tool call limit of 10000 exceeded"},
		{"prepare_never_claimed_flood", "tool call limit of 10000 exceeded"},
		{"huge_argument_call_flood", "host memory limit of 16777216 bytes exceeded"},
		{"stdout_flood_with_calls", "host memory limit of 16777216 bytes exceeded"},
		{"emit_flood", "host memory limit of 16777216 bytes exceeded"},
	}
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{Timeout: 60 * time.Second}))
		for _, flood := range floods {
			source := securityProgram(t, flood.program)
			var resp *host.Response
			var err error
			growth := peakRSSGrowthMiB(t, func() {
				resp, err = e.Execute(context.Background(), host.Request{Source: source})
			})
			if !errors.Is(err, host.ErrLimit) || resp == nil || resp.Status != host.StatusLimit ||
				!strings.HasPrefix(resp.Error, "LimitExceeded: "+flood.limit) {
				t.Errorf("%s: err %v, response %q", flood.program, err, errorOf(resp))
			}
			if growth >= 64 {
				t.Errorf("%s: the host's resident set grew by %.1f MiB", flood.program, growth)
			}
			t.Logf("%s: %d calls traced, resident set +%.1f MiB", flood.program, len(resp.Calls), growth)
		}
		mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
	})
}

// Refused requests count against the tool call limit and keep only a
// prefix of what the program sent, flagged ArgsTruncated.
func TestRefusedRequestsCountAndKeepAPrefix(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{ToolCalls: 6}))
		resp, err := run(t, e, `import _spine
_spine.call('{"tool": "nope", "args": {"x": "' + 'a' * 1000 + '"}}')
_spine.call('not json')
_spine.call('{"tool": "' + 'n' * 1000 + '", "args": {}}')
try:
    lookup(key=1, extra='y' * 1000)
except RuntimeError:
    pass
while True:
    lookup(key=1)
`, `{}`)
		if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit || resp.Error != "LimitExceeded: tool call limit of 6 exceeded" {
			t.Fatalf("err %v, response %q", err, errorOf(resp))
		}
		if len(resp.Calls) != 7 {
			t.Fatalf("%d calls traced, want 4 refused, 2 run and the one over the limit: %+v", len(resp.Calls), resp.Calls)
		}
		prefix := func(c host.Call) string {
			var text string
			if !c.ArgsTruncated || json.Unmarshal(c.Args, &text) != nil {
				t.Fatalf("call %+v: Args is not a flagged prefix", c)
			}
			return text
		}
		c := resp.Calls
		if c[0].Tool != "nope" || c[0].Error != `unknown tool "nope"` || prefix(c[0]) != (`{"x": "` + strings.Repeat("a", 1000))[:256] {
			t.Errorf("unknown tool: %+v", c[0])
		}
		if !strings.HasPrefix(c[1].Error, "malformed tool request") || prefix(c[1]) != "not json" {
			t.Errorf("malformed request: %+v", c[1])
		}
		long := strings.Repeat("n", 256)
		if c[2].Tool != long || c[2].Error != `unknown tool "`+long+`"` || string(c[2].Args) != `{}` || c[2].ArgsTruncated {
			t.Errorf("long tool name: %+v", c[2])
		}
		if !strings.Contains(c[3].Error, "arguments do not match the schema") || len(prefix(c[3])) != 256 {
			t.Errorf("schema refusal: %+v", c[3])
		}
		for _, ok := range c[4:6] {
			if ok.Tool != "lookup" || string(ok.Args) != `{"key":1}` || ok.Error != "" || ok.ArgsTruncated {
				t.Errorf("call that ran: %+v", ok)
			}
		}
		if c[6].Error != "tool call limit of 6 exceeded" || c[6].Tool != "lookup" {
			t.Errorf("call over the limit: %+v", c[6])
		}
		mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
	})
}

// What the host keeps (trace, emitted values) is charged against
// HostBytes: the call or emit that does not fit is refused and stops the
// program, and what was kept stays within the budget.
func TestHostBytesStopsTheProgram(t *testing.T) {
	const budget = 200_000
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{HostBytes: budget, StdoutBytes: 10_000}))
		want := "LimitExceeded: host memory limit of 200000 bytes exceeded (trace, early calls, emitted values and output)"
		resp, err := run(t, e, "big = 'a' * 50000\nwhile True:\n    try:\n        echo(x=big)\n    except RuntimeError:\n        pass", `{}`)
		if !errors.Is(err, host.ErrLimit) || resp.Error != want {
			t.Fatalf("calls: err %v, response %q", err, errorOf(resp))
		}
		kept := 0
		for i, c := range resp.Calls {
			kept += len(c.Args)
			last := i == len(resp.Calls)-1
			if last != c.ArgsTruncated || (last && c.Error != strings.TrimPrefix(want, "LimitExceeded: ")) {
				t.Errorf("call %d of %d: truncated %v, error %q", i, len(resp.Calls), c.ArgsTruncated, c.Error)
			}
		}
		if len(resp.Calls) != 4 || kept > budget-2*10_000 {
			t.Errorf("%d calls kept %d bytes of arguments", len(resp.Calls), kept)
		}
		// Each emit keeps its value twice: in the trace and in Emitted.
		resp, err = run(t, e, "big = 'e' * 50000\nwhile True:\n    try:\n        emit(value=big)\n    except RuntimeError:\n        pass", `{}`)
		if !errors.Is(err, host.ErrLimit) || resp.Error != want || len(resp.Emitted) != 1 {
			t.Fatalf("emit: err %v, response %q, %d emitted", err, errorOf(resp), len(resp.Emitted))
		}
		mustValue(t, e, "result = echo(x='a' * 50000)['x'][:3]", `{}`, `"aaa"`)
	})
}

func TestHostBytesMustExceedTheOutputItSetsAside(t *testing.T) {
	_, err := host.New(host.WithIsolation(host.Inproc), host.WithLimits(host.Limits{HostBytes: 2000, StdoutBytes: 1000}))
	if err == nil || !strings.Contains(err.Error(), "Limits.HostBytes (2000) must exceed twice StdoutBytes (1000)") {
		t.Fatalf("err %v", err)
	}
}

// evictingProgram prepares (under PLM) far more 5 kB echo calls than it
// claims: with a small HostBytes their responses must give way.
const evictingProgram = `big = 'a' * 5000
out = []
for n in range(4):
    for i in range(64):
        out.append(len(echo(x=big, n=n, i=i)['x']))
        if i == 0:
            break
result = out`

// Speculation never makes a program fail that succeeds without it: early
// calls nobody claims fill the budget, further prepares do not start, and
// the program's own calls evict the unclaimed responses, oldest first.
func TestUnclaimedEarlyCallsGiveWayToTheProgram(t *testing.T) {
	source := evictingProgram
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := engineIn(t, isolation, host.WithLimits(host.Limits{HostBytes: 300_000, StdoutBytes: 10_000}))
		plain := mustValue(t, e, source, `{}`, `[5000, 5000, 5000, 5000]`)
		if len(plain.Calls) != 4 {
			t.Fatalf("plain: %d calls", len(plain.Calls))
		}
		resp, err := e.Execute(context.Background(), host.Request{Source: source, PLM: true})
		if err != nil || string(resp.Value) != `[5000, 5000, 5000, 5000]` {
			t.Fatalf("PLM: %v %q %s", err, errorOf(resp), valueOf(resp))
		}
		evicted, ran := 0, 0
		for _, c := range resp.Calls {
			switch {
			case c.Error == "evicted: not claimed before the execution needed its memory":
				evicted++
			case c.Error == "" && (c.Claimed || !c.Early):
				ran++
			}
		}
		if evicted == 0 || ran != 4 {
			t.Fatalf("PLM: %d evicted, %d calls delivered, in %d traced", evicted, ran, len(resp.Calls))
		}
	})
}

// A sandboxed child's tool request over the argument limit is refused
// unread: the host never holds it, however large (up to the frame limit).
func TestOversizedRequestsAreSkippedUnread(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 5 * time.Second}))
	source := securityProgram(t, "oversized_request_flood")
	var resp *host.Response
	var err error
	growth := peakRSSGrowthMiB(t, func() {
		resp, err = e.Execute(context.Background(), host.Request{Source: source})
	})
	if !errors.Is(err, host.ErrTimeout) || len(resp.Calls) != 16 {
		t.Fatalf("err %v, %d calls", err, len(resp.Calls))
	}
	c := resp.Calls[0]
	if c.Error != "tool request of 50331683 bytes exceeds the argument limit of 1048576 bytes" || string(c.Args) != `""` || !c.ArgsTruncated {
		t.Fatalf("trace entry %+v", c)
	}
	if growth >= 32 {
		t.Fatalf("the host's resident set grew by %.1f MiB while %d requests of 48 MiB were refused", growth, len(resp.Calls))
	}
	t.Logf("%d requests of 48 MiB refused, resident set +%.1f MiB", len(resp.Calls), growth)
}
