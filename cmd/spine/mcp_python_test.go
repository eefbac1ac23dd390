package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pythonReport is what testdata/mcp_client.py prints.
type pythonReport struct {
	Tools       []string
	Description string
	OK          struct {
		Text    string
		IsError bool `json:"is_error"`
		Status  string
		Calls   []string
	}
	Failed struct {
		Text    string
		IsError bool `json:"is_error"`
		Status  string
	}
}

// mcpPython is the venv's python with the official MCP Python SDK, which
// scripts/setup.sh installs.
func mcpPython(t *testing.T) string {
	path, _ := filepath.Abs("../../build/mcp-venv/bin/python")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s: %v: run scripts/setup.sh (make test does), which installs the MCP Python SDK there", path, err)
	}
	return path
}

func pythonClient(t *testing.T, args ...string) pythonReport {
	t.Helper()
	cmd := exec.Command(mcpPython(t), append([]string{"testdata/mcp_client.py"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcp_client.py %v: %v\n%s", args, err, stderrOf(err))
	}
	var report pythonReport
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("mcp_client.py printed %q: %v", out, err)
	}
	return report
}

func stderrOf(err error) string {
	if exit, ok := err.(*exec.ExitError); ok {
		return string(exit.Stderr)
	}
	return ""
}

func checkPythonReport(t *testing.T, r pythonReport) {
	t.Helper()
	if len(r.Tools) != 1 || r.Tools[0] != "run_python" || !strings.Contains(r.Description, "def lookup(*, key: Any)") {
		t.Errorf("tools %v, description %q", r.Tools, r.Description)
	}
	if r.OK.IsError || r.OK.Status != "ok" || r.OK.Text != "result: {\"x\": 42, \"n\": 1}\nstdout:\nhi" ||
		len(r.OK.Calls) != 1 || r.OK.Calls[0] != "lookup" {
		t.Errorf("a working program came back as %+v", r.OK)
	}
	if !r.Failed.IsError || r.Failed.Status != "error" || !strings.HasPrefix(r.Failed.Text, "status: error\nerror: KeyError: 'k' (line 2)") {
		t.Errorf("a raising program came back as %+v", r.Failed)
	}
}

// The official Python SDK (which checks the structured content against
// the tool's outputSchema) drives spine mcp over stdio and over HTTP.
func TestMCPServerWithThePythonSDK(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		// The SDK gives a server only a few variables: env passes the ones this test needs.
		checkPythonReport(t, pythonClient(t, "stdio", "/usr/bin/env", cliProcess+"=1",
			"SPINE_GUEST="+os.Getenv("SPINE_GUEST"), os.Args[0], "mcp", "--demo-tools"))
	})
	t.Run("http", func(t *testing.T) {
		checkPythonReport(t, pythonClient(t, "http", serveMCPOverHTTP(t, "--demo-tools")))
	})
}
