package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spine-sandbox/spine/internal/mcp/mcptest"
)

// spineProcess is this test binary run as the CLI with args.
func spineProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliProcess+"=1")
	return cmd
}

func connect(t *testing.T, transport sdk.Transport) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func runPython(t *testing.T, session *sdk.ClientSession, code string, inputs any) (string, map[string]any, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := map[string]any{"code": code}
	if inputs != nil {
		args["inputs"] = inputs
	}
	result, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "run_python", Arguments: args})
	if err != nil {
		t.Fatalf("run_python(%q): %v", code, err)
	}
	text := result.Content[0].(*sdk.TextContent).Text
	structured, _ := result.StructuredContent.(map[string]any)
	return text, structured, result.IsError
}

func TestMCPServerOverStdio(t *testing.T) {
	config := writeFile(t, "mcp.json", string(mcptest.StdioConfig(t, "up")))
	session := connect(t, &sdk.CommandTransport{Command: spineProcess("mcp", "--demo-tools", "--mcp", config, "--timeout", "1s")})

	listed, err := session.ListTools(context.Background(), nil)
	if err != nil || len(listed.Tools) != 1 || listed.Tools[0].Name != "run_python" {
		t.Fatalf("tools %+v, %v; want run_python alone", listed, err)
	}
	description := listed.Tools[0].Description
	for _, want := range []string{"def lookup(*, key: Any)", "def add(*, a: int, b: int)", "def up_echo(*, text: str)",
		"Assign the answer to `result`", "no subprocesses, no network", "1s of wall-clock time"} {
		if !strings.Contains(description, want) {
			t.Errorf("run_python's description lacks %q:\n%s", want, description)
		}
	}

	text, structured, isError := runPython(t, session,
		"print('hi')\nresult = {'x': lookup(key=inputs['k']), 's': add(a=1, b=2)['sum']}", map[string]any{"k": 3})
	if isError || text != "result: {\"x\": 21, \"s\": 3}\nstdout:\nhi" {
		t.Errorf("run_python = %q (isError %v)", text, isError)
	}
	calls, _ := structured["calls"].([]any)
	if structured["status"] != "ok" || len(calls) != 2 || calls[1].(map[string]any)["tool"] != "add" {
		t.Errorf("structured content %v, want status ok and the trace of lookup and add", structured)
	}

	text, structured, isError = runPython(t, session, "x = 1\nraise ValueError('nope')", nil)
	if !isError || !strings.HasPrefix(text, "status: error\nerror: ValueError: nope (line 2)") || structured["status"] != "error" {
		t.Errorf("a raising program = %q (isError %v, %v)", text, isError, structured["status"])
	}
	text, _, isError = runPython(t, session, "import socket", nil)
	if !isError || !strings.Contains(text, "ImportError") || !strings.Contains(text, "socket") {
		t.Errorf("import socket = %q (isError %v), want refused", text, isError)
	}
	text, structured, isError = runPython(t, session, "while True:\n    pass", nil)
	if !isError || structured["status"] != "timeout" {
		t.Errorf("an endless program = %q (isError %v), want the --timeout", text, isError)
	}
	text, _, isError = runPython(t, session, "result = up_fail()", nil)
	if !isError || !strings.Contains(text, "RuntimeError: upstream says no") {
		t.Errorf("an upstream isError = %q (isError %v)", text, isError)
	}
}

func TestMCPServerOverHTTPWithConcurrentClients(t *testing.T) {
	url := serveMCPOverHTTP(t, "--demo-tools")
	var wg sync.WaitGroup
	for client := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := connect(t, &sdk.StreamableClientTransport{Endpoint: url})
			text, _, isError := runPython(t, session, "result = [lookup(key=k) for k in inputs['keys']]", map[string]any{"keys": []int{client, 1}})
			if want := fmt.Sprintf("result: [%d, 7]", 7*client); isError || text != want {
				t.Errorf("client %d: %q, want %q", client, text, want)
			}
		}()
	}
	wg.Wait()
}

// serveMCPOverHTTP starts spine mcp --http on a free port with args and
// returns its URL; the server is killed when the test ends.
func serveMCPOverHTTP(t *testing.T, args ...string) string {
	t.Helper()
	cmd := spineProcess(append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "spine mcp: serving ")
	if err != nil || !ok {
		t.Fatalf("spine mcp --http printed %q, %v", line, err)
	}
	return url
}

func TestRunWithMCPServers(t *testing.T) {
	config := writeFile(t, "mcp.json", string(mcptest.StdioConfig(t, "up")))
	code, out, errOut := cli(t, "result = [get_greeting(name='x'), add(a=1, b=2)]", "run", "--mcp", config, "--json", "-")
	var resp struct{ Value json.RawMessage }
	if code != 0 || json.Unmarshal([]byte(out), &resp) != nil || string(resp.Value) != `["hello x",{"sum":3}]` {
		t.Errorf("spine run --mcp = %d %s %s", code, out, errOut)
	}
	bad := writeFile(t, "bad.json", `{"mcpServers": {"x": {"url": "ftp://x"}}}`)
	if code, _, errOut := cli(t, "result = 1", "run", "--mcp", bad, "-"); code != exitUsage ||
		!strings.Contains(errOut, `server "x": url "ftp://x" is not an http(s) URL`) {
		t.Errorf("a bad --mcp = %d %s", code, errOut)
	}
}

func TestStubsOfMCPServers(t *testing.T) {
	config := writeFile(t, "mcp.json", string(mcptest.StdioConfig(t, "up")))
	code, out, errOut := cli(t, "", "stubs", "--demo-tools", "--mcp", config)
	for _, want := range []string{"def lookup(*, key: Any)", "def add(*, a: int, b: int) -> AddResult:", "def up_echo(*, text: str)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("spine stubs --mcp = %d, lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
}
