package host_test

// Tests of the security suite's own checks: a runner that cannot fail is
// worth nothing, so its comparisons and its leak check are pinned here (the
// header reader's tests are beside it, in tests/security).

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// The runner's comparisons: a value is matched as JSON with numbers kept as
// written, and an error by the exception type it names.
func TestSecurityOutcomeComparisons(t *testing.T) {
	if !sameJSON([]byte(`{"a": [1, 2.0]}`), []byte(`{"a":[1,2.0]}`)) {
		t.Fatal("the same value, spaced differently, compared unequal")
	}
	if sameJSON([]byte(`{"a": [1, 2.0]}`), []byte(`{"a":[1,2]}`)) {
		t.Fatal("2.0 and 2 compared equal: the value check would miss a float turned int")
	}
	if got := exceptionType("PermissionError: [Errno 13] Permission denied: '/'"); got != "PermissionError" {
		t.Fatalf("exception type %q", got)
	}
	if got := exceptionType("KeyboardInterrupt"); got != "KeyboardInterrupt" {
		t.Fatalf("exception type %q", got)
	}
}

// The leak check looks at every part of an outcome a secret could come back
// in, not only the value.
func TestSecurityLeakCheckSeesEveryPart(t *testing.T) {
	s := &securitySuite{secret: "SPINE-SECRET-1"}
	clean := &host.Response{Value: json.RawMessage(`"fine"`), Calls: []host.Call{{Tool: "echo", Args: json.RawMessage(`{}`)}}}
	if leak := s.leak(clean, nil); leak != "" {
		t.Fatalf("a clean response reported as a leak in %s", leak)
	}
	for name, resp := range map[string]*host.Response{
		"value":      {Value: json.RawMessage(`"SPINE-SECRET-1"`)},
		"stderr":     {Stderr: "x SPINE-SECRET-1"},
		"traceback":  {Traceback: "SPINE-SECRET-1"},
		"trace":      {Calls: []host.Call{{Tool: "echo", Args: json.RawMessage(`{"a":"SPINE-SECRET-1"}`)}}},
		"call error": {Calls: []host.Call{{Tool: "echo", Error: "SPINE-SECRET-1"}}},
		"emitted":    {Emitted: []json.RawMessage{json.RawMessage(`"SPINE-SECRET-1"`)}},
	} {
		if s.leak(resp, nil) == "" {
			t.Errorf("the secret in the %s went unseen", name)
		}
	}
	if s.leak(clean, errors.New("spine: SPINE-SECRET-1")) == "" {
		t.Error("the secret in the returned error went unseen")
	}
}
