package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func testAsyncGatherOfToolsOverlapsOnTheHost(t *testing.T, m isolationMode) {
	const source = `import asyncio
async def main():
    return await asyncio.gather(*[sleep(ms=100, value=k) for k in range(8)])
result = asyncio.run(main())`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `[0, 1, 2, 3, 4, 5, 6, 7]`)
	if len(resp.Calls) != 8 {
		t.Fatalf("%d calls traced, want 8", len(resp.Calls))
	}
	firstEnd := resp.Calls[0].End
	for _, c := range resp.Calls {
		firstEnd = min(firstEnd, c.End)
	}
	for _, c := range resp.Calls {
		// Every call started before any ended: they ran at once.
		if c.Start >= firstEnd || c.Early || c.Claimed || c.Error != "" {
			t.Fatalf("call %+v: want started before the first end (%v), not early", c, firstEnd)
		}
	}
}

func testAsyncTopLevelAwaitTaskGroupAndWaitFor(t *testing.T, m isolationMode) {
	const source = `import asyncio
async def both():
    async with asyncio.TaskGroup() as tg:
        a = tg.create_task(lookup(key=1))
        b = tg.create_task(sleep(ms=20, value='b'))
    return [a.result(), b.result()]
first = await lookup(key=2)
group = await both()
bounded = await asyncio.wait_for(lookup(key=3), timeout=30)
await asyncio.sleep(0.01)
result = [first, group, bounded]`
	e := m.engine(t)
	mustValue(t, e, source, `{}`, `[14, [7, "b"], 21]`)
}

func testAsyncToolErrorIsRaisedAtItsAwait(t *testing.T, m isolationMode) {
	const source = `import asyncio
async def main():
    call = fail(message='boom')
    reached = 'called'
    try:
        await call
    except RuntimeError as error:
        return [reached, str(error)]
result = asyncio.run(main())`
	e := m.engine(t)
	mustValue(t, e, source, `{}`, `["called", "boom"]`)
	resp, err := run(t, e, "async def main():\n    x = 1\n    await fail(message='late')\nimport asyncio\nasyncio.run(main())", `{}`)
	if !errors.Is(err, host.ErrGuest) || resp.Error != "RuntimeError: late" || resp.Line != 3 {
		t.Fatalf("err %v, error %q line %d", err, errorOf(resp), resp.Line)
	}
}

func testAsyncSyncHelperGetsTheValue(t *testing.T, m isolationMode) {
	// A plain function called from async code is sync code: its tool call
	// returns the value. Comprehensions count as the code around them.
	const source = `def plus_one(k):
    return lookup(key=k) + 1
async def main():
    return [plus_one(1), await lookup(key=2), [type(c).__name__ for c in [lookup(key=k) for k in (3,)]]]
import asyncio
pending = asyncio.run(main())
result = [pending[0], pending[1], pending[2], lookup(key=4)]`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `[8, 14, ["coroutine"], 28]`)
	if !strings.Contains(resp.Stderr, "RuntimeWarning: coroutine 'lookup' was never awaited") {
		t.Fatalf("stderr %q: the unawaited call is not reported", resp.Stderr)
	}
}

func testAsyncUnawaitedCallRunsAndIsCancelledAtTheEnd(t *testing.T, m isolationMode) {
	const source = `async def main():
    sleep(ms=60000, value=1)
    return 'done'
result = await main()`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `"done"`)
	if resp.Stderr != "RuntimeWarning: coroutine 'sleep' was never awaited\n" {
		t.Fatalf("stderr %q", resp.Stderr)
	}
	if len(resp.Calls) != 1 || resp.Calls[0].Tool != "sleep" || !strings.Contains(resp.Calls[0].Error, "canceled") {
		t.Fatalf("calls %+v: want the sleep started, then cancelled when the execution ended", resp.Calls)
	}
}

func testAsyncEffectfulToolsGatheredRunAsAsked(t *testing.T, m isolationMode) {
	const source = `import asyncio
counts = await asyncio.gather(emit(value='a'), emit(value='b'))
result = sorted(counts)`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `[1, 2]`)
	if len(resp.Emitted) != 2 {
		t.Fatalf("emitted %s", resp.Emitted)
	}
	for _, c := range resp.Calls {
		if c.Early {
			t.Fatalf("the program's own call is traced as early: %+v", c)
		}
	}
}

func testAsyncDeadlineEndsInTimeout(t *testing.T, m isolationMode) {
	cases := map[string]string{
		"awaiting a tool":     "print('before')\nawait sleep(ms=60000)",
		"in asyncio.sleep":    "import asyncio\nprint('before')\nawait asyncio.sleep(60)",
		"inside asyncio.run":  "import asyncio\nprint('before')\nasyncio.run(asyncio.sleep(60))",
		"catching the errors": "import asyncio\nprint('before')\nasync def f():\n    while True:\n        try:\n            await asyncio.sleep(60)\n        except BaseException:\n            pass\nawait f()",
	}
	e := m.engine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	for name, source := range cases {
		resp, err := run(t, e, source, `{}`)
		if !errors.Is(err, host.ErrTimeout) || resp == nil || resp.Status != host.StatusTimeout || resp.Stdout != "before\n" {
			t.Errorf("%s: err %v, response %+v: want timeout with the output kept", name, err, resp)
		}
	}
	mustValue(t, e, "result = await lookup(key=1)", `{}`, `7`)
}

func TestInprocAsyncTaskLeftPendingIsClosedInItsOwnExecution(t *testing.T) {
	// A task that ignores its cancellation outlives asyncio.run when the
	// deadline stops the program. Closed later by the collector, with no loop
	// running, its coroutine would spin (every await raises at once, and it
	// catches everything) in whichever execution the collection lands in: it
	// must be closed before its own execution ends. The collection is forced
	// here so the test does not depend on when the collector runs. In process
	// only: there every execution shares the interpreter (and the sandbox
	// refuses gc).
	const source = "import asyncio\nprint('before')\nasync def f():\n    while True:\n        try:\n            await asyncio.sleep(60)\n        except BaseException:\n            pass\nawait f()"
	e := inprocMode.engine(t, host.WithLimits(host.Limits{Timeout: time.Second}))
	resp, err := run(t, e, source, `{}`)
	if !errors.Is(err, host.ErrTimeout) || resp == nil || resp.Status != host.StatusTimeout || resp.Stdout != "before\n" {
		t.Fatalf("err %v, response %+v: want timeout with the output kept", err, resp)
	}
	mustValue(t, e, "import gc\nresult = gc.collect() >= 0", `{}`, `true`)
}

func testUTF8Mode(t *testing.T, m isolationMode) {
	const source = `import sys, locale, io, os
result = [sys.getfilesystemencoding(), sys.flags.utf8_mode, locale.getpreferredencoding(False),
          io.TextIOWrapper(io.BytesIO()).encoding, os.fsencode('\u03b2').decode('utf-8')]
print('\u03b2')`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `["utf-8", 1, "utf-8", "utf-8", "β"]`)
	if resp.Stdout != "β\n" {
		t.Fatalf("stdout %q", resp.Stdout)
	}
}

func testSyntaxErrorAndCycleMessages(t *testing.T, m isolationMode) {
	e := m.engine(t)
	resp, err := run(t, e, "x = 1\nif x\n    pass", `{}`)
	if !errors.Is(err, host.ErrGuest) || resp.Error != "SyntaxError: expected ':'" || resp.Line != 2 {
		t.Fatalf("err %v, error %q line %d", err, errorOf(resp), resp.Line)
	}
	resp, err = run(t, e, "shared = [1]\nx = {'a': shared, 'b': shared}\nx['c'] = [x]\nresult = x", `{}`)
	if err == nil || resp.Error != "ValueError: result contains a reference cycle: result['c'][0] is result" {
		t.Fatalf("err %v, error %q", err, errorOf(resp))
	}
	mustValue(t, e, "shared = [1]\nresult = {'a': shared, 'b': shared}", `{}`, `{"a": [1], "b": [1]}`)
}

func TestAsyncioImportsAreStillRefusedInTheSandbox(t *testing.T) {
	e := newSandboxEngine(t)
	for _, name := range []string{"socket", "selectors", "subprocess", "signal"} {
		mustValue(t, e, "try:\n    import "+name+"\nexcept ImportError as e:\n    result = str(e).partition(':')[0]", `{}`,
			`"module '`+name+`' is not available in the sandbox"`)
	}
	resp, err := e.Execute(context.Background(), host.Request{Source: "import asyncio\nresult = asyncio.run(asyncio.sleep(0, 'ok'))"})
	if err != nil || string(resp.Value) != `"ok"` {
		t.Fatalf("%v %s", err, errorOf(resp))
	}
}

func testAsyncLoopKeepsRunningWhileToolsArePending(t *testing.T, m isolationMode) {
	// A pending tool call parks its task, not the loop: a timer fires, and
	// wait_for's timeout cuts a slow call short (the host cancels it at the end).
	const source = `import asyncio
order = []
async def tick():
    await asyncio.sleep(0.01)
    order.append('tick')
async def slow():
    order.append(await sleep(ms=2000, value='slow'))
async def main():
    await asyncio.gather(tick(), slow())
    try:
        await asyncio.wait_for(sleep(ms=60000), timeout=0.05)
    except TimeoutError:
        order.append('timed out')
    return order
result = asyncio.run(main())`
	e := m.engine(t)
	resp := mustValue(t, e, source, `{}`, `["tick", "slow", "timed out"]`)
	if len(resp.Calls) != 2 || !strings.Contains(resp.Calls[1].Error, "canceled") {
		t.Fatalf("calls %+v: want the abandoned sleep cancelled", resp.Calls)
	}
}

func testAsyncCallsCountAgainstTheToolCallLimit(t *testing.T, m isolationMode) {
	// Calls started from async code are real calls: the third of a limit of
	// two stops the program, as a sync call would.
	const source = "import asyncio\nresult = await asyncio.gather(*[lookup(key=k) for k in range(3)])"
	e := m.engine(t, host.WithLimits(host.Limits{ToolCalls: 2}))
	resp, err := run(t, e, source, `{}`)
	if !errors.Is(err, host.ErrLimit) || resp == nil || resp.Status != host.StatusLimit {
		t.Fatalf("err %v, response %+v: want the tool-call limit", err, resp)
	}
	mustValue(t, e, "result = await lookup(key=1)", `{}`, `7`)
}
