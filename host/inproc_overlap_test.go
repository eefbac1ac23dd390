package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// waitTools are `wait(ms=n, who=s)`, which records when it ran for `who` and
// sleeps n ms, and `boom()`, which panics.
type waitLog struct {
	mu    sync.Mutex
	spans map[string][2]time.Time
}

func waitTools(log *waitLog) []host.Tool {
	wait := host.NewTool(host.ToolSpec{Name: "wait"}, func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		var args struct {
			Ms  int    `json:"ms"`
			Who string `json:"who"`
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, err
		}
		start := time.Now()
		select {
		case <-time.After(time.Duration(args.Ms) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		log.mu.Lock()
		log.spans[args.Who] = [2]time.Time{start, time.Now()}
		log.mu.Unlock()
		return json.RawMessage(`"` + args.Who + `"`), nil
	})
	boom := host.NewTool(host.ToolSpec{Name: "boom"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		panic("boom")
	})
	return []host.Tool{wait, boom}
}

// Each prints its name before and after a 500 ms wait in a tool, many times
// over, so output that went to the wrong execution would show.
const overlapProgram = `
for i in range(200):
    print(inputs["who"], i)
got = wait(ms=500, who=inputs["who"])
for i in range(200):
    print(inputs["who"], "after", i)
result = got
`

// In process, executions waiting in tools overlap: three that each wait
// 500 ms in a tool are all in their tools at once (every wait starts
// before any ends, which serialised executions can never show), and each
// keeps its own output.
func TestInprocExecutionsOverlapInTools(t *testing.T) {
	log := &waitLog{spans: map[string][2]time.Time{}}
	e := engineIn(t, host.Inproc, host.WithTools(waitTools(log)...))
	names := []string{"alpha", "beta", "gamma"}
	responses := make([]*host.Response, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, who := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			responses[i], errs[i] = e.Execute(ctx, host.Request{Source: overlapProgram,
				Inputs: json.RawMessage(fmt.Sprintf(`{"who":%q}`, who))})
		}()
	}
	wg.Wait()
	for i, who := range names {
		if errs[i] != nil {
			t.Fatalf("%s: %v", who, errs[i])
		}
		if string(responses[i].Value) != `"`+who+`"` {
			t.Fatalf("%s: value %s", who, responses[i].Value)
		}
		checkOwnOutput(t, who, responses[i].Stdout)
	}
	var latestStart, earliestEnd time.Time
	for _, who := range names {
		span := log.spans[who]
		if latestStart.IsZero() || span[0].After(latestStart) {
			latestStart = span[0]
		}
		if earliestEnd.IsZero() || span[1].Before(earliestEnd) {
			earliestEnd = span[1]
		}
	}
	if !latestStart.Before(earliestEnd) {
		t.Fatalf("the three waits did not overlap: the last began %v after the first ended", latestStart.Sub(earliestEnd))
	}
}

// checkOwnOutput: exactly the 400 lines the program printed for `who`.
func checkOwnOutput(t *testing.T, who, stdout string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%s: %d lines of output, want 400", who, len(lines))
	}
	for i, line := range lines {
		want := fmt.Sprintf("%s %d", who, i)
		if i >= 200 {
			want = fmt.Sprintf("%s after %d", who, i-200)
		}
		if line != want {
			t.Fatalf("%s: line %d is %q, want %q", who, i, line, want)
		}
	}
}

// A tool that panics in one execution and a deadline that stops another
// leave a third, overlapping them, untouched.
func TestInprocFailuresStayInTheirExecution(t *testing.T) {
	log := &waitLog{spans: map[string][2]time.Time{}}
	e := engineIn(t, host.Inproc, host.WithTools(waitTools(log)...))
	type outcome struct {
		resp *host.Response
		err  error
	}
	results := make(chan outcome, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		resp, err := e.Execute(ctx, host.Request{Source: overlapProgram, Inputs: json.RawMessage(`{"who":"calm"}`)})
		results <- outcome{resp, err}
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	var panicked, stopped *host.Response
	go func() {
		defer wg.Done()
		panicked, _ = e.Execute(context.Background(), host.Request{
			Source: "print('before')\nwait(ms=200, who='panicky')\nboom()\n"})
	}()
	go func() {
		defer wg.Done()
		stopped, _ = e.Execute(context.Background(), host.Request{
			Source: "print('spinning')\nwhile True:\n    pass\n", Limits: host.Limits{Timeout: 700 * time.Millisecond}})
	}()
	wg.Wait()
	if panicked.Status != host.StatusError || !strings.Contains(panicked.Error, "tool panicked") || panicked.Stdout != "before\n" {
		t.Fatalf("panicking tool: status %s, error %q, stdout %q", panicked.Status, panicked.Error, panicked.Stdout)
	}
	if stopped.Status != host.StatusTimeout || stopped.Stdout != "spinning\n" {
		t.Fatalf("endless loop: status %s, error %q, stdout %q", stopped.Status, stopped.Error, stopped.Stdout)
	}
	got := <-results
	if got.err != nil || got.resp.Status != host.StatusOK || string(got.resp.Value) != `"calm"` {
		t.Fatalf("the calm execution: %v, %+v", got.err, got.resp)
	}
	checkOwnOutput(t, "calm", got.resp.Stdout)
	// The interpreter serves the next execution as before.
	mustValueIn(t, e, "result = wait(ms=1, who='next')", `"next"`)
}

func mustValueIn(t *testing.T, e *host.Engine, source, want string) {
	t.Helper()
	resp, err := e.Execute(context.Background(), host.Request{Source: source})
	if err != nil || string(resp.Value) != want {
		t.Fatalf("Execute(%q): %v, %+v", source, err, resp)
	}
}

// overlapCase is one program of the mixed load and what it must give for n.
type overlapCase struct {
	source  string
	plm     bool
	timeout time.Duration
	status  host.Status
	value   func(n int) string // for StatusOK
	stdout  func(n int) string
}

var overlapCases = []overlapCase{
	{source: "print('a' * 3)\nresult = lookup(key=inputs['n'])",
		value: func(n int) string { return fmt.Sprint(7 * n) }, stdout: func(int) string { return "aaa\n" }},
	{source: "a = lookup(key=inputs['n'])\nb = lookup(key=inputs['n'] + 1)\nresult = a + b", plm: true,
		value: func(n int) string { return fmt.Sprint(14*n + 7) }},
	{source: "import asyncio\nasync def main():\n    return await asyncio.gather(*[sleep(ms=20, value=i) for i in range(4)])\nresult = asyncio.run(main())",
		value: func(int) string { return "[0, 1, 2, 3]" }},
	{source: "raise ValueError('no')", status: host.StatusError},
	{source: "print('spin')\nwhile True:\n    pass", status: host.StatusTimeout, timeout: 300 * time.Millisecond},
	{source: "def f(n):\n    return f(n + 1)\nf(0)", status: host.StatusError},
	{source: "result = sum(range(inputs['n'] * 1000))",
		value: func(n int) string { return fmt.Sprint((n*1000 - 1) * n * 1000 / 2) }},
	{source: "x = sleep(ms=30, value=inputs['n'])\nprint(x)\nresult = x",
		value: func(n int) string { return fmt.Sprint(n) }, stdout: func(n int) string { return fmt.Sprintf("%d\n", n) }},
}

// Six goroutines run a mix of programs in process at once (tools, PLM,
// asyncio imported for the first time while others run, errors, deadlines,
// runaway recursion, plain bytecode): each gets its own value, status and
// output.
func TestInprocMixedProgramsOverlap(t *testing.T) {
	e := engineIn(t, host.Inproc)
	var wg sync.WaitGroup
	failures := make(chan string, 240)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				n, c := g*100+i, overlapCases[(g+i)%len(overlapCases)]
				resp, err := e.Execute(context.Background(), host.Request{Source: c.source, PLM: c.plm,
					Inputs: json.RawMessage(fmt.Sprintf(`{"n": %d}`, n)), Limits: host.Limits{Timeout: c.timeout}})
				switch {
				case resp == nil:
					failures <- fmt.Sprintf("%q: %v", c.source, err)
				case c.status != "" && resp.Status != c.status:
					failures <- fmt.Sprintf("%q: status %s (%s), want %s", c.source, resp.Status, resp.Error, c.status)
				case c.status == "" && (resp.Status != host.StatusOK || string(resp.Value) != c.value(n)):
					failures <- fmt.Sprintf("%q n=%d: %s %s %s", c.source, n, resp.Status, resp.Value, resp.Error)
				case c.stdout != nil && resp.Stdout != c.stdout(n):
					failures <- fmt.Sprintf("%q n=%d: stdout %q", c.source, n, resp.Stdout)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for failure := range failures {
		t.Error(failure)
	}
}

// Executions that follow one another on one thread share its thread state,
// emptied in between: a contextvar or a threading.local value one set is
// not what the next one sees (reached through a module both import).
func TestInprocThreadStateStartsEmpty(t *testing.T) {
	e := engineIn(t, host.Inproc)
	set := "import contextvars, threading, json\n" +
		"if not hasattr(json, 'spine_var'):\n" +
		"    json.spine_var, json.spine_local = contextvars.ContextVar('v'), threading.local()\n" +
		"json.spine_var.set('set'); json.spine_local.value = 'set'\nresult = 'ok'"
	get := "import json\nresult = [json.spine_var.get('empty'), getattr(json.spine_local, 'value', 'empty')]"
	for i := 0; i < 5; i++ {
		mustValueIn(t, e, set, `"ok"`)
		mustValueIn(t, e, get, `["empty", "empty"]`)
	}
}

// A thread the program starts serves the program that started it, not the
// newest execution: its output and tool calls are its starter's, while
// another execution overlaps.
func TestInprocProgramThreadsServeTheirOwnExecution(t *testing.T) {
	log := &waitLog{spans: map[string][2]time.Time{}}
	e := engineIn(t, host.Inproc, host.WithTools(waitTools(log)...))
	program := "import threading\n" +
		"got = []\n" +
		"def work():\n" +
		"    print('thread of', inputs['who'])\n" +
		"    got.append(wait(ms=200, who=inputs['who'] + '-thread'))\n" +
		"t = threading.Thread(target=work)\n" +
		"t.start()\n" +
		"wait(ms=100, who=inputs['who'])\n" +
		"t.join()\n" +
		"result = got\n"
	var wg sync.WaitGroup
	responses := make([]*host.Response, 2)
	for i, who := range []string{"first", "second"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			responses[i], _ = e.Execute(context.Background(), host.Request{Source: program,
				Inputs: json.RawMessage(fmt.Sprintf(`{"who":%q}`, who))})
		}()
	}
	wg.Wait()
	for i, who := range []string{"first", "second"} {
		resp := responses[i]
		if resp == nil || resp.Status != host.StatusOK || string(resp.Value) != fmt.Sprintf(`["%s-thread"]`, who) {
			t.Fatalf("%s: %+v", who, resp)
		}
		if resp.Stdout != "thread of "+who+"\n" {
			t.Fatalf("%s: stdout %q", who, resp.Stdout)
		}
		var tools []string
		for _, c := range resp.Calls {
			tools = append(tools, string(c.Args))
		}
		if len(resp.Calls) != 2 || !strings.Contains(strings.Join(tools, " "), who+"-thread") {
			t.Fatalf("%s: calls %v", who, tools)
		}
	}
}
