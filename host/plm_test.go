package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func plm(t *testing.T, e *host.Engine, source string) *host.Response {
	t.Helper()
	resp, err := e.Execute(context.Background(), host.Request{Source: source, PLM: true})
	if err != nil {
		t.Fatalf("%v (%s)", err, errorOf(resp))
	}
	return resp
}

// The calls of a loop PLM prepared are in flight together: the tool here
// returns only once all eight have started (a rendezvous), so calls run one
// after another would never return and the execution would time out.
func testPLMRunsIndependentCallsConcurrently(t *testing.T, m isolationMode) {
	const n = 8
	var arrived sync.WaitGroup
	arrived.Add(n)
	allIn := make(chan struct{})
	go func() { arrived.Wait(); close(allIn) }()
	rendezvous := host.NewTool(host.ToolSpec{Name: "rendezvous", Speculative: true},
		func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			arrived.Done()
			select {
			case <-allIn:
				return args, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	e := m.engine(t, host.WithTools(rendezvous), host.WithLimits(host.Limits{Timeout: 30 * time.Second}))
	resp := plm(t, e, "rows = []\nfor i in range(8):\n    rows.append(rendezvous(i=i)['i'])\nresult = rows")
	if string(resp.Value) != "[0, 1, 2, 3, 4, 5, 6, 7]" || len(resp.Calls) != n {
		t.Fatalf("%s %+v", resp.Value, resp.Calls)
	}
	for _, c := range resp.Calls {
		if !c.Early || !c.Claimed {
			t.Fatalf("call not started early: %+v", c)
		}
	}
	if !strings.Contains(resp.Transformed, "prepare") {
		t.Fatalf("transformed: %q", resp.Transformed)
	}
}

func testPLMNeverStartsEffectfulToolsEarly(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp := plm(t, e, "a = lookup(key=1)\nemit(value=a)\nb = lookup(key=2)\nemit(value=b)\nresult = [a, b]")
	var order []string
	for _, c := range resp.Calls {
		if c.Tool == "emit" {
			if c.Early {
				t.Fatalf("emit started early: %+v", c)
			}
			order = append(order, string(c.Args))
		}
	}
	if strings.Join(order, " ") != `{"value":7} {"value":14}` {
		t.Fatalf("emit order %v", order)
	}
}

// A call PLM started early that the program never reaches is cancelled when
// the program ends, not waited for: exactly one sleep was started early, and
// it ended cancelled, unclaimed.
func testPLMUnreachedCallsAreCancelled(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp, err := e.Execute(context.Background(), host.Request{PLM: true,
		Source: "a = lookup(key=1)\nraise ValueError('stop')\nb = sleep(ms=600000, value=a)"})
	if err == nil || resp.Error != "ValueError: stop" || resp.Line != 2 {
		t.Fatalf("%v %q", err, errorOf(resp))
	}
	var sleeps []host.Call
	for _, c := range resp.Calls {
		if c.Tool == "sleep" {
			sleeps = append(sleeps, c)
		}
	}
	if len(sleeps) != 1 || !sleeps[0].Early || sleeps[0].Claimed || !strings.Contains(sleeps[0].Error, "canceled") {
		t.Fatalf("want one early sleep, cancelled and unclaimed; trace %+v", resp.Calls)
	}
	mustValue(t, e, "result = 1", `{}`, `1`)
}

func testPLMMismatchRunsTheRequestNormally(t *testing.T, m isolationMode) {
	e := m.engine(t)
	// Forge a resolve for a handle prepared with other arguments: the host
	// must notice and run the real request.
	resp := plm(t, e, `import _spine
h = _spine.prepare('{"args":{"key":1},"tool":"lookup"}')
result = _spine.resolve(h, '{"args":{"key":2},"tool":"lookup"}').decode()`)
	if string(resp.Value) != `"{\"value\":14}"` {
		t.Fatalf("%s", resp.Value)
	}
	mismatched := false
	for _, c := range resp.Calls {
		mismatched = mismatched || c.Mismatch
	}
	if !mismatched {
		t.Fatalf("mismatch not traced: %+v", resp.Calls)
	}
}

func testPLMPrepareRefusesNonSpeculativeAndUnknownTools(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp := plm(t, e, `import _spine
result = [_spine.prepare('{"args":{"value":1},"tool":"emit"}'),
          _spine.prepare('{"args":{},"tool":"nope"}'),
          _spine.prepare('not json'),
          _spine.prepare('{"args":{"key":"x","extra":1},"tool":"lookup"}')]`)
	if string(resp.Value) != "[0, 0, 0, 0]" {
		t.Fatalf("%s", resp.Value)
	}
}

func testPLMToolErrorRaisesAtTheCallSite(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp, _ := e.Execute(context.Background(), host.Request{PLM: true,
		Source: "a = lookup(key=1)\nprint('before')\nb = fail(message='late')\n"})
	if resp.Error != "RuntimeError: late" || resp.Line != 3 || resp.Stdout != "before\n" {
		t.Fatalf("%q line %d stdout %q", resp.Error, resp.Line, resp.Stdout)
	}
}
