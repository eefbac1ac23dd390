package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// CheckResponse checks what a guest returned (its response envelope and
// captured output) against the execution's limits, whatever the guest
// checked itself, and decodes the envelope. In order, each before anything
// larger is allocated: output within StdoutBytes each; a response within
// ResultBytes plus EnvelopeBytes; valid UTF-8; nesting within bounds (a scan
// without recursion or allocation); then one decode of a JSON object whose
// value is within ResultBytes and ResultDepth exactly, and which claims only
// an outcome a guest may claim. Every failure wraps ErrBreach.
func CheckResponse(response, stdout, stderr []byte, l ResultLimits) (*Response, error) {
	l = l.WithDefaults()
	for _, out := range []struct {
		name string
		data []byte
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if len(out.data) > l.StdoutBytes {
			return nil, fmt.Errorf("%w: captured %s of %d bytes exceeds the limit of %d bytes", ErrBreach, out.name, len(out.data), l.StdoutBytes)
		}
	}
	if len(response) > l.ResponseMax() {
		return nil, fmt.Errorf("%w: response of %d bytes exceeds the result limit of %d bytes (plus %d for the envelope)",
			ErrBreach, len(response), l.ResultBytes, EnvelopeBytes)
	}
	if !utf8.Valid(response) {
		return nil, fmt.Errorf("%w: the response is not valid UTF-8", ErrBreach)
	}
	// The value sits one level inside the envelope.
	if deeper(response, max(l.ResultDepth, envelopeDepth)+1) {
		return nil, fmt.Errorf("%w: the response nests deeper than the result depth limit of %d", ErrBreach, l.ResultDepth)
	}
	trimmed := bytes.TrimLeft(response, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%w: the response is not a JSON object", ErrBreach)
	}
	var r Response
	if err := json.Unmarshal(response, &r); err != nil {
		return nil, fmt.Errorf("%w: the response is not valid JSON: %v", ErrBreach, err)
	}
	if len(r.Value) > l.ResultBytes {
		return nil, fmt.Errorf("%w: result of %d bytes exceeds the limit of %d bytes", ErrBreach, len(r.Value), l.ResultBytes)
	}
	if deeper(r.Value, l.ResultDepth) {
		return nil, fmt.Errorf("%w: the result nests deeper than the result depth limit of %d", ErrBreach, l.ResultDepth)
	}
	if r.Error == nil {
		if r.Kind != "" {
			return nil, fmt.Errorf("%w: a finished program's response claims the outcome %q", ErrBreach, clipClaim(r.Kind))
		}
		return &r, nil
	}
	if r.Value != nil {
		return nil, fmt.Errorf("%w: the response carries both a value and an error", ErrBreach)
	}
	if !r.Kind.Claimable() {
		return nil, fmt.Errorf("%w: the response claims the outcome %q, which only the host may report", ErrBreach, clipClaim(r.Kind))
	}
	return &r, nil
}

func clipClaim(o Outcome) string {
	s := string(o)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

// deeper reports whether JSON text has a value nested deeper than max: the
// top value is at depth 0, the items of a container one deeper than the
// container, as bootstrap counts. It scans once, keeping only a counter: no
// recursion, no allocation, whatever the input. It is not a validator
// (the decoder is): unbalanced text only counts as deep.
func deeper(text []byte, max int) bool {
	depth := 0 // containers open around the current position
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t', '\r', '\n', ',', ':':
			continue
		case ']', '}':
			depth--
			if depth < 0 {
				return true
			}
			continue
		}
		// A value starts here (an object's key is always followed by a
		// value at its own depth, so counting keys changes nothing).
		if depth > max {
			return true
		}
		switch c {
		case '[', '{':
			depth++
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		}
	}
	return false
}
