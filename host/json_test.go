package host

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The JSON form keeps its documented names and shapes, and decodes back to
// the same Response.
func TestResponseJSONRoundTrip(t *testing.T) {
	r := Response{Status: StatusError, Isolation: "sandbox", Error: "ValueError: no", Line: 3, Traceback: "tb",
		Stdout: "out", StderrTruncated: true, Elapsed: 1500 * time.Microsecond,
		Calls: []Call{{Tool: "t", Args: json.RawMessage(`{"a":1}`), Start: time.Millisecond, End: 2 * time.Millisecond,
			Error: "t: boom", Early: true, Claimed: true}},
		Emitted: []json.RawMessage{json.RawMessage(`1`)},
		Native:  []NativeFunction{{Name: "f", Status: "native", Cache: "miss", CompileTime: 95 * time.Millisecond}}}
	encoded, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"status":"error"`, `"value":null`, `"error":"ValueError: no"`, `"line":3`,
		`"stderr_truncated":true`, `"elapsed_ms":1.5`, `"start_ms":1`, `"error":"t: boom"`, `"compile_ms":95`} {
		if !strings.Contains(string(encoded), want) {
			t.Errorf("%s lacks %s", encoded, want)
		}
	}
	var back Response
	if err := json.Unmarshal(encoded, &back); err != nil {
		t.Fatal(err)
	}
	r.Value = json.RawMessage("null")
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip:\n%+v\n%+v", back, r)
	}
	ok, _ := json.Marshal(&Response{Status: StatusOK, Value: json.RawMessage(`2`)})
	if !strings.Contains(string(ok), `"error":null`) || !strings.Contains(string(ok), `"calls":[]`) ||
		!strings.Contains(string(ok), `"emitted":[]`) || strings.Contains(string(ok), `"native"`) {
		t.Fatalf("success form: %s", ok)
	}
}
