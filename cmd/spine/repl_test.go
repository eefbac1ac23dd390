package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestReplJSONKeepsStateInBothIsolations(t *testing.T) {
	for _, isolation := range []string{"inproc", "sandbox"} {
		input := `{"source": "x = inputs['n']\nprint('set')", "inputs": {"n": 3}}` + "\n" +
			`not json` + "\n" +
			`{"source": "raise ValueError('no')"}` + "\n" +
			`{"source": "result = lookup(key=x)", "plm": true}` + "\n"
		code, out, errOut := cli(t, input, "repl", "--json", "--demo-tools", "--isolation", isolation)
		if code != exitOK {
			t.Fatalf("%s: %d %s", isolation, code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 4 {
			t.Fatalf("%s: %d lines: %s", isolation, len(lines), out)
		}
		for _, line := range lines {
			if !json.Valid([]byte(line)) {
				t.Fatalf("%s: not JSON: %s", isolation, line)
			}
		}
		if !strings.Contains(lines[0], `"status":"ok"`) || !strings.Contains(lines[0], `"stdout":"set\n"`) {
			t.Errorf("%s: first: %s", isolation, lines[0])
		}
		if !strings.Contains(lines[1], `"error":"bad request`) || !strings.Contains(lines[2], `"error":"ValueError: no"`) {
			t.Errorf("%s: bad line / error: %s %s", isolation, lines[1], lines[2])
		}
		if !strings.Contains(lines[3], `"status":"ok"`) || !strings.Contains(lines[3], `"value":21`) {
			t.Errorf("%s: last: %s", isolation, lines[3])
		}
	}
}

func TestReplPrompt(t *testing.T) {
	input := "def f(v):\n    return v * 2\n\nresult = f(21)\nprint('hi')\n"
	code, out, errOut := cli(t, input, "repl", "--isolation", "inproc")
	if code != exitOK || out != "42\nhi\n" || !strings.Contains(errOut, ">>> ") || !strings.Contains(errOut, "... ") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
}
