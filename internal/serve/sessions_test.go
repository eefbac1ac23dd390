package serve_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/serve"
)

// session is the answer of POST /v1/sessions and GET /v1/sessions/{id}.
type session struct {
	ID            string  `json:"id"`
	Status        string  `json:"status"`
	Executions    int     `json:"executions"`
	IdleTimeoutMs float64 `json:"idle_timeout_ms"`
	LifetimeMs    float64 `json:"lifetime_ms"`
	MaxExecutions int     `json:"max_executions"`
}

func newSession(t *testing.T, url, options string) session {
	t.Helper()
	a := post(t, url+"/v1/sessions", options)
	if a.code != http.StatusCreated {
		t.Fatalf("POST /v1/sessions %s: %d %s", options, a.code, a.body)
	}
	var s session
	if err := json.Unmarshal(a.body, &s); err != nil || s.ID == "" || s.Status != "open" {
		t.Fatalf("%v: %s", err, a.body)
	}
	if a.header.Get("Location") != "/v1/sessions/"+s.ID {
		t.Errorf("Location %q", a.header.Get("Location"))
	}
	return s
}

// sessionURL starts a server and a session on it; the session's URL.
func sessionURL(t *testing.T, options string) string {
	t.Helper()
	ts := start(t, serve.Options{}, newProbe())
	return ts.URL + "/v1/sessions/" + newSession(t, ts.URL, options).ID
}

func remove(t *testing.T, url string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// runOK runs source in the session at, and fails unless it ran.
func runOK(t *testing.T, at, source string) host.Response {
	t.Helper()
	encoded, _ := json.Marshal(host.Request{Source: source})
	resp := decode(t, post(t, at+"/run", string(encoded)))
	if resp.Status != host.StatusOK {
		t.Fatalf("%q: %s %s", source, resp.Status, resp.Error)
	}
	return resp
}

// goneBecause checks a 410 and that it says why.
func goneBecause(t *testing.T, what string, a answer, why string) {
	t.Helper()
	if a.code != http.StatusGone || !strings.Contains(string(a.body), why) {
		t.Errorf("%s: %d %s, want 410 saying %q", what, a.code, a.body, why)
	}
}

// A session's runs share a namespace (a streamed run's too), one-shot runs
// do not see it, and once deleted it answers 410, never a fresh namespace.
func TestSessionKeepsStateUntilDeleted(t *testing.T) {
	ts := start(t, serve.Options{}, newProbe())
	schema := compile(t, "response.schema.json", host.ResponseSchema)
	s := newSession(t, ts.URL, "")
	at := ts.URL + "/v1/sessions/" + s.ID
	first := post(t, at+"/run", `{"source": "x = lookup(key=2)\ndef twice(v):\n    return 2 * v\nresult = x"}`)
	validate(t, schema, first.body)
	if resp := decode(t, first); resp.Status != host.StatusOK || string(resp.Value) != "14" {
		t.Fatalf("first run: %s %s %s", resp.Status, resp.Value, resp.Error)
	}
	streamed := post(t, at+"/stream", "y = twice(x)\n")
	if resp := decode(t, streamed); resp.Status != host.StatusOK {
		t.Fatalf("streamed run: %s %s", resp.Status, resp.Error)
	}
	second := post(t, at+"/run", `{"source": "result = [x, y, twice(y)]"}`)
	validate(t, schema, second.body)
	if resp := decode(t, second); string(resp.Value) != "[14,28,56]" {
		t.Fatalf("second run: %s %s %s", resp.Status, resp.Value, resp.Error)
	}
	if resp := decode(t, post(t, ts.URL+"/v1/run", `{"source": "result = x"}`)); resp.Status != host.StatusError ||
		!strings.Contains(resp.Error, "NameError") {
		t.Errorf("a one-shot run saw the session's x: %s %s", resp.Status, resp.Value)
	}
	var state session
	if a := get(t, at); a.code != http.StatusOK || json.Unmarshal(a.body, &state) != nil || state.Executions != 3 {
		t.Errorf("GET: %d %s, want 3 executions", a.code, a.body)
	}
	if a := remove(t, at); a.code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", a.code, a.body)
	}
	goneBecause(t, "run after DELETE", post(t, at+"/run", `{"source": "result = x"}`), "closed")
	goneBecause(t, "GET after DELETE", get(t, at), "closed")
	goneBecause(t, "DELETE after DELETE", remove(t, at), "closed")
	if a := get(t, ts.URL+"/v1/sessions/s-0123"); a.code != http.StatusNotFound {
		t.Errorf("an unknown session: %d %s", a.code, a.body)
	}
}

// A session idle past its timeout ends by itself (its child freed) and
// then answers 410 saying so.
func TestIdleSessionIsGone(t *testing.T) {
	at := sessionURL(t, `{"idle_timeout_ms": 300}`)
	runOK(t, at, "x = 1")
	deadline := time.Now().Add(15 * time.Second)
	for get(t, at).code == http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("the idle session never ended")
		}
		time.Sleep(100 * time.Millisecond)
	}
	goneBecause(t, "GET", get(t, at), "idle for 300ms")
	goneBecause(t, "run", post(t, at+"/run", `{"source": "result = x"}`), "idle for 300ms")
}

// Past --max-sessions a new session is refused with 503 and Retry-After
// (another replica may have room); a deleted one frees its place. What a
// session asks for is bounded by the server's limits; bad options are 400.
func TestSessionCapAndBounds(t *testing.T) {
	ts := start(t, serve.Options{MaxSessions: 2, SessionLimits: host.SessionOptions{IdleTimeout: time.Minute, MaxExecutions: 5}}, newProbe())
	first := newSession(t, ts.URL, `{"idle_timeout_ms": 3600000, "max_executions": 3}`)
	if first.IdleTimeoutMs != 60000 || first.MaxExecutions != 3 {
		t.Errorf("asked 1 h idle and 3 executions under a 1 min, 5 bound: got %v ms, %d", first.IdleTimeoutMs, first.MaxExecutions)
	}
	second := newSession(t, ts.URL, "{}")
	if second.IdleTimeoutMs != 60000 || second.MaxExecutions != 5 || second.LifetimeMs != float64(time.Hour/time.Millisecond) {
		t.Errorf("asked nothing: got %+v, want the bounds", second)
	}
	refused := post(t, ts.URL+"/v1/sessions", "")
	if refused.code != http.StatusServiceUnavailable || refused.header.Get("Retry-After") == "" ||
		!strings.Contains(string(refused.body), "most sessions (2)") {
		t.Errorf("a third session: %d %s", refused.code, refused.body)
	}
	remove(t, ts.URL+"/v1/sessions/"+first.ID)
	newSession(t, ts.URL, "")
	for body, want := range map[string]string{
		`{"idle_timeout_ms": -1}`: "must not be negative",
		`{"idle": 5}`:             `unknown field \"idle\"`,
	} {
		if a := post(t, ts.URL+"/v1/sessions", body); a.code != http.StatusBadRequest || !strings.Contains(string(a.body), want) {
			t.Errorf("%s: %d %s, want 400 with %q", body, a.code, a.body, want)
		}
	}
}

// A run that reaches a call needing approval answers suspended with a
// journal; POST /v1/resume continues it with a decision, running none of
// the calls it made before; a journal edited since is refused.
func TestSuspendAndResumeOverHTTP(t *testing.T) {
	p := newProbe()
	ts := start(t, serve.Options{}, p)
	request := `{"source": "a = mark(n=3)\nb = lookup(key=a)\nresult = [a, b]", "require_approval": ["lookup"]}`
	validate(t, compile(t, "request.schema.json", host.RequestSchema), []byte(request))
	suspended := post(t, ts.URL+"/v1/run", request)
	validate(t, compile(t, "response.schema.json", host.ResponseSchema), suspended.body)
	run := decode(t, suspended)
	if run.Status != host.StatusSuspended || run.Journal == nil || run.Journal.Pending.Tool != "lookup" {
		t.Fatalf("%s %s %+v", run.Status, run.Error, run.Journal)
	}
	<-p.started // the run's own mark
	journal, err := json.Marshal(run.Journal)
	if err != nil {
		t.Fatal(err)
	}
	for decision, want := range map[string]string{
		`{"kind": "approve"}`:            "[3,21]",
		`{"kind": "answer", "value": 5}`: "[3,5]",
	} {
		resp := decode(t, post(t, ts.URL+"/v1/resume", `{"journal": `+string(journal)+`, "decision": `+decision+`}`))
		if resp.Status != host.StatusOK || string(resp.Value) != want {
			t.Errorf("%s: %s %s %s, want %s", decision, resp.Status, resp.Value, resp.Error, want)
		}
	}
	denied := decode(t, post(t, ts.URL+"/v1/resume", `{"journal": `+string(journal)+`, "decision": {"kind": "deny", "message": "no"}}`))
	if denied.Status != host.StatusError || !strings.Contains(denied.Error, "PermissionError: no") {
		t.Errorf("deny: %s %s", denied.Status, denied.Error)
	}
	if len(p.started) != 0 {
		t.Errorf("a resume ran the recorded mark call again (%d times)", len(p.started))
	}
	edited := strings.Replace(string(journal), "key=a", "key=a+1", 1)
	if a := post(t, ts.URL+"/v1/resume", `{"journal": `+edited+`, "decision": {"kind": "approve"}}`); a.code != http.StatusBadRequest ||
		!strings.Contains(string(a.body), "program digest") {
		t.Errorf("an edited journal: %d %s", a.code, a.body)
	}
}

// A session whose child grows past the memory it asked for ends after that
// run (the run's own answer comes back), and then answers 410 saying why.
func TestSessionOverItsMemoryIsGone(t *testing.T) {
	at := sessionURL(t, `{"memory_bytes": 80000000}`)
	runOK(t, at, "small = 1")
	runOK(t, at, "big = b'x' * 120_000_000\nresult = len(big)")
	goneBecause(t, "the run after", post(t, at+"/run", `{"source": "result = small"}`), "over its memory limit of 80000000")
}
