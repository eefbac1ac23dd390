package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/mcp/mcptest"
)

const mcpProgram = `
s = add(a=2, b=3)
g = get_greeting(name="ada")
ls = lines(n=2)
e = up_echo(text="x")
try:
    up_fail()
    failed = None
except RuntimeError as err:
    failed = str(err)
try:
    add(a="two", b=3)
    bad = None
except Exception as err:
    bad = type(err).__name__
result = {"s": s, "g": g, "ls": ls, "e": e, "failed": failed, "bad": bad}
`

const mcpValue = `{"s": {"sum": 5}, "g": "hello ada", "ls": ["line 0", "line 1"], "e": "x", "failed": "upstream says no", "bad": "RuntimeError"}`

func TestMCPToolsInAProgram(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t, host.WithMCP(mcptest.StdioConfig(t, "up")))
		resp, err := run(t, e, mcpProgram, `{}`)
		if err != nil || !jsonEqual(resp.Value, []byte(mcpValue)) {
			t.Fatalf("value %s, err %v (%s), want %s", resp.Value, err, errorOf(resp), mcpValue)
		}
		if c := resp.Calls[5]; c.Tool != "add" || !strings.Contains(c.Error, "arguments do not match the schema") {
			t.Errorf("add(a=\"two\") was traced as %+v, want refused by the inputSchema", c)
		}
		stubs := e.Stubs()
		for _, want := range []string{"def add(*, a: int, b: int)", "def get_greeting(*, name: str)", "def up_echo(*, text: str)", "Adds two integers."} {
			if !strings.Contains(stubs, want) {
				t.Errorf("stubs lack %q:\n%s", want, stubs)
			}
		}
	})
}

func TestMCPUncaughtIsErrorReachesTheCaller(t *testing.T) {
	e := sandboxMode.engine(t, host.WithMCP(mcptest.StdioConfig(t, "up")))
	resp, err := run(t, e, "x = 1\nup_fail()\n", `{}`)
	var toolErr *host.ToolError
	if !errors.As(err, &toolErr) || toolErr.Message != "upstream says no" || resp.Line != 2 ||
		resp.Error != "RuntimeError: upstream says no" {
		t.Fatalf("err %v, response %q line %d; want the upstream's isError at line 2", err, errorOf(resp), resp.Line)
	}
}

func TestMCPReadOnlyToolsFanOutWithPLM(t *testing.T) {
	e := sandboxMode.engine(t, host.WithMCP(mcptest.StdioConfig(t, "up")))
	resp, err := e.Execute(context.Background(), host.Request{PLM: true,
		Source: "result = [slow(key=k, ms=200) for k in range(8)]"})
	if err != nil || string(resp.Value) != "[0, 2, 4, 6, 8, 10, 12, 14]" {
		t.Fatalf("value %s, err %v", resp.Value, err)
	}
	early, firstEnd, lastStart := 0, resp.Calls[0].End, resp.Calls[0].Start
	for _, c := range resp.Calls {
		if c.Early {
			early++
		}
		firstEnd, lastStart = min(firstEnd, c.End), max(lastStart, c.Start)
	}
	if early != 8 || lastStart >= firstEnd {
		t.Errorf("%d of 8 calls early, last start %v, first end %v: want all 8 started together", early, lastStart, firstEnd)
	}
}

func TestMCPServerThatDiesIsRestarted(t *testing.T) {
	e := sandboxMode.engine(t, host.WithMCP(mcptest.StdioConfig(t, "up")))
	resp, err := run(t, e, "die()", `{}`)
	if !errors.Is(err, host.ErrGuest) || !strings.HasPrefix(resp.Error, `RuntimeError: mcp server "up" failed during the call: it exited (exit status 3)`) {
		t.Fatalf("die(): err %v, error %q; want the exit named at the call site", err, errorOf(resp))
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := run(t, e, "result = add(a=1, b=2)", `{}`)
		if err == nil && string(resp.Value) == `{"sum": 3}` {
			break
		}
		if err == nil || !strings.Contains(resp.Error, `mcp server "up" is down`) {
			t.Fatalf("while restarting: value %s, err %v (%s); want the server's state", resp.Value, err, errorOf(resp))
		}
		if time.Now().After(deadline) {
			t.Fatal("the server was not restarted")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMCPOverHTTPWithHeaders(t *testing.T) {
	server := mcptest.ServeHTTP(t, "127.0.0.1:0", "sesame")
	config := mcptest.Config(map[string]any{"up": map[string]any{"url": server.URL,
		"headers": map[string]string{"Authorization": "Bearer sesame"}}})
	e := sandboxMode.engine(t, host.WithMCP(config))
	resp, err := run(t, e, mcpProgram, `{}`)
	if err != nil || !jsonEqual(resp.Value, []byte(mcpValue)) {
		t.Fatalf("value %s, err %v (%s), want %s", resp.Value, err, errorOf(resp), mcpValue)
	}
}

func TestMCPBadConfigurationFailsNew(t *testing.T) {
	_, err := host.New(host.WithMCP([]byte(`{"mcpServers": {"x": {"command": "/nonexistent/mcp"}}}`)))
	if err == nil || !strings.Contains(err.Error(), `spine: mcp server "x": cannot start "/nonexistent/mcp"`) {
		t.Errorf("New = %v, want the server that did not start", err)
	}
	_, err = host.New(host.WithMCP([]byte(`{"servers": {}}`)))
	if err == nil || !strings.Contains(err.Error(), `unknown field "servers"`) {
		t.Errorf("New = %v, want the bad field named", err)
	}
}

// A call still running upstream when the deadline passes is cancelled; the
// server is not taken for dead, and the next execution uses it.
func TestMCPCallPastTheDeadline(t *testing.T) {
	e := sandboxMode.engine(t, host.WithMCP(mcptest.StdioConfig(t, "up")))
	resp, err := e.Execute(context.Background(), host.Request{Source: "result = slow(key=1, ms=60000)",
		Limits: host.Limits{Timeout: 500 * time.Millisecond}})
	if !errors.Is(err, host.ErrTimeout) || resp.Status != host.StatusTimeout {
		t.Fatalf("err %v, status %s; want a timeout", err, resp.Status)
	}
	mustValue(t, e, "result = add(a=2, b=2)", `{}`, `{"sum": 4}`)
}
