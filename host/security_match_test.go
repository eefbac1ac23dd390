package host_test

import (
	"bytes"
	"encoding/json"
	"strings"
)

// exceptionType is the type an error string "Type: message" names.
func exceptionType(errText string) string {
	name, _, _ := strings.Cut(errText, ":")
	return strings.TrimSpace(name)
}

// sameJSON reports whether two JSON texts hold the same value (numbers
// compared by their text, so 1 and 1.0 differ as they do in Python).
func sameJSON(a, b []byte) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil || d.More() {
			return nil, false
		}
		return v, true
	}
	va, okA := decode(a)
	vb, okB := decode(b)
	if !okA || !okB {
		return false
	}
	ea, _ := json.Marshal(va)
	eb, _ := json.Marshal(vb)
	return bytes.Equal(ea, eb)
}
