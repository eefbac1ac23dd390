package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// A class is one kind of submission: how it is submitted, and the outcome it
// must end with. Each expectation is written once: in this table, or in the
// header of the suite program a class submits.
type class struct {
	name    string
	hostile bool
	what    string // one line for the report
	// suite names a program of the security suite (tests/security/NAME.py)
	// whose header gives want, deadline and mode (suite.go).
	suite string
	want  []host.Status // the statuses it may end with (a killed child adds crashed)
	// emits is exactly how many `emit` effects one run has (a run whose child
	// was killed: at most this many).
	emits int
	// deadline is the caller's (ctx) deadline; 0 leaves the engine's. A run
	// with a deadline must return within it plus the allowed overrun.
	deadline time.Duration
	// value is the canonical JSON an ok run returns for submission id.
	value func(id int64) string
	// run submits once, under ctx (which carries the class's deadline).
	run func(h *harness, ctx context.Context, id int64) outcome
}

func inputs(id int64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"id": %d, "k": %d}`, id, id%100))
}

func k(id int64) int64 { return id % 100 }

// Benign programs: each emits its submission id exactly once.
const (
	benignPlain = `n = emit(value=inputs['id'])
result = {'id': inputs['id'], 'x': lookup(key=inputs['k']), 'n': n}
`
	benignFanout = `rows = []
for i in range(8):
    rows.append(lookup(key=inputs['k'] + i))
n = emit(value=inputs['id'])
result = {'sum': sum(rows), 'n': n}
`
	benignCompute = `total = 0
for i in range(inputs['k'] * 1000):
    total += i % 7
n = emit(value=inputs['id'])
result = {'total': total, 'n': n}
`
)

// The streamed benign program, in the chunks it arrives in (a chunk may end
// inside a statement).
var benignStreamChunks = []string{
	"a = sleep(ms=20, value=inputs['k'])\nb = look",
	"up(key=inputs['k'])\n",
	"n = emit(value=inputs['id'])\nresult = {'a': a, 'b': b, 'n': n}\n",
}

// Hostile programs.
const (
	// Two early calls to a tool that ignores its context, then a wait: the
	// deadline must end the execution without waiting for the tool.
	stubbornEarly = `a = stubborn(value=1)
b = stubborn(value=2)
result = [a, b]
`
	// 'in' on a map whose function has an effect: evaluating it early would
	// run the program's own code (and its effect) an extra time. The plain
	// program emits twice (for 1 and for next's 2) and returns r 7, next 2.
	mapInUnderPLM = `def f(x):
    emit(value=inputs['id'])
    return x
m = map(f, [1, 2, 3])
r = lookup(key=1 if 1 in m else 0)
result = {'r': r, 'next': next(m, None)}
`
	// The program a dead context must not run: its effect would happen.
	effectful = `n = emit(value=inputs['id'])
result = n
`
)

func execClass(source string, plm bool) func(h *harness, ctx context.Context, id int64) outcome {
	return func(h *harness, ctx context.Context, id int64) outcome {
		return h.execute(ctx, host.Request{Source: source, Inputs: inputs(id), PLM: plm})
	}
}

func statuses(s ...host.Status) []host.Status { return s }

var classes = []*class{
	{name: "plain", what: "one `lookup`, one `emit`", want: statuses(host.StatusOK), emits: 1,
		value: func(id int64) string { return canonical(fmt.Sprintf(`{"id":%d,"x":%d,"n":1}`, id, 7*k(id))) },
		run:   execClass(benignPlain, false)},
	{name: "plm-fanout", what: "PLM, a loop of 8 `lookup`, one `emit`", want: statuses(host.StatusOK), emits: 1,
		value: func(id int64) string { return canonical(fmt.Sprintf(`{"sum":%d,"n":1}`, 7*(8*k(id)+28))) },
		run:   execClass(benignFanout, true)},
	{name: "compute", what: "a bytecode loop of up to 99,000 iterations, one `emit`", want: statuses(host.StatusOK), emits: 1,
		value: func(id int64) string {
			total := int64(0)
			for i := range k(id) * 1000 {
				total += i % 7
			}
			return canonical(fmt.Sprintf(`{"total":%d,"n":1}`, total))
		},
		run: execClass(benignCompute, false)},
	{name: "stream", what: "streamed in 3 chunks (one ends mid-statement), then Finish", want: statuses(host.StatusOK), emits: 1,
		value: func(id int64) string { return canonical(fmt.Sprintf(`{"a":%d,"b":%d,"n":1}`, k(id), 7*k(id))) },
		run:   (*harness).benignStream},

	{name: "unknown-tool-loop", hostile: true, suite: "unknown_tool_call_loop", what: "calls a tool outside the manifest in a loop"},
	{name: "prepares-unclaimed", hostile: true, suite: "prepare_never_claimed_flood", what: "prepares calls in a loop, never claims one"},
	{name: "forged-60mib-result", hostile: true, suite: "forged_result_60mib", what: "a 60 MiB result frame written to fd 3"},
	{name: "forged-deep-result", hostile: true, suite: "forged_result_deep", what: "a result nested 9,000 deep written to fd 3"},
	{name: "forged-bad-utf8", hostile: true, suite: "forged_result_invalid_utf8", what: "a result of invalid UTF-8 written to fd 3"},
	{name: "forged-request-kind", hostile: true, suite: "forged_result_kind_request", what: "an error envelope of kind \"request\" written to fd 3"},
	{name: "stubborn-tool", hostile: true, what: "PLM starts 2 calls of a tool that ignores its context for 15 s",
		want: statuses(host.StatusTimeout), deadline: time.Second, run: execClass(stubbornEarly, true)},
	{name: "output-flood", hostile: true, suite: "raw_stdout_flood", what: "writes to fd 1 without end"},
	{name: "memory-bomb", hostile: true, suite: "memory_bomb", what: "allocates 10 GB at once"},
	{name: "cpu-in-c", hostile: true, suite: "long_c_call", what: "one C call that never returns to the bytecode loop"},
	{name: "infinite-loop", hostile: true, suite: "cpu_bomb", what: "`while True: pass`"},
	{name: "stream-cancelled", hostile: true, what: "a stream cancelled mid-statement, never finished nor aborted",
		want: statuses(host.StatusCancelled), run: (*harness).cancelledStream},
	{name: "ctx-cancelled", hostile: true, what: "an effectful program under a context already cancelled",
		want: statuses(host.StatusCancelled), run: deadContext(false)},
	{name: "ctx-expired", hostile: true, what: "an effectful program under a deadline already passed",
		want: statuses(host.StatusTimeout), run: deadContext(true)},
	{name: "map-in-plm", hostile: true, what: "PLM: `1 in map(f, ...)` where f emits", want: statuses(host.StatusOK), emits: 2,
		value: func(int64) string { return canonical(`{"r":7,"next":2}`) }, run: execClass(mapInUnderPLM, true)},
}

func (h *harness) benignStream(ctx context.Context, id int64) outcome {
	start := time.Now()
	s, err := h.engine.Stream(ctx, host.Request{Inputs: inputs(id)})
	if err != nil {
		return judge(nil, err, start)
	}
	for i, chunk := range benignStreamChunks {
		if i > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		if err := s.Feed([]byte(chunk)); err != nil {
			s.Abort()
			return outcome{status: "feed-failed", problem: "Feed: " + err.Error(), elapsed: time.Since(start)}
		}
	}
	resp, err := s.Finish()
	return judge(resp, err, start)
}

// cancelledStream cancels a stream while a statement is half written, and
// then forgets it: no Finish, no Abort. Its one response is Feed's refusal;
// the engine must release its child on its own (the settle check sees it).
func (h *harness) cancelledStream(parent context.Context, id int64) outcome {
	start := time.Now()
	ctx, cancel := context.WithCancel(parent)
	s, err := h.engine.Stream(ctx, host.Request{Inputs: inputs(id)})
	if err != nil {
		cancel()
		return judge(nil, err, start)
	}
	s.Feed([]byte("a = sleep(ms=5000, value=inputs['k'])\nb = look"))
	time.Sleep(20 * time.Millisecond)
	cancel()
	err = s.Feed([]byte("up(key=1)\nresult = [a, b]\n"))
	o := outcome{elapsed: time.Since(start)}
	switch {
	case err == nil:
		o.status, o.problem = "fed", "Feed after cancel was accepted"
	case errorIs(err, context.Canceled):
		o.status = host.StatusCancelled
	default:
		o.status, o.problem = "feed-failed", "Feed after cancel: "+err.Error()
	}
	return o
}

// deadContext runs an effectful program under a context that is already
// done: nothing may run.
func deadContext(expired bool) func(h *harness, ctx context.Context, id int64) outcome {
	return func(h *harness, ctx context.Context, id int64) outcome {
		var cancel context.CancelFunc
		if expired {
			ctx, cancel = context.WithDeadline(ctx, time.Now().Add(-time.Second))
		} else {
			ctx, cancel = context.WithCancel(ctx)
		}
		cancel()
		return h.execute(ctx, host.Request{Source: effectful, Inputs: inputs(id)})
	}
}

func classByName(names string) ([]*class, error) {
	if names == "" || names == "all" {
		return classes, nil
	}
	var picked []*class
	for _, name := range strings.Split(names, ",") {
		found := false
		for _, c := range classes {
			if c.name == strings.TrimSpace(name) {
				picked, found = append(picked, c), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown class %q", name)
		}
	}
	return picked, nil
}
