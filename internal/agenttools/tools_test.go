package agenttools

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func handlers(latency Latency) map[string]host.Tool {
	out := map[string]host.Tool{}
	for _, t := range Tools(latency) {
		out[t.Spec.Name] = t
	}
	return out
}

func call(t *testing.T, ctx context.Context, tool host.Tool, args string) string {
	t.Helper()
	v, err := tool.Handler(ctx, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", tool.Spec.Name, args, err)
	}
	return string(v)
}

func TestWritesAreSeenByLaterReadsOfTheSameWorldOnly(t *testing.T) {
	tools := handlers(Latency{})
	w := NewWorld()
	ctx := WithWorld(context.Background(), w)
	call(t, ctx, tools["kv_put"], `{"key":"counter:visits","value":42}`)
	if got := call(t, ctx, tools["kv_get"], `{"key":"counter:visits"}`); got != "42" {
		t.Fatalf("read after write: %s", got)
	}
	fresh := WithWorld(context.Background(), NewWorld())
	if got := call(t, fresh, tools["kv_get"], `{"key":"counter:visits"}`); got != "41" {
		t.Fatalf("a new world starts from the fixture, got %s", got)
	}
	effects := w.Effects()
	if len(effects) != 1 || effects[0].Tool != "kv_put" || len(w.Log()) != 2 {
		t.Fatalf("log %+v", w.Log())
	}
}

func TestAWriteAppliesWhenItEndsAndACancelledOneNever(t *testing.T) {
	tools := handlers(Latency{PerTool: map[string]time.Duration{"write_file": time.Hour}})
	w := NewWorld()
	ctx, cancel := context.WithCancel(WithWorld(context.Background(), w))
	done := make(chan error)
	go func() {
		_, err := tools["write_file"].Handler(ctx, json.RawMessage(`{"path":"/notes/todo.txt","content":"new"}`))
		done <- err
	}()
	// However far the write got, it has not ended: a read sees the old text.
	if got := call(t, WithWorld(context.Background(), w), tools["read_file"], `{"path":"/notes/todo.txt"}`); got != `"buy milk\nreview PR 42\nwrite release notes\n"` {
		t.Fatalf("read during the write: %s", got)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("cancelled write: %v", err)
	}
	if got := call(t, WithWorld(context.Background(), w), tools["read_file"], `{"path":"/notes/todo.txt"}`); got != `"buy milk\nreview PR 42\nwrite release notes\n"` {
		t.Fatalf("read after the cancelled write: %s", got)
	}
	if len(w.Effects()) != 0 {
		t.Fatalf("a cancelled write was logged: %+v", w.Effects())
	}
}

func TestOnlyReadsAreSpeculative(t *testing.T) {
	writes := map[string]bool{"kv_put": true, "kv_delete": true, "write_file": true, "create_issue": true,
		"close_issue": true, "comment_issue": true, "cancel_order": true}
	for name, tool := range handlers(Latency{}) {
		if tool.Spec.Speculative == writes[name] || Effectful(name) != writes[name] {
			t.Errorf("%s: speculative=%v effectful=%v", name, tool.Spec.Speculative, Effectful(name))
		}
	}
}

func TestToolsDeclareWhatTheyReadAndWrite(t *testing.T) {
	tools := handlers(Latency{})
	for name, want := range map[string]string{"kv_get": "kv", "list_dir": "files", "get_issue": "issues", "get_order": "orders"} {
		if r := tools[name].Spec.Reads; len(r) != 1 || r[0] != want || tools[name].Spec.Writes != nil {
			t.Errorf("%s: reads %v writes %v", name, r, tools[name].Spec.Writes)
		}
	}
	for name, want := range map[string]string{"kv_put": "kv", "write_file": "files", "create_issue": "issues", "cancel_order": "orders"} {
		if w := tools[name].Spec.Writes; len(w) != 1 || w[0] != want {
			t.Errorf("%s: writes %v", name, w)
		}
	}
	// The web is fixed: no effect can make a search stale.
	if r := tools["search"].Spec.Reads; r == nil || len(r) != 0 {
		t.Errorf("search reads %v, want none", r)
	}
}

func TestAToolWithoutAWorldSaysSo(t *testing.T) {
	_, err := handlers(Latency{})["kv_get"].Handler(context.Background(), json.RawMessage(`{"key":"a"}`))
	if err != errNoWorld {
		t.Fatalf("got %v", err)
	}
}

func TestIssuesPageByCursorAndClosingTwiceFails(t *testing.T) {
	tools := handlers(Latency{})
	ctx := WithWorld(context.Background(), NewWorld())
	first := call(t, ctx, tools["list_issues"], `{"state":"open"}`)
	want := `{"issues":[{"id":101,"labels":["bug"],"state":"open","title":"Crash on empty directory"},{"id":102,"labels":["docs"],"state":"open","title":"Document --dry-run"},{"id":104,"labels":["enhancement"],"state":"open","title":"Add Windows support"}],"next_cursor":"after-104"}`
	if first != want {
		t.Fatalf("first page %s", first)
	}
	call(t, ctx, tools["close_issue"], `{"id":104}`)
	if _, err := tools["close_issue"].Handler(ctx, json.RawMessage(`{"id":104}`)); err == nil || err.Error() != "issue 104 is already closed" {
		t.Fatalf("second close: %v", err)
	}
}

func TestObserveCountsOnlyConsumedCalls(t *testing.T) {
	w := NewWorld()
	resp := &host.Response{Value: json.RawMessage(`{"b": 1, "a": 2.0}`), Calls: []host.Call{
		{Tool: "kv_get", Args: json.RawMessage(`{"key": "x"}`)},
		{Tool: "kv_get", Args: json.RawMessage(`{"key":"y"}`), Early: true, Claimed: true},
		{Tool: "kv_get", Args: json.RawMessage(`{"key":"z"}`), Early: true},
	}}
	o := Observe(resp, w)
	if string(o.Value) != `{"a":2.0,"b":1}` || len(o.Calls) != 2 || o.Calls[0].String() != `kv_get{"key":"x"}` || o.Calls[1].String() != `kv_get{"key":"y"}` {
		t.Fatalf("%s", o)
	}
}

func TestHeaderRoundTrips(t *testing.T) {
	o := Outcome{Value: json.RawMessage(`[1,"x"]`), Stdout: "hi\n",
		Effects: []Call{{"kv_put", json.RawMessage(`{"key":"a","value":1}`)}},
		Calls:   []Call{{"kv_get", json.RawMessage(`{"key":"a"}`)}, {"kv_put", json.RawMessage(`{"key":"a","value":1}`)}}}
	source := o.Header(json.RawMessage(`{"k": 1}`)) + "result = 1\n"
	p, err := parseProgram("x.py", source)
	if err != nil {
		t.Fatal(err)
	}
	if p.Want.String() != o.String() || string(p.Inputs) != `{"k":1}` {
		t.Fatalf("got %s inputs %s", p.Want, p.Inputs)
	}
	if _, body := SplitHeader(source); body != "result = 1\n" {
		t.Fatalf("body %q", body)
	}
	if _, err := parseProgram("y.py", "# value: 1\nresult = 1\n"); err == nil {
		t.Fatal("a header without stdout, effects and calls was accepted")
	}
}
