package bridge

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A request read by slicing (bootstrap's shape) reads as json.Unmarshal
// reads it; every other text is left to the decoder.
func TestSplitRequestReadsAsTheDecoder(t *testing.T) {
	split := []string{
		`{"args":{"key":3},"tool":"lookup"}`,
		`{"args":{},"tool":"t_1"}`,
		`{"args":{"a":[1,{"b":"x,\"tool\":\"y\"}"}]},"now":true,"tool":"echo"}`,
		`{"args":{"s":",\"tool\":\"z"},"tool":"echo"}`,
		`{"args":{"now":true},"tool":"echo"}`,
	}
	for _, text := range split {
		got, ok := splitRequest([]byte(text))
		if !ok {
			t.Fatalf("%s: not split", text)
		}
		var want toolRequest
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got.Tool != want.Tool || got.Now != want.Now || !bytes.Equal(got.Args, want.Args) {
			t.Fatalf("%s: split as %q %v %s, decoded as %q %v %s", text, got.Tool, got.Now, got.Args, want.Tool, want.Now, want.Args)
		}
	}
	decoded := []string{
		`{"args":{"key":3},"tool":"look\u0075p"}`, // an escape in the name
		`{"args":{"key":3},"tool":""}`,
		`{"args":[1],"tool":"echo"}`,                 // not an object: the decoder's message
		`{"args":{"s":"q,"tool":"echo"}`,             // the object is cut short
		`{"args":{"k":1},"now":true,"tool":"e"} `,    // trailing space
		`{"args":{"k":1} ,"tool":"echo"}`,            // space: not bootstrap's shape
		`{"args":{"k":1},"extra":1,"tool":"echo"}`,   // another member
		`{"args":{"k":1},"now":false,"tool":"echo"}`, // not the shape either
	}
	for _, text := range decoded {
		if _, ok := splitRequest([]byte(text)); ok {
			t.Fatalf("%s: split, but only the decoder reads it", text)
		}
	}
	// The copy is the request's own, never the caller's bytes.
	raw := []byte(`{"args":{"key":3},"tool":"lookup"}`)
	req, _ := splitRequest(raw)
	raw[9] = 'X'
	if string(req.Args) != `{"key":3}` {
		t.Fatalf("args alias the caller's bytes: %s", req.Args)
	}
}
