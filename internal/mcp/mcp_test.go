package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/mcp/mcptest"
)

func TestParseConfigSaysWhatIsWrong(t *testing.T) {
	cases := map[string]string{
		`{}`:                        `no server under "mcpServers"`,
		`{"mcpServers": {"a": {}}}`: `server "a": needs "command" (stdio) or "url"`,
		`{"mcpServers": {"a": {"command": "x", "url": "http://h/mcp"}}}`:    `has both "command" and "url"`,
		`{"mcpServers": {"a": {"url": "ftp://h/mcp"}}}`:                     `url "ftp://h/mcp" is not an http(s) URL`,
		`{"mcpServers": {"a": {"url": "http://h/mcp", "args": ["-v"]}}}`:    `"args", "env" and "cwd" belong to a command`,
		`{"mcpServers": {"a": {"command": "x", "headers": {"K": "V"}}}}`:    `"headers" belong to a URL`,
		`{"mcpServers": {"a": {"command": "x", "transport": "sse"}}}`:       `unknown field "transport"`,
		`{"mcpServers": {"a": {"command": "x", "tools": {"t": {"x": 1}}}}}`: `unknown field "x"`,
	}
	for input, want := range cases {
		_, err := ParseConfig([]byte(input))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%s) = %v, want an error containing %q", input, err, want)
		}
	}
}

func TestPythonNames(t *testing.T) {
	cases := map[string]string{
		"add": "add", "get-weather": "get_weather", "a.b/c": "a_b_c", "2fa": "_2fa",
		"class": "class_", "result": "result_", "inputs": "inputs_", "": "_", "émoji": "_moji",
	}
	for in, want := range cases {
		if got := pythonName(in); got != want {
			t.Errorf("pythonName(%q) = %q, want %q", in, got, want)
		}
	}
}

func start(t *testing.T, config []byte, taken ...string) *Servers {
	t.Helper()
	cfg, err := ParseConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), cfg, func(name string) bool {
		for _, n := range taken {
			if n == name {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func toolNamed(t *testing.T, s *Servers, name string) Tool {
	t.Helper()
	for _, tool := range s.Tools() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s among %v", name, s.Tools())
	return Tool{}
}

func call(t *testing.T, s *Servers, name, args string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	value, err := toolNamed(t, s, name).Call(ctx, json.RawMessage(args))
	return string(value), err
}

func mustCall(t *testing.T, s *Servers, name, args, want string) {
	t.Helper()
	got, err := call(t, s, name, args)
	if err != nil || got != want {
		t.Errorf("%s(%s) = %s, %v; want %s", name, args, got, err, want)
	}
}

// checkTools checks what every transport gives the same way: names,
// speculation, schemas and the mapping of results.
func checkTools(t *testing.T, s *Servers) {
	add := toolNamed(t, s, "add")
	if !add.Speculative || add.Description != "Adds two integers." || add.Server != "up" {
		t.Errorf("add = %+v, want speculative (readOnlyHint), described, from up", add)
	}
	if !strings.Contains(string(add.Schema), `"required":["a","b"]`) || !strings.Contains(string(add.Result), `"sum"`) {
		t.Errorf("add's schemas = %s / %s, want its inputSchema and outputSchema", add.Schema, add.Result)
	}
	if toolNamed(t, s, "fail").Speculative {
		t.Errorf("tools without readOnlyHint are speculative")
	}
	if g := toolNamed(t, s, "get_greeting"); g.Upstream != "get-greeting" {
		t.Errorf("get_greeting calls %q upstream, want get-greeting", g.Upstream)
	}
	toolNamed(t, s, "up_echo") // echo is taken: the server's name comes first
	mustCall(t, s, "add", `{"a": 2, "b": 3}`, `{"sum":5}`)
	mustCall(t, s, "get_greeting", `{"name": "ada"}`, `"hello ada"`)
	mustCall(t, s, "lines", `{"n": 2}`, `["line 0","line 1"]`)
	mustCall(t, s, "lines", `{"n": 0}`, `null`)
	mustCall(t, s, "up_echo", `{"text": "x"}`, `"x"`)
	_, err := call(t, s, "fail", `{}`)
	var failed *ToolError
	if !errors.As(err, &failed) || failed.Message != "upstream says no" || failed.Tool != "fail" {
		t.Errorf("fail() = %v, want the ToolError \"upstream says no\"", err)
	}
}

func TestStdioServerToolsResultsAndRestart(t *testing.T) {
	s := start(t, mcptest.StdioConfig(t, "up"), "echo")
	checkTools(t, s)
	if toolNamed(t, s, "lines").Speculative {
		t.Errorf("lines (no readOnlyHint) is speculative")
	}

	_, err := call(t, s, "die", `{}`)
	if err == nil || !strings.Contains(err.Error(), `mcp server "up" failed during the call: it exited (exit status 3)`) ||
		!strings.Contains(err.Error(), "dying on purpose") {
		t.Fatalf("die() = %v, want the exit status and the last stderr line", err)
	}
	worksAgain(t, s)
}

func TestHTTPServerToolsHeadersAndReconnect(t *testing.T) {
	server := mcptest.ServeHTTP(t, "127.0.0.1:0", "sesame")
	s := start(t, mcptest.Config(map[string]any{"up": map[string]any{
		"url": server.URL, "headers": map[string]string{"Authorization": "Bearer sesame"},
		"tools": map[string]any{"lines": map[string]any{"speculative": true, "reads": []string{}}}}}), "echo")
	checkTools(t, s)
	if l := toolNamed(t, s, "lines"); !l.Speculative || l.Reads == nil || len(l.Reads) != 0 {
		t.Errorf("lines = %+v, want the override: speculative, reads nothing", l)
	}

	_, err := call(t, s, "die", `{}`)
	if err == nil || !strings.Contains(err.Error(), `mcp server "up" failed during the call`) {
		t.Fatalf("die() = %v, want the server's failure", err)
	}
	server.Wait()
	_, err = call(t, s, "add", `{"a": 1, "b": 1}`)
	if err == nil || !strings.Contains(err.Error(), `mcp server "up" is down`) {
		t.Errorf("add() while the server is down = %v, want why it is down", err)
	}
	mcptest.ServeHTTP(t, server.Addr(), "sesame") // its supervisor brings it back
	worksAgain(t, s)
}

// worksAgain waits for the server to be back, and calls it.
func worksAgain(t *testing.T, s *Servers) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := s.WaitReady(ctx); err != nil {
		t.Fatalf("the server is not back: %v", err)
	}
	mustCall(t, s, "add", `{"a": 1, "b": 1}`, `{"sum":2}`)
}

func TestStartFailsWithTheServersReason(t *testing.T) {
	cfg, _ := ParseConfig(mcptest.Config(map[string]any{"gone": map[string]any{"command": "/nonexistent/server"}}))
	if _, err := Start(context.Background(), cfg, func(string) bool { return false }); err == nil ||
		!strings.Contains(err.Error(), `mcp server "gone": cannot start "/nonexistent/server"`) {
		t.Errorf("Start = %v, want the server that could not start", err)
	}
	server := mcptest.ServeHTTP(t, "127.0.0.1:0", "sesame")
	cfg, _ = ParseConfig(mcptest.Config(map[string]any{"locked": map[string]any{"url": server.URL}}))
	if _, err := Start(context.Background(), cfg, func(string) bool { return false }); err == nil ||
		!strings.Contains(err.Error(), `mcp server "locked"`) || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("Start without the header = %v, want the server's refusal", err)
	}
}

func TestClashesBetweenServersUseTheirNames(t *testing.T) {
	bin := mcptest.Upstream(t)
	s := start(t, mcptest.Config(map[string]any{"one": map[string]any{"command": bin}, "two": map[string]any{"command": bin}}))
	toolNamed(t, s, "one_add")
	toolNamed(t, s, "two_add")
	mustCall(t, s, "two_add", `{"a": 20, "b": 22}`, `{"sum":42}`)
	cfg, _ := ParseConfig(mcptest.Config(map[string]any{"up": map[string]any{"command": bin, "tools": map[string]any{"nosuch": map[string]any{}}}}))
	if _, err := Start(context.Background(), cfg, func(string) bool { return false }); err == nil ||
		!strings.Contains(err.Error(), `server "up" has no tool "nosuch" to override`) {
		t.Errorf("Start = %v, want the unknown override named", err)
	}
}
