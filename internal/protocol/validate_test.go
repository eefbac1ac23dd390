package protocol

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckResponseAcceptsWhatBootstrapSends(t *testing.T) {
	l := ResultLimits{ResultBytes: 100, ResultDepth: 2, StdoutBytes: 10}
	for _, response := range []string{
		`{"value":[[1]],"transformed":""}`,
		`{"value":[[[]]],"transformed":""}`, // the innermost list is at depth 2
		`{"value":"ünïcödé","transformed":"x = 1"}`,
		`{"error":"ValueError: x","kind":"program","line":3,"traceback":"","transformed":""}`,
		`{"error":"LimitExceeded: result exceeds the size limit","kind":"result_limit","line":0,"traceback":"","transformed":""}`,
		`{"error":"Interrupt: timeout","kind":"interrupt","line":1,"traceback":"","transformed":"","native":[{"name":"f","status":"python"}]}`,
		`{"value":null,"transformed":"","stdout_truncated":true}`,
	} {
		r, err := CheckResponse([]byte(response), []byte("0123456789"), nil, l)
		if err != nil || r == nil {
			t.Errorf("%s: refused: %v", response, err)
		}
	}
}

func TestCheckResponseRefusesWhatOnlyAForgerSends(t *testing.T) {
	l := ResultLimits{ResultBytes: 100, ResultDepth: 2, StdoutBytes: 10}
	for _, c := range []struct {
		name, response, stdout, stderr, because string
	}{
		{"stdout over its limit", `{"value":1}`, "01234567890", "", "captured stdout of 11 bytes"},
		{"stderr over its limit", `{"value":1}`, "", "01234567890", "captured stderr of 11 bytes"},
		{"response over the result limit and envelope", `{"value":"` + strings.Repeat("x", 100+EnvelopeBytes) + `"}`, "", "", "exceeds the result limit of 100 bytes"},
		{"value over the result limit", `{"value":"` + strings.Repeat("x", 100) + `"}`, "", "", "result of 102 bytes exceeds the limit of 100 bytes"},
		{"value one level too deep", `{"value":[[[1]]]}`, "", "", "nests deeper than the result depth limit of 2"},
		{"nesting far past the envelope", `{"value":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`, "", "", "the response nests deeper"},
		{"invalid UTF-8", "{\"value\":\"\xff\xfe\"}", "", "", "not valid UTF-8"},
		{"not JSON", `{"value":`, "", "", "not valid JSON"},
		{"not an object", `[1]`, "", "", "not a JSON object"},
		{"a bad request", `{"error":"ValueError: malformed request","kind":"request"}`, "", "", `claims the outcome "request"`},
		{"a host limit", `{"error":"LimitExceeded: tool call limit of 10000 exceeded","kind":"limit"}`, "", "", `claims the outcome "limit"`},
		{"an error without an outcome", `{"error":"x"}`, "", "", `claims the outcome ""`},
		{"a success claiming an outcome", `{"value":1,"kind":"program"}`, "", "", "a finished program's response claims"},
		{"both a value and an error", `{"value":1,"error":"x","kind":"program"}`, "", "", "both a value and an error"},
		{"unbalanced brackets", `{"value":1}]]`, "", "", "nests deeper"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := CheckResponse([]byte(c.response), []byte(c.stdout), []byte(c.stderr), l)
			if !errors.Is(err, ErrBreach) || r != nil {
				t.Fatalf("want a breach, got %v (response %v)", err, r)
			}
			if !strings.Contains(err.Error(), c.because) {
				t.Fatalf("the error should say %q: %v", c.because, err)
			}
		})
	}
}

func TestDeeperCountsAsBootstrapDoes(t *testing.T) {
	for _, c := range []struct {
		text string
		max  int
		deep bool
	}{
		{`1`, 0, false},
		{`[]`, 0, false},
		{`[1]`, 0, true},
		{`{"a":1}`, 0, true},
		{`{}`, 0, false},
		{`["[[[[", "]]]]"]`, 1, false}, // brackets in strings are text
		{`["\"[[", 1]`, 1, false},      // so are escaped quotes
		{`[[1],[[2]]]`, 2, true},
		{`[[1],[[]]]`, 2, false},
	} {
		if got := deeper([]byte(c.text), c.max); got != c.deep {
			t.Errorf("deeper(%s, %d) = %v, want %v", c.text, c.max, got, c.deep)
		}
	}
}

func TestParseResultChecksItsLengths(t *testing.T) {
	frame := AppendResult(nil, ResultFrame{Reason: LimitExceeded, Response: []byte(`{"value":1}`), Stdout: []byte("out"), Stderr: []byte("err")})
	r, err := ParseResult(frame[HeaderLen:])
	if err != nil || r.Reason != LimitExceeded || string(r.Response) != `{"value":1}` || string(r.Stdout) != "out" || string(r.Stderr) != "err" {
		t.Fatalf("round trip: %+v, %v", r, err)
	}
	for name, payload := range map[string][]byte{
		"short":             frame[HeaderLen : HeaderLen+15],
		"lengths too long":  frame[HeaderLen : len(frame)-1],
		"lengths too short": append(append([]byte{}, frame[HeaderLen:]...), 'x'),
		"unknown reason":    append([]byte{4, 0, 0, 0}, frame[HeaderLen+4:]...),
	} {
		if _, err := ParseResult(payload); !errors.Is(err, ErrBreach) {
			t.Errorf("%s: want a breach, got %v", name, err)
		}
	}
}
