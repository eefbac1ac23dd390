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

func TestSuspendAndResumeByReplay(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		l := &ledger{}
		e := m.engine(t, host.WithTools(l.tools()...))
		resp, err := e.Execute(context.Background(), host.Request{Source: approvalProgram})
		if !errors.Is(err, host.ErrSuspended) || resp.Status != host.StatusSuspended || resp.Journal == nil {
			t.Fatalf("want suspended, got %v %+v", err, resp)
		}
		j := resp.Journal
		if j.Pending.Tool != "send" || len(j.Calls) != 1 || len(j.Clock) == 0 {
			t.Fatalf("journal: %+v", j)
		}
		if got := l.list(); len(got) != 1 {
			t.Fatalf("runs before resume: %v", got)
		}
		encoded, _ := json.Marshal(j)
		var moved host.Journal
		if err := json.Unmarshal(encoded, &moved); err != nil {
			t.Fatal(err)
		}
		final, err := e.Resume(context.Background(), &moved, host.Approve())
		if err != nil {
			t.Fatalf("resume: %v %+v", err, final)
		}
		t.Logf("%s %s", final.Value, final.Stdout)
		if got := l.list(); len(got) != 3 || !strings.HasPrefix(got[1], "send") {
			t.Fatalf("runs: %v", got)
		}
	})
}
