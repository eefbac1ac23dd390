package host_test

// Tests of the security suite's own checks: a runner that cannot fail is
// worth nothing, so its header reader and its leak check are pinned here.

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// A header the runner cannot read exactly fails the program's test: these
// must all be refused, never run with a weaker expectation.
func TestSecurityHeaderRefusesMalformedExpectations(t *testing.T) {
	for name, source := range map[string]string{
		"error without a type":      "# expect: error\n# why\n",
		"unknown status":            "# expect: ok-no-secret\n# why\n",
		"expect not first":          "# Read a file.\n# expect: error PermissionError\n",
		"unknown key":               "# expect: ok\n# dedline: 2s\n# why\n",
		"key after the description": "# expect: timeout\n# why\n# deadline: 5s\n",
		"repeated key":              "# expect: ok\n# mode: plm\n# mode: stream\n# why\n",
		"bad mode":                  "# expect: ok\n# mode: fast\n# why\n",
		"bad deadline":              "# expect: timeout\n# deadline: soon\n# why\n",
		"bad native":                "# expect: ok\n# native: always\n# why\n",
		"value not JSON":            "# expect: ok\n# value: {nope\n# why\n",
		"value for an error":        "# expect: error ValueError\n# value: 1\n# why\n",
		"bad rss bound":             "# expect: limit\n# host-rss-mib: -3\n# why\n",
		"three words":               "# expect: error ValueError extra\n# why\n",
		"not a type":                "# expect: error Value-Error\n# why\n",
		"no description":            "# expect: ok\nresult = 1\n",
		"no header":                 "result = 1\n",
	} {
		if x, err := parseExpectation([]byte(source)); err == nil {
			t.Errorf("%s: accepted as %+v", name, x)
		}
	}
}

func TestSecurityHeaderReadsEveryKey(t *testing.T) {
	x, err := parseExpectation([]byte("# expect: ok\n# mode: stream\n# deadline: 5s\n# native: auto\n" +
		"# value: {\"a\": [1, 2.0]}\n# host-rss-mib: 64\n# The attack, and why: it must fail.\nresult = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if x.status != host.StatusOK || x.exception != "" || x.mode != "stream" || x.deadline != 5*time.Second ||
		x.native != host.NativeAuto || x.rssMiB != 64 || !sameJSON(x.value, []byte(`{"a":[1,2.0]}`)) {
		t.Fatalf("%+v", x)
	}
	if sameJSON(x.value, []byte(`{"a":[1,2]}`)) {
		t.Fatal("2.0 and 2 compared equal: the value check would miss a float turned int")
	}
	x, err = parseExpectation([]byte("# expect: error PermissionError\n# Read a host file.\n"))
	if err != nil || x.status != host.StatusError || x.exception != "PermissionError" || x.mode != "plain" ||
		x.deadline != 2*time.Second || x.native != "" || x.value != nil {
		t.Fatalf("%+v %v", x, err)
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
