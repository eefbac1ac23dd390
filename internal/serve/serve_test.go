package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/serve"
)

// probe is a set of tools that tell the test what happened to their calls.
type probe struct {
	started   chan string // a call started (the tool's name)
	cancelled chan error  // a blocked call saw its context end (the context's error)
	inFlight  atomic.Int32
	maxFlight atomic.Int32
}

func newProbe() *probe {
	return &probe{started: make(chan string, 64), cancelled: make(chan error, 64)}
}

func (p *probe) tools() []host.Tool {
	type n struct {
		N int `json:"n"`
	}
	return []host.Tool{
		// mark returns n and says it started: a streamed test sees the call
		// start before it sends the rest of the program.
		host.Func("mark", func(ctx context.Context, a n) (int, error) {
			p.started <- "mark"
			return a.N, nil
		}, host.Speculative()),
		// block waits for its context to end, and reports how it ended.
		host.Func("block", func(ctx context.Context, a n) (int, error) {
			p.started <- "block"
			<-ctx.Done()
			p.cancelled <- ctx.Err()
			return 0, ctx.Err()
		}, host.Speculative()),
		// overlap holds for 300 ms and records how many ran at once.
		host.Func("overlap", func(ctx context.Context, a n) (int, error) {
			now := p.inFlight.Add(1)
			defer p.inFlight.Add(-1)
			for {
				seen := p.maxFlight.Load()
				if now <= seen || p.maxFlight.CompareAndSwap(seen, now) {
					break
				}
			}
			select {
			case <-time.After(300 * time.Millisecond):
			case <-ctx.Done():
			}
			return a.N * 10, nil
		}),
	}
}

func start(t *testing.T, opts serve.Options, p *probe) *httptest.Server {
	t.Helper()
	s, err := serve.New(opts, host.WithTools(append(demotools.Tools(), p.tools()...)...),
		host.WithLimits(host.Limits{Timeout: 20 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return ts
}

func compile(t *testing.T, name string, doc []byte) *jsonschema.Schema {
	t.Helper()
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, parsed); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

func validate(t *testing.T, schema *jsonschema.Schema, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("%s\ndoes not validate: %v", data, err)
	}
}

type answer struct {
	code   int
	header http.Header
	body   []byte
}

func do(t *testing.T, req *http.Request) answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, body}
}

func post(t *testing.T, url, body string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, req)
}

func get(t *testing.T, url string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, req)
}

func decode(t *testing.T, a answer) host.Response {
	t.Helper()
	if a.code != http.StatusOK {
		t.Fatalf("status %d: %s", a.code, a.body)
	}
	var resp host.Response
	if err := json.Unmarshal(a.body, &resp); err != nil {
		t.Fatalf("%v: %s", err, a.body)
	}
	return resp
}

// Eight clients at once, each with its own inputs: every answer is its own
// program's, in the documented form, and the executions overlapped.
func TestConcurrentClientsGetTheirOwnAnswers(t *testing.T) {
	p := newProbe()
	ts := start(t, serve.Options{}, p)
	requests := compile(t, "request.schema.json", host.RequestSchema)
	responses := compile(t, "response.schema.json", host.ResponseSchema)
	const clients = 8
	bodies := make([][]byte, clients)
	for i := range clients {
		body, err := json.Marshal(host.Request{Source: "a = overlap(n=inputs['i'])\nresult = {'i': inputs['i'], 'v': a + lookup(key=inputs['i'])}",
			Inputs: json.RawMessage(fmt.Sprintf(`{"i": %d}`, i)), PLM: true, Name: fmt.Sprintf("client%d.py", i),
			Limits: host.Limits{Timeout: 10 * time.Second, ToolCalls: 10}})
		if err != nil {
			t.Fatal(err)
		}
		validate(t, requests, body)
		bodies[i] = body
	}
	answers := make([]answer, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(ts.URL+"/v1/run", "application/json", bytes.NewReader(bodies[i]))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			answers[i] = answer{resp.StatusCode, resp.Header, body}
		}()
	}
	wg.Wait()
	for i, a := range answers {
		validate(t, responses, a.body)
		resp := decode(t, a)
		want := fmt.Sprintf(`{"i":%d,"v":%d}`, i, i*10+7*i) // the JSON form is compact
		if resp.Status != host.StatusOK || string(resp.Value) != want {
			t.Errorf("client %d: %s %s, want %s", i, resp.Status, resp.Value, want)
		}
		if len(resp.Calls) != 2 {
			t.Errorf("client %d: %d calls, want 2: %+v", i, len(resp.Calls), resp.Calls)
		}
		if a.header.Get("Spine-Run") == "" {
			t.Errorf("client %d: no Spine-Run header", i)
		}
	}
	if got := p.maxFlight.Load(); got < 2 {
		t.Errorf("at most %d execution ran at once; the service serialised its clients", got)
	}
}

// The program arrives as a chunked body: the call in its first chunk starts
// before the client sends the second, and the response records both chunks.
func TestStreamStartsCallsWhileTheBodyArrives(t *testing.T) {
	p := newProbe()
	ts := start(t, serve.Options{}, p)
	body, writer := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/stream", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(serve.RequestHeader, `{"inputs": {"k": 5}, "name": "streamed.py"}`)
	done := make(chan answer, 1)
	go func() { done <- do(t, req) }()
	if _, err := io.WriteString(writer, "a = mark(n=inputs['k'])\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.started:
	case <-time.After(15 * time.Second):
		t.Fatal("the call of the first chunk did not start before the rest of the program was sent")
	}
	io.WriteString(writer, "b = lookup(key=a)\n")
	io.WriteString(writer, "result = [a, b]\n")
	writer.Close()
	a := <-done
	validate(t, compile(t, "response.schema.json", host.ResponseSchema), a.body)
	resp := decode(t, a)
	if resp.Status != host.StatusOK || string(resp.Value) != "[5,35]" {
		t.Fatalf("%s %s (%s)", resp.Status, resp.Value, resp.Error)
	}
	if len(resp.Calls) == 0 || resp.Calls[0].Tool != "mark" || !resp.Calls[0].Stream || !resp.Calls[0].Claimed {
		t.Errorf("mark was not started from the stream and claimed: %+v", resp.Calls)
	}
	if len(resp.Chunks) < 2 {
		t.Errorf("%d chunks recorded, want at least the 2 sent apart: %+v", len(resp.Chunks), resp.Chunks)
	}
	total := 0
	for _, c := range resp.Chunks {
		total += c.Bytes
	}
	if want := len("a = mark(n=inputs['k'])\nb = lookup(key=a)\nresult = [a, b]\n"); total != want {
		t.Errorf("the chunks hold %d bytes, want %d", total, want)
	}
	if resp.Calls[0].Start < resp.Chunks[0].At || resp.Calls[0].Start > resp.Chunks[len(resp.Chunks)-1].At {
		t.Errorf("mark started at %v, not between the first chunk (%v) and the last (%v)",
			resp.Calls[0].Start, resp.Chunks[0].At, resp.Chunks[len(resp.Chunks)-1].At)
	}
}

// A client that goes away cancels its execution: the tool running for it
// sees its context cancelled, and the engine counts the execution cancelled.
func TestDisconnectCancelsTheExecution(t *testing.T) {
	for _, path := range []string{"/v1/run", "/v1/stream"} {
		t.Run(strings.TrimPrefix(path, "/v1/"), func(t *testing.T) {
			p := newProbe()
			ts := start(t, serve.Options{}, p)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var body io.Reader = strings.NewReader(`{"source": "result = block(n=1)"}`)
			var writer *io.PipeWriter
			if path == "/v1/stream" {
				body, writer = io.Pipe()
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+path, body)
			if err != nil {
				t.Fatal(err)
			}
			failed := make(chan error, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					resp.Body.Close()
				}
				failed <- err
			}()
			if writer != nil { // the stream starts the call, and the body never ends
				io.WriteString(writer, "result = block(n=1)\n")
			}
			select {
			case <-p.started:
			case <-time.After(15 * time.Second):
				t.Fatal("the tool never started")
			}
			cancel()
			select {
			case err := <-p.cancelled:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("the tool's context ended with %v, want context.Canceled", err)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the client went away and its tool call went on")
			}
			if writer != nil {
				// The client's transport may still be blocked reading the
				// body it was sending; only now let that read end.
				writer.CloseWithError(io.ErrClosedPipe)
			}
			if err := <-failed; !errors.Is(err, context.Canceled) {
				t.Fatalf("the client's request ended with %v", err)
			}
			if path == "/v1/run" {
				waitForMetric(t, ts.URL, `spine_executions_total{spine_status="cancelled"} 1`)
			}
		})
	}
}

// waitForMetric polls /metrics until it holds line: the execution ends on
// the server a moment after the client gave up.
func waitForMetric(t *testing.T, url, line string) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		last = string(get(t, url+"/metrics").body)
		if strings.Contains(last, line+"\n") {
			return
		}
	}
	t.Fatalf("/metrics never showed %q:\n%s", line, last)
}

func TestBearerToken(t *testing.T) {
	ts := start(t, serve.Options{Token: "s3cret"}, newProbe())
	run := `{"source": "result = 1"}`
	for _, c := range []struct {
		name, header string
		code         int
	}{
		{"none", "", http.StatusUnauthorized},
		{"wrong", "Bearer s3cre", http.StatusUnauthorized},
		{"not bearer", "Basic s3cret", http.StatusUnauthorized},
		{"right", "Bearer s3cret", http.StatusOK},
	} {
		var a answer
		if c.header == "" {
			a = post(t, ts.URL+"/v1/run", run)
		} else {
			a = post(t, ts.URL+"/v1/run", run, "Authorization", c.header)
		}
		if a.code != c.code {
			t.Errorf("%s: status %d, want %d (%s)", c.name, a.code, c.code, a.body)
		}
		if c.code == http.StatusUnauthorized && !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: no WWW-Authenticate: Bearer", c.name)
		}
	}
	for _, path := range []string{"/metrics", "/v1/tools"} {
		if a := get(t, ts.URL+path); a.code != http.StatusUnauthorized {
			t.Errorf("%s without a token: %d", path, a.code)
		}
	}
	if a := get(t, ts.URL+"/healthz"); a.code != http.StatusOK || !strings.Contains(string(a.body), `"status":"ok"`) {
		t.Errorf("/healthz must stay open for probes: %d %s", a.code, a.body)
	}
}

// Bodies past MaxRequestBytes are refused with 413, for a run and for a
// stream (whose calls started so far are cancelled), and the service goes
// on serving.
func TestRequestSizeLimit(t *testing.T) {
	p := newProbe()
	ts := start(t, serve.Options{MaxRequestBytes: 1024}, p)
	padding := "#" + strings.Repeat("x", 2000) + "\n"
	if a := post(t, ts.URL+"/v1/run", `{"source": "result = 1`+strings.Repeat(" ", 2000)+`"}`); a.code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(string(a.body), "larger than 1024 bytes") {
		t.Errorf("/v1/run: %d %s", a.code, a.body)
	}
	if a := post(t, ts.URL+"/v1/stream", "result = block(n=1)\n"+padding); a.code != http.StatusRequestEntityTooLarge {
		t.Errorf("/v1/stream: %d %s", a.code, a.body)
	}
	select {
	case <-p.started:
		select {
		case err := <-p.cancelled:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("the refused stream's call ended with %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("the refused stream's call was not cancelled")
		}
	default: // the stream was refused before its call started: nothing to cancel
	}
	if resp := decode(t, post(t, ts.URL+"/v1/run", `{"source": "result = lookup(key=2)"}`)); string(resp.Value) != "14" {
		t.Errorf("after the refusals: %s %s", resp.Status, resp.Value)
	}
}

func TestBadRequests(t *testing.T) {
	ts := start(t, serve.Options{}, newProbe())
	for _, c := range []struct {
		name, path, body, header, want string
	}{
		{"not JSON", "/v1/run", `result = 1`, "", "invalid character"},
		{"unknown member", "/v1/run", `{"source": "result = 1", "timeout": 5}`, "", `unknown field "timeout"`},
		{"unknown limit", "/v1/run", `{"source": "result = 1", "limits": {"timeout": 5}}`, "", `unknown field "timeout"`},
		{"unknown tool", "/v1/run", `{"source": "result = 1", "tools": ["nope"]}`, "", `unknown tool "nope"`},
		{"bad inputs", "/v1/stream", `result = 1`, `{"inputs": [1,}`, "Spine-Request"},
		{"source in the header", "/v1/stream", `result = 1`, `{"source": "result = 2"}`, "the program is the body"},
	} {
		var a answer
		if c.header != "" {
			a = post(t, ts.URL+c.path, c.body, serve.RequestHeader, c.header)
		} else {
			a = post(t, ts.URL+c.path, c.body)
		}
		var refusal struct{ Error string }
		json.Unmarshal(a.body, &refusal)
		if a.code != http.StatusBadRequest || !strings.Contains(refusal.Error, c.want) {
			t.Errorf("%s: %d %s, want 400 with %q", c.name, a.code, a.body, c.want)
		}
	}
	// A program that fails is no bad request: 200, and the status says how.
	resp := decode(t, post(t, ts.URL+"/v1/run", `{"source": "raise KeyError('k')", "limits": {"timeout_ms": 5000}}`))
	if resp.Status != host.StatusError || resp.Error != "KeyError: 'k'" || resp.Line != 1 {
		t.Errorf("%s %q line %d", resp.Status, resp.Error, resp.Line)
	}
	// A request's limit tightens the engine's.
	resp = decode(t, post(t, ts.URL+"/v1/run", `{"source": "while True: pass", "limits": {"timeout_ms": 300}}`))
	if resp.Status != host.StatusTimeout {
		t.Errorf("limits.timeout_ms 300: %s", resp.Status)
	}
}

func TestToolsAndMetrics(t *testing.T) {
	ts := start(t, serve.Options{}, newProbe())
	a := get(t, ts.URL+"/v1/tools")
	var tools struct {
		Tools []host.ToolSpec `json:"tools"`
		Stubs string          `json:"stubs"`
	}
	if err := json.Unmarshal(a.body, &tools); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, spec := range tools.Tools {
		if spec.Name == "lookup" {
			found = true
			if !strings.Contains(string(spec.Schema), `"key"`) || !spec.Speculative {
				t.Errorf("lookup's spec: %+v", spec)
			}
		}
	}
	if !found || len(tools.Tools) != len(demotools.Tools())+3 {
		t.Errorf("%d tools: %s", len(tools.Tools), a.body)
	}
	if !strings.Contains(tools.Stubs, "def lookup(*, key: Any) -> Any:") || !strings.Contains(tools.Stubs, "def mark(*, n: int) -> int:") {
		t.Errorf("stubs:\n%s", tools.Stubs)
	}

	decode(t, post(t, ts.URL+"/v1/run", `{"source": "result = lookup(key=1)"}`))
	decode(t, post(t, ts.URL+"/v1/run", `{"source": "result = lookup(key=2)"}`))
	decode(t, post(t, ts.URL+"/v1/run", `{"source": "1/0"}`))
	a = get(t, ts.URL+"/metrics")
	if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	text := string(a.body)
	for _, line := range []string{
		"# TYPE spine_executions_total counter\n",
		`spine_executions_total{spine_status="ok"} 2` + "\n",
		`spine_executions_total{spine_status="error"} 1` + "\n",
		"# TYPE spine_execution_duration_seconds histogram\n",
		`spine_execution_duration_seconds_count{spine_status="ok"} 2` + "\n",
		`spine_execution_duration_seconds_bucket{spine_status="ok",le="+Inf"} 2` + "\n",
		`spine_execution_duration_seconds_bucket{spine_status="ok",le="60"} 2` + "\n",
		`spine_execution_duration_seconds_bucket{spine_status="ok",le="0.001"} `,
		`spine_tool_duration_seconds_count{spine_tool_early="false",spine_tool_name="lookup",spine_tool_status="ok"} 2` + "\n",
		"# TYPE spine_pool_children gauge\n",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("/metrics lacks %q:\n%s", line, text)
		}
	}
	checkWithPrometheusParser(t, text)
}

// checkWithPrometheusParser reads the text with the Prometheus project's own
// Python parser (Debian's python3-prometheus-client), which refuses what a
// scraper would refuse, and checks what it understood.
func checkWithPrometheusParser(t *testing.T, text string) {
	t.Helper()
	const parse = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
families = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    families[family.name] = {"type": family.type,
                             "samples": [[s.name, s.labels, s.value] for s in family.samples]}
print(json.dumps(families))
`
	cmd := exec.Command("/usr/bin/python3", "-c", parse)
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("the Prometheus parser refused /metrics: %v\n%s\n%s", err, stderr, text)
	}
	var families map[string]struct {
		Type    string  `json:"type"`
		Samples [][]any `json:"samples"`
	}
	if err := json.Unmarshal(out, &families); err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]string{"spine_executions": "counter", "spine_execution_duration_seconds": "histogram",
		"spine_tool_duration_seconds": "histogram", "spine_pool_children": "gauge", "spine_pool_waiting": "gauge"} {
		if families[name].Type != kind {
			t.Errorf("the parser read %s as %q, want %s", name, families[name].Type, kind)
		}
	}
	okRuns := 0.0
	for _, sample := range families["spine_executions"].Samples {
		if labels, _ := sample[1].(map[string]any); sample[0] == "spine_executions_total" && labels["spine_status"] == "ok" {
			okRuns = sample[2].(float64)
		}
	}
	if okRuns != 2 {
		t.Errorf("the parser read %v ok executions, want 2: %s", okRuns, out)
	}
}

// A run's page is served as HTML under the id the run's answer named, with
// the page's own policy; an unknown id is a 404.
func TestRunPage(t *testing.T) {
	ts := start(t, serve.Options{}, newProbe())
	a := post(t, ts.URL+"/v1/run", `{"source": "x = lookup(key=3)\nresult = x", "name": "page.py"}`)
	id := a.header.Get("Spine-Run")
	if decode(t, a).Status != host.StatusOK || len(id) != 32 {
		t.Fatalf("run id %q", id)
	}
	if link := a.header.Get("Link"); link != "</v1/runs/"+id+`>; rel="trace"` {
		t.Errorf("Link %q", link)
	}
	page := get(t, ts.URL+"/v1/runs/"+id)
	if page.code != http.StatusOK || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(page.header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("%d %v", page.code, page.header)
	}
	if !strings.Contains(string(page.body), `x = lookup(key=3)`) || !strings.Contains(string(page.body), "spine run page.py") {
		t.Errorf("the page lacks the program or its name:\n%.600s", page.body)
	}
	if a := get(t, ts.URL+"/v1/runs/"+strings.Repeat("0", 32)); a.code != http.StatusNotFound {
		t.Errorf("unknown run: %d", a.code)
	}
}

// A body that stops arriving is cut off at BodyTimeout with 408: a trickled
// stream gives back its sandboxed child and its calls are cancelled.
func TestSlowBodyIsCutOff(t *testing.T) {
	p := newProbe()
	ts := start(t, serve.Options{BodyTimeout: 700 * time.Millisecond}, p)
	for _, path := range []string{"/v1/run", "/v1/stream"} {
		body, writer := io.Pipe()
		req, err := http.NewRequest(http.MethodPost, ts.URL+path, body)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan answer, 1)
		go func() { done <- do(t, req) }()
		if path == "/v1/stream" {
			io.WriteString(writer, "result = block(n=1)\n")
		} else {
			io.WriteString(writer, `{"source": "result = `)
		}
		select {
		case a := <-done:
			if a.code != http.StatusRequestTimeout || !strings.Contains(string(a.body), "did not arrive within 700ms") {
				t.Errorf("%s: %d %s", path, a.code, a.body)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the stalled body was never cut off", path)
		}
		writer.Close()
	}
	select {
	case <-p.started:
		if err := <-p.cancelled; !errors.Is(err, context.Canceled) {
			t.Errorf("the stalled stream's call ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the stalled stream's call never started")
	}
	if resp := decode(t, post(t, ts.URL+"/v1/run", `{"source": "result = lookup(key=2)"}`)); string(resp.Value) != "14" {
		t.Errorf("after the cut-offs: %s %s", resp.Status, resp.Value)
	}
}

// A stream that finds no sandboxed child free within the engine's timeout
// is answered 503 (another replica may take it), and the service goes on.
func TestNoFreeChildIsUnavailable(t *testing.T) {
	p := newProbe()
	s, err := serve.New(serve.Options{}, host.WithTools(p.tools()...), host.WithLimits(host.Limits{Timeout: time.Second}),
		host.WithSandbox(host.SandboxOptions{MaxChildren: 1, Prefork: 1}))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer s.Close()
	defer ts.Close()
	body, writer := io.Pipe()
	holding, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/stream", body)
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan answer, 1)
	go func() { held <- do(t, holding) }()
	io.WriteString(writer, "a = mark(n=1)\n")
	select { // the first stream holds the one child
	case <-p.started:
	case <-time.After(15 * time.Second):
		t.Fatal("the first stream's call never started")
	}
	a := post(t, ts.URL+"/v1/stream", "result = 2\n")
	if a.code != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" {
		t.Errorf("a second stream: %d %s", a.code, a.body)
	}
	io.WriteString(writer, "result = a\n")
	writer.Close()
	if resp := decode(t, <-held); string(resp.Value) != "1" {
		t.Errorf("the first stream: %s %s", resp.Status, resp.Value)
	}
}
