package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// world is the state a set of stateful tools shares: a key-value store, a
// file system, a record database, an order book and an issue tracker, all
// one map of namespaced keys. Every run starts from the same state (reset),
// so a read that starts before the write it follows returns the old value
// and the runs differ.
type world struct {
	mu    sync.Mutex
	state map[string]json.RawMessage
}

func (w *world) reset() {
	w.mu.Lock()
	w.state = map[string]json.RawMessage{
		"kv/a": json.RawMessage(`0`), "fs/notes.txt": json.RawMessage(`"draft"`),
		"db/user7":  json.RawMessage(`{"name": "Ada", "plan": "free"}`),
		"orders/o1": json.RawMessage(`"open"`), "issues/1": json.RawMessage(`"crash on start"`),
	}
	w.mu.Unlock()
}

func (w *world) load(key string) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	if v, ok := w.state[key]; ok {
		return v
	}
	return json.RawMessage("null")
}

func (w *world) store(ctx context.Context, key string, value json.RawMessage) error {
	w.mu.Lock()
	w.state[key] = value
	w.mu.Unlock()
	_, err := host.Emit(ctx, json.RawMessage(fmt.Sprintf(`{"set": %q, "to": %s}`, key, value)))
	return err
}

// list is the namespace's entries as [key, value] pairs in key order.
func (w *world) list(namespace string) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	var keys []string
	for k := range w.state {
		if strings.HasPrefix(k, namespace+"/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	pairs := make([][2]any, 0, len(keys))
	for _, k := range keys {
		pairs = append(pairs, [2]any{strings.TrimPrefix(k, namespace+"/"), w.state[k]})
	}
	out, _ := json.Marshal(pairs)
	return out
}

// latency is every tool's delay: long enough that a read started early is
// still running when the program reaches it, so the trace shows overlap.
const latency = 40 * time.Millisecond

func pause(ctx context.Context) error {
	select {
	case <-time.After(latency):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type keyArgs struct {
	Key string `json:"key"`
}

type setArgs struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// tools: get reads "kv" (its value at the moment it starts), put writes "kv";
// calendar reads "calendar", which nothing writes; the agent-style pairs each
// read and write their own resource.
func (w *world) tools() []host.Tool {
	reader := func(name, resource string) host.Tool {
		return host.Func(name, func(ctx context.Context, a keyArgs) (json.RawMessage, error) {
			value := w.load(resource + "/" + a.Key)
			return value, pause(ctx)
		}, host.Speculative(), host.Reads(resource))
	}
	writer := func(name, resource string) host.Tool {
		return host.Func(name, func(ctx context.Context, a setArgs) (json.RawMessage, error) {
			if err := pause(ctx); err != nil {
				return nil, err
			}
			return json.RawMessage("null"), w.store(ctx, resource+"/"+a.Key, a.Value)
		}, host.Writes(resource))
	}
	lister := func(name, resource string) host.Tool {
		return host.Func(name, func(ctx context.Context, _ struct{}) (json.RawMessage, error) {
			value := w.list(resource)
			return value, pause(ctx)
		}, host.Speculative(), host.Reads(resource))
	}
	return []host.Tool{
		reader("get", "kv"), writer("put", "kv"),
		host.Func("calendar", func(ctx context.Context, a struct {
			Day string `json:"day"`
		}) ([]string, error) {
			return []string{a.Day + " 9:00 standup"}, pause(ctx)
		}, host.Speculative(), host.Reads("calendar")),
		reader("read_file", "fs"), writer("write_file", "fs"),
		reader("get_record", "db"), writer("update_record", "db"),
		reader("order_status", "orders"), writer("set_order_status", "orders"),
		lister("list_issues", "issues"), writer("create_issue", "issues"),
	}
}

func newWorldEngine(t *testing.T, isolation host.Isolation) (*host.Engine, *world) {
	w := &world{}
	e, err := host.New(host.WithIsolation(isolation), host.WithTools(w.tools()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, w
}

// worldResult is what must not depend on how a program was run.
type worldResult struct {
	Status  host.Status
	Value   string
	Error   string
	Stdout  string
	Emitted []string
}

// noneStale fails when a call started early was cancelled by a later write:
// the guest's schedule itself broke the rule (the host then repaired it).
func noneStale(t *testing.T, how string, resp *host.Response) {
	t.Helper()
	for _, c := range resp.Calls {
		if c.Stale {
			t.Fatalf("%s: %s(%s) started before a write it reads", how, c.Tool, c.Args)
		}
	}
}

func worldOutcome(resp *host.Response) worldResult {
	o := worldResult{Status: resp.Status, Value: string(resp.Value), Error: resp.Error, Stdout: resp.Stdout}
	for _, e := range resp.Emitted {
		o.Emitted = append(o.Emitted, string(e))
	}
	return o
}

func execWorld(t *testing.T, e *host.Engine, w *world, source string, plm bool) *host.Response {
	t.Helper()
	w.reset()
	resp, err := e.Execute(context.Background(), host.Request{Source: source, PLM: plm})
	if resp == nil {
		t.Fatalf("no response: %v", err)
	}
	return resp
}

func streamWorld(t *testing.T, e *host.Engine, w *world, source string, chunk int) *host.Response {
	t.Helper()
	w.reset()
	s, err := e.Stream(context.Background(), host.Request{})
	if err != nil {
		t.Fatal(err)
	}
	for at := 0; at < len(source); at += chunk {
		if err := s.Feed([]byte(source[at:min(at+chunk, len(source))])); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := s.Finish()
	if resp == nil {
		t.Fatalf("no response: %v", err)
	}
	return resp
}

// readAfterWrite are programs agents write, each reading back what it just
// changed: plainly they see the new value, and so must PLM and streaming.
var readAfterWrite = map[string]struct{ source, value string }{
	"put then get":      {"put(key='a', value=1)\nresult = get(key='a')\n", `1`},
	"conditional write": {"n = len('xy')\nif n > 1:\n    put(key='a', value=n)\nresult = get(key='a')\n", `2`},
	"write in a helper": {"def save(v):\n    print('saving', v)\n    put(key='a', value=v)\n\n" +
		"save(5)\nresult = get(key='a')\n", `5`},
	"write in a loop": {"for v in [1, 2, 3]:\n    put(key='a', value=v)\nresult = get(key='a')\n", `3`},
	"read and write per iteration": {"seen = []\nfor v in [1, 2, 3]:\n    seen.append(get(key='a'))\n" +
		"    put(key='a', value=v)\nresult = seen\n", `[0, 1, 2]`},
	"write beside the read": {"pair = [put(key='a', value=9), get(key='a')]\nresult = pair\n", `[null, 9]`},
	"write file then read it back": {"text = 'hello ' + 'world'\nwrite_file(key='notes.txt', value=text)\n" +
		"back = read_file(key='notes.txt')\nprint('read', len(back), 'chars')\nresult = back == text\n", `true`},
	"update record then get": {"user = get_record(key='user7')\nuser['plan'] = 'pro'\n" +
		"update_record(key='user7', value=user)\nresult = get_record(key='user7')['plan']\n", `"pro"`},
	"cancel order then confirm status": {"if order_status(key='o1') == 'open':\n" +
		"    set_order_status(key='o1', value='cancelled')\nstatus = order_status(key='o1')\n" +
		"print('order o1 is', status)\nresult = {'confirmed': status == 'cancelled'}\n", `{"confirmed": true}`},
	"create issue then list issues": {"before = list_issues()\ncreate_issue(key='2', value='slow search')\n" +
		"after = list_issues()\nresult = [len(before), len(after), after[-1][1]]\n", `[1, 2, "slow search"]`},
}

func TestEffectsOrderReads(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e, w := newWorldEngine(t, isolation)
		for name, program := range readAfterWrite {
			t.Run(name, func(t *testing.T) {
				plain := execWorld(t, e, w, program.source, false)
				want := worldOutcome(plain)
				if want.Status != host.StatusOK || want.Value != program.value {
					t.Fatalf("plain run: %+v", want)
				}
				resp := execWorld(t, e, w, program.source, true)
				if got := worldOutcome(resp); !reflect.DeepEqual(got, want) {
					t.Fatalf("PLM: %+v\nplain: %+v", got, want)
				}
				noneStale(t, "PLM", resp)
				for _, chunk := range []int{1, 5, 17, 64, len(program.source)} {
					resp := streamWorld(t, e, w, program.source, chunk)
					if got := worldOutcome(resp); !reflect.DeepEqual(got, want) {
						t.Fatalf("streamed in chunks of %d: %+v\nplain: %+v", chunk, got, want)
					}
					noneStale(t, fmt.Sprintf("streamed in chunks of %d", chunk), resp)
				}
			})
		}
	})
}

// callOf is the only traced call of `tool` with these arguments.
func callOf(t *testing.T, resp *host.Response, tool, args string) host.Call {
	t.Helper()
	var found []host.Call
	for _, c := range resp.Calls {
		if c.Tool == tool && string(c.Args) == args {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d calls of %s(%s) in %+v", len(found), tool, args, resp.Calls)
	}
	return found[0]
}

// A read of the calendar is not held back by a write to the store, while the
// store's own read waits for it.
func TestDisjointReadsStartBeforeAWrite(t *testing.T) {
	source := "put(key='a', value=1)\nday = calendar(day='mon')\nresult = [get(key='a'), day]\n"
	const value = `[1, ["mon 9:00 standup"]]`
	check := func(t *testing.T, resp *host.Response, streamed bool) {
		t.Helper()
		if resp.Status != host.StatusOK || string(resp.Value) != value {
			t.Fatalf("%s %s %s", resp.Status, resp.Value, resp.Error)
		}
		put := callOf(t, resp, "put", `{"key":"a","value":1}`)
		day := callOf(t, resp, "calendar", `{"day":"mon"}`)
		get := callOf(t, resp, "get", `{"key":"a"}`)
		if !day.Early || !day.Claimed || day.Stream != streamed || day.Start >= put.End {
			t.Fatalf("the calendar read did not start before the write ended: calendar %+v, put %+v", day, put)
		}
		if get.Start < put.End || get.Stream {
			t.Fatalf("the store read started before the write ended: get %+v, put %+v", get, put)
		}
	}
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e, w := newWorldEngine(t, isolation)
		resp := execWorld(t, e, w, source, true)
		check(t, resp, false)
		if !strings.Contains(resp.Transformed, "'calendar'") {
			t.Fatalf("calendar not prepared: %s", resp.Transformed)
		}
		check(t, streamWorld(t, e, w, source, 8), true)
	})
}

// The host enforces the rule whatever the guest does: a call prepared by
// hand before a write, and resolved after it, is cancelled by the write and
// runs afresh.
func TestAnEffectMakesEarlierPreparedReadsStale(t *testing.T) {
	source := `import _spine
h = _spine.prepare('{"args":{"key":"a"},"tool":"get"}')
c = _spine.prepare('{"args":{"day":"tue"},"tool":"calendar"}')
put(key='a', value=5)
fresh = _spine.resolve(h, '{"args":{"key":"a"},"tool":"get"}').decode()
day = _spine.resolve(c, '{"args":{"day":"tue"},"tool":"calendar"}').decode()
result = [h > 0, fresh, day]`
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e, w := newWorldEngine(t, isolation)
		resp := execWorld(t, e, w, source, false)
		if resp.Status != host.StatusOK || string(resp.Value) != `[true, "{\"value\":5}", "{\"value\":[\"tue 9:00 standup\"]}"]` {
			t.Fatalf("%s %s %s", resp.Status, resp.Value, resp.Error)
		}
		var stale, rerun int
		for _, c := range resp.Calls {
			switch {
			case c.Tool == "get" && c.Early && c.Stale && !c.Claimed:
				stale++
			case c.Tool == "get" && !c.Early:
				rerun++
			case c.Tool == "calendar" && (!c.Early || !c.Claimed || c.Stale):
				t.Fatalf("the calendar read was disturbed by a write to the store: %+v", c)
			}
		}
		if stale != 1 || rerun != 1 {
			t.Fatalf("stale %d, rerun %d: %+v", stale, rerun, resp.Calls)
		}
	})
}

func TestResourceDeclarationsAreChecked(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, nil }
	for name, spec := range map[string]host.ToolSpec{
		"speculative writer": {Name: "t", Speculative: true, Writes: []string{"kv"}},
		"empty name":         {Name: "t", Reads: []string{""}, Speculative: true},
		"named twice":        {Name: "t", Writes: []string{"kv", "kv"}},
	} {
		_, err := host.New(host.WithIsolation(host.Inproc), host.WithTools(host.NewTool(spec, noop)))
		if err == nil || !strings.HasPrefix(err.Error(), "spine: tool t") {
			t.Fatalf("%s: %v", name, err)
		}
	}
	e, err := host.New(host.WithIsolation(host.Inproc), host.WithTools(
		host.NewTool(host.ToolSpec{Name: "pure", Speculative: true, Reads: []string{}}, noop),
		host.NewTool(host.ToolSpec{Name: "any", Speculative: true}, noop)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	specs := e.Tools()
	if specs[0].Reads == nil || len(specs[0].Reads) != 0 || specs[1].Reads != nil {
		t.Fatalf("nothing and everything were not kept apart: %+v", specs)
	}
}
