package host

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A Request survives its JSON form (what a service takes), an absent tools
// member stays apart from an empty list, and the decoding is strict.
func TestRequestJSONRoundTrip(t *testing.T) {
	for _, req := range []Request{
		{Source: "result = 1"},
		{Source: "x", Inputs: json.RawMessage(`{"k":[1,2]}`), Tools: []string{}, PLM: true, Native: NativeEager, Name: "a.py",
			Limits: Limits{Timeout: 1500 * time.Millisecond, StdoutBytes: 10, ResultBytes: 11, ResultDepth: 12, ToolCalls: 13,
				ToolArgBytes: 14, HostBytes: 15, Recursion: 16, Fanout: -1}},
		{Source: "y", Tools: []string{"lookup", "echo"}},
		{Source: "z", RequireApproval: []string{"send_email"}},
	} {
		encoded, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		var back Request
		if err := json.Unmarshal(encoded, &back); err != nil {
			t.Fatalf("%s: %v", encoded, err)
		}
		if !reflect.DeepEqual(back, req) {
			t.Errorf("%s\ncame back as %+v\nwant %+v", encoded, back, req)
		}
	}
	for body, want := range map[string]string{
		`{"source": "x", "plm": true, "extra": 1}`:       `unknown field "extra"`,
		`{"source": "x", "limits": {"timeout_ms": -1}}`:  "must not be negative",
		`{"source": "x", "native": "fast"}`:              `native must be off, eager or auto, not "fast"`,
		`{"source": "x"} {"source": "y"}`:                "after top-level value",
		`{"source": "x", "limits": {"tool_calls": "5"}}`: "cannot unmarshal string",
	} {
		var req Request
		if err := json.Unmarshal([]byte(body), &req); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", body, err, want)
		}
	}
}
