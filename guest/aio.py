"""Async programs: tool calls that are awaitable, and the event loop they run on.

The rule (ASYNC_RATIONALE.md): a tool called from async code (an `async def`
body, an async generator, or the top level of a program that uses top-level
`await`; a comprehension or generator expression counts as the code that
runs it) starts on a host worker at once and returns a coroutine that
delivers its value at `await`. Called anywhere else it returns the value.

This module never imports asyncio at load time: the zygote loads the guest
modules before it pre-imports asyncio, and a plain program should not pay
for it.
"""
import _thread
import json
import sys

CO_ASYNC = 0x80 | 0x200  # CO_COROUTINE | CO_ASYNC_GENERATOR
# Comprehensions and generator expressions run in frames of their own; they
# count as the code that runs them.
_INLINE_CODE = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
# The longest the event loop blocks in one wait. The host interrupts a program
# (deadline, cancel, limit) with a trace function, which runs only between
# bytecodes: a loop asleep in epoll for longer would see it only when the host
# kills the process (sandbox) or never in time (in process).
WAIT_SLICE = 0.1
# The execution running now on this thread (`current`, a counter; None
# between executions): a loop reports through asyncio's exception handler
# only during the execution that made it. A task destroyed later by the
# collector (an interrupted program's loop) must not write into the host's
# stderr or another execution's. Per thread: in process, executions on
# other threads overlap with this one.
_executions = 0
_here = _thread._local()


def _loops():
    """The event loops made during this thread's execution (see Calls.finish)."""
    loops = getattr(_here, "loops", None)
    if loops is None:
        loops = _here.loops = []
    return loops


def _asyncio():
    """asyncio if it is imported, else None. Not while another thread's
    import of it is still under way (in process, executions overlap): the
    half-made module lacks what this module reaches for."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None or getattr(getattr(asyncio, "__spec__", None), "_initializing", False):
        return None
    return asyncio


def in_async_code(frame):
    """True when `frame`, seen through comprehension frames, runs async code."""
    while frame is not None and frame.f_code.co_name in _INLINE_CODE:
        frame = frame.f_back
    return frame is not None and bool(frame.f_code.co_flags & CO_ASYNC)


class Calls:
    """The awaitable tool calls of one execution.

    `start` issues the prepare (`now`) when the program calls the tool, so
    calls made one after another (a list comprehension handed to gather,
    tasks created in a loop) all run at once on the host. The coroutine it
    returns, on an event loop of ours, parks on a future that the loop's
    selector completes when the host says the call is done (`wait`): the
    loop keeps running timers and other tasks meanwhile. Without such a loop
    (a coroutine driven by hand, a loop made some other way) it resolves
    the handle at once, blocking until the call is done. The coroutines are
    held until the execution ends (at most one per allowed tool call), so
    the ones never awaited are found then.
    """

    def __init__(self, prepare, resolve, decode, wait):
        self._prepare = prepare
        self._resolve = resolve
        self._decode = decode
        self.wait = wait
        self._started = []

    def begin(self):
        """A new execution starts: its loops may report."""
        global _executions
        _executions += 1
        _here.current = _executions

    def start(self, name, request, request_now, handle=None):
        """Start the call (unless `handle` is one already started for it)."""
        if handle is None:
            handle = self._prepare(request_now)
        awaiting = self._await(handle, request)
        awaiting.__name__ = awaiting.__qualname__ = name
        self._started.append(awaiting)
        return awaiting

    async def _await(self, handle, request):
        selector = _our_selector()
        if handle == 0 or selector is None:
            return self.collect(handle, request)
        future = selector.loop.create_future()
        selector.park(self, handle, request, future)
        try:
            return await future
        finally:
            # Done, or cancelled (the host cancels the call when the execution ends).
            selector.pending.pop(handle, None)

    def collect(self, handle, request):
        """The call's value, or its error raised: blocks until it is done."""
        return self._decode(self._resolve(handle, request))

    def finish(self, stderr):
        """Close the tasks left pending; report and close the coroutines never awaited.

        Their calls ran anyway: started when called, cancelled by the host if
        still running when the execution ends. Closing them here keeps
        CPython's own warning from firing later, outside this execution's
        captured stderr.
        """
        _close_abandoned_tasks()
        for awaiting in self._started:
            if awaiting.cr_frame is not None and not awaiting.cr_running and not awaiting.cr_suspended:
                stderr.write(f"RuntimeWarning: coroutine {awaiting.__name__!r} was never awaited\n")
                awaiting.close()
        self._started.clear()
        _here.current = None


def _close_abandoned_tasks():
    """Close the coroutines of the tasks still pending on this execution's loops.

    An interrupted program leaves such tasks (asyncio.run cannot wait for a
    task that ignores its cancellation). Left to the garbage collector, the
    coroutine would be closed at some later moment: in the shared in-process
    interpreter that is during another execution or between its end and the
    next, when this execution's interrupt no longer stands, and a coroutine
    that catches every error around an `await` then spins for good (with no
    running loop its awaits raise at once). Closed here, its code runs while
    this execution's deadline still stops it.
    """
    loops = getattr(_here, "loops", None)
    if not loops:
        return  # no loop was made during this execution: nothing can be pending
    _here.loops = []
    asyncio = _asyncio()
    for loop in loops if asyncio is not None else ():
        for task in asyncio.all_tasks(loop):
            try:
                task.get_coro().close()
            except BaseException:  # the interrupt, or the program refusing to close: it is over either way
                pass


def _our_selector():
    """The selector of the running event loop if it is one of ours, else None."""
    asyncio = _asyncio()
    loop = asyncio.events._get_running_loop() if asyncio is not None else None
    selector = getattr(loop, "_selector", None)
    return selector if getattr(selector, "spine_pending", False) else None


def install_loop_policy():
    """Make every event loop asyncio creates from now on wait in slices.

    Idempotent; a no-op until the program (or the zygote) imported asyncio.
    """
    asyncio = _asyncio()
    if asyncio is None or isinstance(asyncio.get_event_loop_policy(), _policy_class(asyncio)):
        return
    asyncio.set_event_loop_policy(_policy_class(asyncio)())


_classes = {}


def _policy_class(asyncio):
    cls = _classes.get(id(asyncio))
    if cls is not None:
        return cls
    # asyncio's own reference: in the sandbox `selectors` is refused to programs.
    selectors = asyncio.selector_events.selectors

    class SlicedSelector(selectors.DefaultSelector):
        """The default selector, waiting at most WAIT_SLICE at a time, in the
        host while tool calls are pending (so their completion wakes it)."""

        spine_pending = True

        def __init__(self):
            super().__init__()
            self.loop = None
            self.pending = {}  # handle -> (Calls, request, future)

        def park(self, calls, handle, request, future):
            self.pending[handle] = (calls, request, future)

        def select(self, timeout=None):
            if timeout is None or timeout > WAIT_SLICE:
                timeout = WAIT_SLICE
            if not self.pending:
                return super().select(timeout)
            events = super().select(0)
            calls = next(iter(self.pending.values()))[0]
            answer = calls.wait(json.dumps({"handles": list(self.pending),
                                            "ms": 0 if events else timeout * 1000}))
            for handle in json.loads(answer).get("done", ()):
                entry = self.pending.pop(handle, None)
                if entry is None:
                    continue
                calls, request, future = entry
                try:
                    value = calls.collect(handle, request)
                except Exception as error:  # the tool's error, raised at its await
                    if not future.done():
                        future.set_exception(error)
                else:
                    if not future.done():
                        future.set_result(value)
            return events

    class SlicedPolicy(asyncio.DefaultEventLoopPolicy):
        """New loops are selector loops over a SlicedSelector."""

        def new_event_loop(self):
            selector = SlicedSelector()
            loop = selector.loop = asyncio.SelectorEventLoop(selector)
            made_in = getattr(_here, "current", None)
            _loops().append(loop)
            loop.set_exception_handler(
                lambda loop, context: loop.default_exception_handler(context)
                if getattr(_here, "current", None) == made_in else None)
            return loop

    _classes[id(asyncio)] = SlicedPolicy
    return SlicedPolicy
