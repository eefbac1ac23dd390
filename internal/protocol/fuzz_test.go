package protocol

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// fuzzLimits are small, so that every check of CheckResponse is reachable
// from short inputs.
var fuzzLimits = ResultLimits{ResultBytes: 64, ResultDepth: 3, StdoutBytes: 16}

// FuzzFrameDecoder feeds arbitrary bytes from a child's channel to the
// host's decoders: ReadFrame, then, for a result frame, ParseResult and
// CheckResponse. None may panic or allocate past its bound, and whatever
// they accept must be what a well-formed encoding says. The seed corpus
// (testdata/fuzz/FuzzFrameDecoder) runs as part of go test.
func FuzzFrameDecoder(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 1 << 10
		r := bytes.NewReader(data)
		kind, payload, err := ReadFrame(r, UpTo(max))
		if err != nil {
			if !errors.Is(err, ErrBreach) && err != io.EOF && err != io.ErrUnexpectedEOF {
				t.Fatalf("ReadFrame: unexpected error %v", err)
			}
			return
		}
		if len(payload) > max {
			t.Fatalf("ReadFrame returned %d bytes past its limit of %d", len(payload), max)
		}
		if encoded := Frame(kind, payload); !bytes.Equal(encoded, data[:len(encoded)]) {
			t.Fatalf("the frame read does not re-encode to its input")
		}
		if crossing, ok := CrossingOf(kind); ok {
			if _, _, request, err := ParseCrossing(kind, payload); err == nil && len(request)+CrossingHeadLen != len(payload) {
				t.Fatalf("crossing %d: request of %d bytes from a payload of %d", crossing, len(request), len(payload))
			}
		}
		if kind != KindResult {
			return
		}
		result, err := ParseResult(payload)
		if err != nil {
			if !errors.Is(err, ErrBreach) {
				t.Fatalf("ParseResult: unexpected error %v", err)
			}
			return
		}
		if !result.Reason.Known() {
			t.Fatalf("ParseResult accepted reason %d", result.Reason)
		}
		if again := AppendResult(nil, result); !bytes.Equal(again[HeaderLen:], payload) {
			t.Fatalf("the result frame does not re-encode to its payload")
		}
		response, err := CheckResponse(result.Response, result.Stdout, result.Stderr, fuzzLimits)
		if err != nil {
			if !errors.Is(err, ErrBreach) || response != nil {
				t.Fatalf("CheckResponse: %v with %v", err, response)
			}
			return
		}
		if len(result.Stdout) > fuzzLimits.StdoutBytes || len(result.Stderr) > fuzzLimits.StdoutBytes ||
			len(response.Value) > fuzzLimits.ResultBytes || deeper(response.Value, fuzzLimits.ResultDepth) {
			t.Fatalf("CheckResponse accepted a result past its limits: %q", result.Response)
		}
		if (response.Error == nil) != (response.Kind == "") || (response.Error != nil && !response.Kind.Claimable()) {
			t.Fatalf("CheckResponse accepted the outcome %q", response.Kind)
		}
	})
}
