package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/mcp/mcptest"
)

// `spine serve` end to end through its flags: it listens, demands the token
// from --token-file, runs a program with the demo tools, and stops cleanly
// when told to (as on SIGTERM).
func TestServeCommand(t *testing.T) {
	token := writeFile(t, "token", "t0ken\n")
	url, stop := startServe(t, "--addr", "127.0.0.1:0", "--demo-tools", "--token-file", token, "--runs", "5")
	call := func(token, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/run", strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	if code, _ := call("", `{"source": "result = 1"}`); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	code, body := call("t0ken", `{"source": "result = lookup(key=inputs['k'])", "inputs": {"k": 3}}`)
	if code != http.StatusOK || !strings.Contains(body, `"status":"ok"`) || !strings.Contains(body, `"value":21`) {
		t.Errorf("%d %s", code, body)
	}
	stop()
}

// startServe runs serveUntil with args until the returned stop, which checks
// that it stopped cleanly.
func startServe(t *testing.T, args ...string) (url string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	var logs bytes.Buffer
	var logMu sync.Mutex
	exited := make(chan int, 1)
	go func() {
		exited <- serveUntil(ctx, args,
			writerFunc(func(p []byte) (int, error) { logMu.Lock(); defer logMu.Unlock(); return logs.Write(p) }),
			func(a string) { addr <- a })
	}()
	select {
	case a := <-addr:
		url = "http://" + a
	case code := <-exited:
		cancel()
		t.Fatalf("spine serve exited with %d: %s", code, logs.String())
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("spine serve did not start listening")
	}
	stopped := false
	stop = func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case code := <-exited:
			if code != exitOK {
				logMu.Lock()
				defer logMu.Unlock()
				t.Errorf("exit %d: %s", code, logs.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatal("spine serve did not stop")
		}
	}
	t.Cleanup(stop)
	return url, stop
}

// `spine serve --mcp` serves the tools of upstream MCP servers, and the
// session flags bound its sessions.
func TestServeWithMCPServersAndSessionFlags(t *testing.T) {
	config := writeFile(t, "mcp.json", string(mcptest.StdioConfig(t, "up")))
	url, _ := startServe(t, "--addr", "127.0.0.1:0", "--mcp", config, "--max-sessions", "1", "--session-idle", "2m")
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	if code, body := post("/v1/run", `{"source": "result = [get_greeting(name='x'), add(a=1, b=2)]"}`); code != http.StatusOK ||
		!strings.Contains(body, `"value":["hello x",{"sum":3}]`) {
		t.Errorf("a run calling MCP tools: %d %s", code, body)
	}
	tools, err := http.Get(url + "/v1/tools")
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := io.ReadAll(tools.Body)
	tools.Body.Close()
	if !strings.Contains(string(listed), "def add(*, a: int, b: int)") {
		t.Errorf("/v1/tools lacks the MCP tool add: %s", listed)
	}
	if code, body := post("/v1/sessions", `{"idle_timeout_ms": 3600000}`); code != http.StatusCreated || !strings.Contains(body, `"idle_timeout_ms":120000`) {
		t.Errorf("a session under --session-idle 2m: %d %s", code, body)
	}
	if code, body := post("/v1/sessions", ""); code != http.StatusServiceUnavailable {
		t.Errorf("a session past --max-sessions 1: %d %s", code, body)
	}
}

// A page that cannot be written is refused before the program runs: its
// effects never happen.
func TestRunTraceHTMLUnwritable(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ran")
	manifest := writeFile(t, "tools.json", `[{"name": "touch", "command": ["sh", "-c", "touch `+mark+`; echo 1"]}]`)
	program := writeFile(t, "prog.py", "result = touch()")
	code, _, errOut := cli(t, "", "run", "--manifest", manifest, "--trace-html", "/nonexistent/dir/page.html", program)
	if code != exitUsage || !strings.Contains(errOut, "--trace-html") {
		t.Fatalf("exit %d %q", code, errOut)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the program ran although its page could not be written")
	}
	// The same run with a page that can be written does run the tool.
	if code, _, errOut := cli(t, "", "run", "--manifest", manifest, "--trace-html", filepath.Join(t.TempDir(), "p.html"), program); code != exitOK {
		t.Fatalf("exit %d %q", code, errOut)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("the tool did not run: the check above proves nothing")
	}
}

func TestServeRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--token-file", "/nonexistent"}, {"extra"}, {"--manifest", "/nonexistent"}} {
		code, _, errOut := cli(t, "", append([]string{"serve"}, args...)...)
		if code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// --trace-html writes the run's page: the program, its trace and its value.
func TestRunTraceHTML(t *testing.T) {
	for _, stream := range []bool{false, true} {
		page := writeFile(t, "page.html", "")
		args := []string{"run", "--demo-tools", "--plm", "--trace-html", page}
		if stream {
			args = append(args, "--stream", "--chunk-bytes", "10")
		}
		program := writeFile(t, "prog.py", "a = lookup(key=2)\nresult = a")
		code, out, errOut := cli(t, "", append(args, program)...)
		if code != exitOK || out != "14\n" {
			t.Fatalf("exit %d %q %q", code, out, errOut)
		}
		data, err := io.ReadAll(mustOpen(t, page))
		if err != nil {
			t.Fatal(err)
		}
		html := string(data)
		for _, want := range []string{"<!DOCTYPE html>", `"a = lookup(key=2)"`, `"tool":"lookup"`, `"value":14`, "prog.py"} {
			if !strings.Contains(html, want) {
				t.Errorf("stream=%v: the page lacks %q", stream, want)
			}
		}
		if stream != strings.Contains(html, `"chunks":[`) {
			t.Errorf("stream=%v: chunks in the page: %v", stream, !stream)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func mustOpen(t *testing.T, path string) io.Reader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(data)
}
