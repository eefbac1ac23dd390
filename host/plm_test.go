package host_test

import (
	"context"
	"strings"
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

func TestPLMRunsIndependentCallsConcurrently(t *testing.T) {
	e := newEngine(t)
	resp := plm(t, e, "rows = []\nfor i in range(8):\n    rows.append(sleep(ms=100, value=i))\nresult = rows")
	if string(resp.Value) != "[0, 1, 2, 3, 4, 5, 6, 7]" || len(resp.Calls) != 8 {
		t.Fatalf("%s %+v", resp.Value, resp.Calls)
	}
	var latestStart, earliestEnd time.Duration = 0, 1 << 62
	for _, c := range resp.Calls {
		if !c.Early || !c.Claimed {
			t.Fatalf("call not started early: %+v", c)
		}
		latestStart = max(latestStart, c.Start)
		earliestEnd = min(earliestEnd, c.End)
	}
	// Every call was running at the same moment.
	if latestStart >= earliestEnd {
		t.Fatalf("calls did not overlap: last start %v, first end %v", latestStart, earliestEnd)
	}
	if !strings.Contains(resp.Transformed, "prepare") {
		t.Fatalf("transformed: %q", resp.Transformed)
	}
}

func TestPLMNeverStartsEffectfulToolsEarly(t *testing.T) {
	e := newEngine(t)
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

func TestPLMUnreachedCallsAreCancelled(t *testing.T) {
	e := newEngine(t)
	start := time.Now()
	resp, err := e.Execute(context.Background(), host.Request{PLM: true,
		Source: "a = lookup(key=1)\nraise ValueError('stop')\nb = sleep(ms=20000, value=a)"})
	if err == nil || resp.Error != "ValueError: stop" || resp.Line != 2 {
		t.Fatalf("%v %q", err, errorOf(resp))
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("the unreached sleep was waited for")
	}
	for _, c := range resp.Calls {
		if c.Tool == "sleep" && (c.Claimed || !strings.Contains(c.Error, "canceled")) {
			t.Fatalf("unreached call not cancelled: %+v", c)
		}
	}
	mustValue(t, e, "result = 1", `{}`, `1`)
}

func TestPLMMismatchRunsTheRequestNormally(t *testing.T) {
	e := newEngine(t)
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

func TestPLMPrepareRefusesNonSpeculativeAndUnknownTools(t *testing.T) {
	e := newEngine(t)
	resp := plm(t, e, `import _spine
result = [_spine.prepare('{"args":{"value":1},"tool":"emit"}'),
          _spine.prepare('{"args":{},"tool":"nope"}'),
          _spine.prepare('not json'),
          _spine.prepare('{"args":{"key":"x","extra":1},"tool":"lookup"}')]`)
	if string(resp.Value) != "[0, 0, 0, 0]" {
		t.Fatalf("%s", resp.Value)
	}
}

func TestPLMToolErrorRaisesAtTheCallSite(t *testing.T) {
	e := newEngine(t)
	resp, _ := e.Execute(context.Background(), host.Request{PLM: true,
		Source: "a = lookup(key=1)\nprint('before')\nb = fail(message='late')\n"})
	if resp.Error != "RuntimeError: late" || resp.Line != 3 || resp.Stdout != "before\n" {
		t.Fatalf("%q line %d stdout %q", resp.Error, resp.Line, resp.Stdout)
	}
}
