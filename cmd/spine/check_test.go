package main

import "testing"

// spine check compiles in the sandbox without running: a good program is
// "ok" (exit 0) and runs nothing (its print shows nowhere); a syntax error
// is FILE:LINE: message (exit 1).
func TestCheckReportsSyntaxErrorsWithTheirLine(t *testing.T) {
	good := writeFile(t, "good.py", "print('ran')\nresult = 1\n")
	code, out, errOut := cli(t, "", "check", good)
	if code != exitOK || out != "ok\n" {
		t.Fatalf("good program: %d %q %q", code, out, errOut)
	}
	code, out, errOut = cli(t, "x = 1\n\ndef f(:\n    pass\n", "check", "-")
	if code != exitProgram || out != "-:3: SyntaxError: invalid syntax\n" {
		t.Fatalf("bad program: %d %q %q", code, out, errOut)
	}
}
