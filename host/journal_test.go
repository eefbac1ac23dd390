package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// ledger is an effectful tool that counts how often each call runs.
type ledger struct {
	mu   sync.Mutex
	runs []string
}

func (l *ledger) tools() []host.Tool {
	send := host.NewTool(host.ToolSpec{Name: "send", Approval: true}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		l.mu.Lock()
		l.runs = append(l.runs, "send"+string(args))
		l.mu.Unlock()
		return json.RawMessage(`"sent"`), nil
	})
	note := host.NewTool(host.ToolSpec{Name: "note"}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		l.mu.Lock()
		l.runs = append(l.runs, "note"+string(args))
		n := len(l.runs)
		l.mu.Unlock()
		return json.RawMessage(strings.Repeat("1", 1) + strings.Repeat("0", n%3)), nil
	})
	return []host.Tool{send, note}
}

func (l *ledger) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.runs...)
}

const approvalProgram = `
import random, time, uuid, datetime
a = note(text="one")
r = random.random()
t = time.time()
u = str(uuid.uuid4())
print("before", a)
s = send(to="bob", body=str(a))
print("after", s)
b = note(text="two")
result = {"a": a, "b": b, "r": r, "t": t, "u": u, "now": datetime.datetime.now().isoformat()}
`

func suspended(t *testing.T, e *host.Engine, req host.Request) *host.Journal {
	t.Helper()
	resp, err := e.Execute(context.Background(), req)
	if !errors.Is(err, host.ErrSuspended) || resp == nil || resp.Status != host.StatusSuspended || resp.Journal == nil {
		t.Fatalf("want a suspension, got %v %+v", err, resp)
	}
	encoded, err := json.Marshal(resp.Journal)
	if err != nil {
		t.Fatal(err)
	}
	var moved host.Journal // the journal is data: it travels as JSON
	if err := json.Unmarshal(encoded, &moved); err != nil {
		t.Fatal(err)
	}
	return &moved
}

func journalValue(t *testing.T, resp *host.Response) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(resp.Value, &v); err != nil {
		t.Fatalf("value %s: %v", resp.Value, err)
	}
	return v
}

func TestSuspendAndResumeByReplay(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		l := &ledger{}
		e := m.engine(t, host.WithTools(l.tools()...))
		j := suspended(t, e, host.Request{Source: approvalProgram})
		if j.Pending.Tool != "send" || string(j.Pending.Args) != `{"body":"10","to":"bob"}` || len(j.Calls) != 1 || len(j.Clock) != 1 {
			t.Fatalf("journal: %+v", j)
		}
		fresh := m.engine(t, host.WithTools((&ledger{}).tools()...))
		if resp, _ := fresh.Execute(context.Background(), host.Request{Source: approvalProgram}); resp.Stdout != "before 10\n" {
			t.Errorf("a suspended run's stdout %q: what ran before the pending call", resp.Stdout)
		}
		if got := l.list(); len(got) != 1 {
			t.Fatalf("before the resume ran %v, want only the first note", got)
		}
		approved, err := e.Resume(context.Background(), j, host.Approve())
		if err != nil || approved.Status != host.StatusOK {
			t.Fatalf("resume: %v %+v", err, approved)
		}
		if approved.Stdout != "before 10\nafter sent\n" {
			t.Errorf("stdout %q", approved.Stdout)
		}
		if got := l.list(); strings.Join(got, " ") != `note{"text":"one"} send{"body":"10","to":"bob"} note{"text":"two"}` {
			t.Fatalf("runs %v: the recorded note must not run again", got)
		}
		if !approved.Calls[0].Replayed || approved.Calls[1].Replayed {
			t.Errorf("trace %+v: the first call is replayed, the approved one is not", approved.Calls)
		}
		// The repeatable sources read the same in every resume of one journal.
		answered, err := e.Resume(context.Background(), j, host.Answer(json.RawMessage(`"queued"`)))
		if err != nil || !strings.Contains(answered.Stdout, "after queued") {
			t.Fatalf("answer: %v %+v", err, answered)
		}
		first, second := journalValue(t, approved), journalValue(t, answered)
		for _, k := range []string{"a", "r", "t", "u"} {
			if first[k] != second[k] {
				t.Errorf("%s: %v in one resume, %v in another", k, first[k], second[k])
			}
		}
		if n := len(l.list()); n != 4 {
			t.Errorf("the answered call ran its tool: %v", l.list())
		}
	})
}

func TestDeniedCallRaisesPermissionErrorAtTheCallSite(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		l := &ledger{}
		e := m.engine(t, host.WithTools(l.tools()...))
		source := "try:\n    send(to='eve', body='x')\n    result = 'sent'\nexcept PermissionError as e:\n    result = 'denied: ' + str(e)\n"
		j := suspended(t, e, host.Request{Source: source})
		resp, err := e.Resume(context.Background(), j, host.Deny("not to eve"))
		if err != nil || string(resp.Value) != `"denied: not to eve"` {
			t.Fatalf("%v %+v", err, resp)
		}
		if len(l.list()) != 0 {
			t.Errorf("a denied call ran: %v", l.list())
		}
	})
}

func TestResumeSuspendsAgainAtTheNextGatedCall(t *testing.T) {
	l := &ledger{}
	e := engineIn(t, host.Inproc, host.WithTools(l.tools()...))
	source := "a = send(to='a', body='1')\nb = send(to='b', body='2')\nresult = [a, b]\n"
	j := suspended(t, e, host.Request{Source: source})
	resp, err := e.Resume(context.Background(), j, host.Approve())
	if !errors.Is(err, host.ErrSuspended) || resp.Journal.Pending.Tool != "send" || string(resp.Journal.Pending.Args) != `{"body":"2","to":"b"}` {
		t.Fatalf("%v %+v", err, resp)
	}
	final, err := e.Resume(context.Background(), resp.Journal, host.Approve())
	if err != nil || string(final.Value) != `["sent", "sent"]` {
		t.Fatalf("%v %+v", err, final)
	}
	if got := l.list(); len(got) != 2 {
		t.Errorf("runs %v", got)
	}
}

func TestDivergentReplaysAreRefused(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		l := &ledger{}
		e := m.engine(t, host.WithTools(l.tools()...))
		j := suspended(t, e, host.Request{Source: approvalProgram})
		runs := len(l.list())

		edited := *j
		edited.Request.Source += "\nprint('edited')\n"
		if _, err := e.Resume(context.Background(), &edited, host.Approve()); !errors.Is(err, host.ErrBadRequest) ||
			!strings.Contains(err.Error(), "program digest") {
			t.Errorf("an edited program: %v", err)
		}
		other := m.engine(t, host.WithTools(append(l.tools(), host.NewTool(host.ToolSpec{Name: "extra"},
			func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, nil }))...))
		if _, err := other.Resume(context.Background(), j, host.Approve()); !errors.Is(err, host.ErrBadRequest) ||
			!strings.Contains(err.Error(), "manifest digest") {
			t.Errorf("another manifest: %v", err)
		}
		tampered := *j
		tampered.Calls = append([]host.JournalCall(nil), j.Calls...)
		tampered.Calls[0].Args = json.RawMessage(`{"text":"uno"}`)
		resp, err := e.Resume(context.Background(), &tampered, host.Approve())
		if !errors.Is(err, host.ErrDiverged) || resp.Status != host.StatusDiverged || !strings.Contains(resp.Error, `note({"text":"one"})`) {
			t.Errorf("a call the journal does not hold: %v %+v", err, resp)
		}
		// A program that decides from a source no journal records (CPU time)
		// asks for other calls when replayed.
		nondeterministic := "import time\nnote(text=str(time.process_time_ns()))\nsend(to='x', body='y')\n"
		j2 := suspended(t, e, host.Request{Source: nondeterministic})
		runs = len(l.list())
		resp, err = e.Resume(context.Background(), j2, host.Approve())
		if !errors.Is(err, host.ErrDiverged) || resp.Status != host.StatusDiverged {
			t.Errorf("nondeterminism: %v %+v", err, resp)
		}
		if got := l.list(); len(got) != runs {
			t.Errorf("a divergent replay ran tools: %v", got[runs:])
		}
	})
}

func TestSuspendHookAndRequireApproval(t *testing.T) {
	l := &ledger{}
	asked := 0
	hook := host.Hook{Suspend: func(call host.CallInfo) bool {
		asked++
		return call.Tool == "note" && strings.Contains(string(call.Args), "two")
	}}
	e := engineIn(t, host.Inproc, host.WithTools(l.tools()...), host.WithHooks(hook))
	j := suspended(t, e, host.Request{Source: "a = note(text='one')\nb = note(text='two')\nresult = [a, b]\n"})
	if j.Pending.Tool != "note" || len(j.Calls) != 1 {
		t.Fatalf("%+v", j)
	}
	resp, err := e.Resume(context.Background(), j, host.Answer(json.RawMessage(`42`)))
	if err != nil || string(resp.Value) != `[10, 42]` {
		t.Fatalf("%v %+v", err, resp)
	}
	if asked != 2 {
		t.Errorf("Suspend was asked %d times, want 2 (never about the replayed call)", asked)
	}
	// RequireApproval gates a tool for one request.
	plain := engineIn(t, host.Inproc, host.WithTools(l.tools()...))
	j = suspended(t, plain, host.Request{Source: "result = note(text='x')\n", RequireApproval: []string{"note"}})
	if j.Pending.Tool != "note" || len(j.Request.RequireApproval) != 1 {
		t.Fatalf("%+v", j)
	}
	if _, err := plain.Execute(context.Background(), host.Request{Source: "pass", RequireApproval: []string{"nope"}}); !errors.Is(err, host.ErrBadRequest) {
		t.Errorf("an unknown tool to approve: %v", err)
	}
}

// TestFileJournalStoreSurvivesARestart suspends runs on one engine, stores
// their journals, and resumes them from the store on another engine (a
// restarted service).
func TestFileJournalStoreSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	store, err := host.NewFileJournalStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l := &ledger{}
	first := engineIn(t, host.Inproc, host.WithTools(l.tools()...))
	for _, id := range []string{"run-1", "run-2"} {
		j := suspended(t, first, host.Request{Source: "result = send(to='" + id + "', body='b')\n"})
		if err := store.Put(ctx, id, j); err != nil {
			t.Fatal(err)
		}
	}
	first.Close()
	if err := store.Put(ctx, "../escape", &host.Journal{}); err == nil {
		t.Error("an id naming another directory was accepted")
	}
	reopened, err := host.NewFileJournalStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := reopened.List(ctx)
	if err != nil || strings.Join(ids, ",") != "run-1,run-2" {
		t.Fatalf("List: %v %v", ids, err)
	}
	second := engineIn(t, host.Inproc, host.WithTools(l.tools()...))
	for _, id := range ids {
		j, err := reopened.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := second.Resume(ctx, j, host.Approve())
		if err != nil || string(resp.Value) != `"sent"` {
			t.Fatalf("%s: %v %+v", id, err, resp)
		}
		if err := reopened.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := reopened.Get(ctx, "run-1"); !errors.Is(err, host.ErrJournalNotFound) {
		t.Errorf("a deleted journal: %v", err)
	}
	if got := l.list(); len(got) != 2 {
		t.Errorf("runs %v", got)
	}
}

// TestAsyncCallsReplay: calls the program starts from async code (gather)
// are journaled as they finish and answered from the journal on resume.
func TestAsyncCallsReplay(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		l := &ledger{}
		e := m.engine(t, host.WithTools(l.tools()...))
		source := "import asyncio\n" +
			"async def main():\n" +
			"    a, b = await asyncio.gather(note(text='x'), note(text='y'))\n" +
			"    s = await send(to='z', body=str(a + b))\n" +
			"    return [a, b, s]\n" +
			"result = await main()\n"
		j := suspended(t, e, host.Request{Source: source})
		if len(j.Calls) != 2 || j.Pending.Tool != "send" {
			t.Fatalf("journal %+v", j)
		}
		resp, err := e.Resume(context.Background(), j, host.Approve())
		if err != nil || resp.Status != host.StatusOK {
			t.Fatalf("%v %+v", err, resp)
		}
		if got := l.list(); len(got) != 3 || !strings.HasPrefix(got[2], "send") {
			t.Errorf("runs %v: each call once", got)
		}
	})
}

// Every clock reading a journal keeps is charged to the execution's host
// memory: a program reading the clock without end stops at the limit.
func TestClockReadingsAreCharged(t *testing.T) {
	e := engineIn(t, host.Inproc, host.WithTools((&ledger{}).tools()...), host.WithLimits(host.Limits{HostBytes: 256 << 10, StdoutBytes: 64 << 10}))
	resp, err := e.Execute(context.Background(), host.Request{Source: "import time\nwhile True:\n    time.time()\n"})
	if !errors.Is(err, host.ErrLimit) || resp.Status != host.StatusLimit {
		t.Fatalf("%v %+v", err, resp)
	}
}
