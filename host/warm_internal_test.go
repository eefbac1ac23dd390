package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The sandbox's children warm up on a request that opens exactly as every
// request of the engine does (its manifest under its key), so the manifest
// the zygote parsed while warming up is the one each execution finds
// cached; its program calls the engine's first tool, or none without tools.
func TestWarmRequestOpensAsTheEnginesRequests(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage("null"), nil }
	for _, c := range []struct {
		tools  []Tool
		source string
	}{
		{[]Tool{NewTool(ToolSpec{Name: "fetch_rows", Description: "rows"}, noop), NewTool(ToolSpec{Name: "store"}, noop)},
			"print('w')\nresult = {'x': fetch_rows(key=inputs['item']), 'y': [1.5, None, 'z']}"},
		{nil, "print('w')\nresult = {'y': [1.5, None, 'z']}"},
	} {
		e, err := New(WithIsolation(Inproc), WithTools(c.tools...))
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		opening := `{"manifest_key":"` + e.manifestKey + `","manifest":` + string(e.manifest) + `,`
		execution, err := e.encodeRequest(Request{Source: "result = 1"}, e.limits, json.RawMessage(`{"a":1}`), e.manifest, nil)
		if err != nil {
			t.Fatal(err)
		}
		warm := e.warmRequest()
		for name, request := range map[string][]byte{"an execution's request": execution, "the warm-up request": warm} {
			if !strings.HasPrefix(string(request), opening) {
				t.Fatalf("%s does not open with the manifest under its key:\n%s", name, request)
			}
		}
		var parsed struct{ Source string }
		if err := json.Unmarshal(warm, &parsed); err != nil {
			t.Fatalf("warm-up request is not JSON: %v", err)
		}
		if parsed.Source != c.source {
			t.Fatalf("warm-up program %q, want %q", parsed.Source, c.source)
		}
	}
}
