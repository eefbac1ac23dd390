"""Execution convention: inputs in, result out; optional whole-program PLM.

The C runtime loads this module once per process and caches `execute` and
`take_output`. `execute(request)` runs one program and returns UTF-8 JSON:
`{"value": result, "transformed": str}` or `{"error": "Type: message",
"transformed": str, ...}`. The program's stdout and stderr never enter that
JSON: they are captured per execution and handed over by `take_output()`.
"""
import _thread
import ast
import binascii
import builtins
import json
import marshal
import sys

import _spine
import aio
import protocol
from _spine import Interrupt, call, prepare, program_loop, resolve, wait
from early import arguments as early_arguments
from prefix import Pool
from protocol import encode_call_now, encode_request

# The tools' signatures are inspect's. A sandboxed program may not import
# inspect (it reaches frames; the zygote's import blocker refuses it), so
# bootstrap keeps its own reference and leaves sys.modules as it found it:
# the program's `import inspect` still meets the blocker.
_HAD_INSPECT = "inspect" in sys.modules
import inspect  # noqa: E402
if not _HAD_INSPECT:
    del sys.modules["inspect"]

# Prefix state of the streams being received (prefix_begin .. the final
# execute or prefix_abort), keyed by the host's stream id: one interpreter may
# serve several streams at once, so the seed's single global would let one
# stream claim another's calls. Only the prefix execution that finishes a
# stream may claim from it (its _Execution's `claims`).
_streams = {}
_STREAM_LIMIT = 64


class _Execution:
    """What one running execution owns in the shared interpreter.

    In process, executions overlap (each on a thread of its own, taking
    turns on the GIL while they wait in tools), so nothing of one may live
    in a module global: it lives here, found through the running thread.
    """

    __slots__ = ("claims", "warmed", "calls", "stdout", "stderr", "recursion", "repeatable")

    def __init__(self, claims, stdout, stderr, recursion):
        self.claims = claims  # the stream it finishes, or None
        # Calls PLM warmed (warm_call): prepared by request, claimed by the
        # first call that makes exactly that request. Made by the first
        # warm_call: most executions warm nothing.
        self.warmed = None
        self.calls = aio.Calls(prepare, resolve, decode, wait)
        self.stdout = stdout
        self.stderr = stderr
        self.recursion = recursion
        self.repeatable = None  # its determinism.Sources while it keeps a journal


# This thread's execution (`execution`) and the output of its last one
# (`output`, for take_output). A thread the program started has none and
# serves the newest running execution (in the sandbox, the only one).
_here = _thread._local()
_running = []
# In process, executions begin and end on several threads at once: the
# list and the recursion limit it gives change together, under this lock.
_running_lock = _thread.allocate_lock()


def _execution():
    execution = getattr(_here, "execution", None)
    if execution is None:
        newest = _running[-1:]  # one step: another thread may empty the list meanwhile
        return newest[0] if newest else None
    return execution


def _claim(request):
    """A handle started early for exactly `request`: streamed, else warmed."""
    execution = _execution()
    if execution is None:
        return None
    handle = execution.claims.claim(request) if execution.claims is not None else None
    if handle is None and execution.warmed is not None:
        handle = execution.warmed.claim(request)
    return handle


def _serving_the_starter(start_new_thread):
    """`_thread.start_new_thread`, with the new thread serving the execution
    of the thread that starts it (its output, calls and claims), not the
    newest one: in process, executions overlap. Once that execution is over
    the thread's output goes nowhere and its tool calls fail."""
    def start(function, args, kwargs=None):
        execution, token = _execution(), _spine.current()

        def serve(*args, **kwargs):
            _here.execution = execution
            _spine.adopt(token)
            return function(*args, **kwargs)
        return start_new_thread(serve, args, kwargs or {})
    start.__doc__ = start_new_thread.__doc__
    return start


_thread.start_new_thread = _thread.start_new = _serving_the_starter(_thread.start_new_thread)
if "threading" in sys.modules:
    sys.modules["threading"]._start_new_thread = _thread.start_new_thread

def _help(obj=None):
    """help(tool): the tool's signature and docstring, as Engine.Stubs renders
    them. The embedded interpreter has no site module, so no pydoc help: this
    one prints what inspect sees, to the program's stdout."""
    if obj is None:
        sys.stdout.write("help(f) shows the signature and docstring of f; every tool is such a function.\n")
        return
    name = getattr(obj, "__name__", type(obj).__name__)
    try:
        shown = str(inspect.signature(obj))
    except (TypeError, ValueError):
        shown = ""
    doc = inspect.getdoc(obj) or ""
    body = "".join("    " + line + "\n" if line else "\n" for line in doc.splitlines())
    sys.stdout.write(f"Help on {name}:\n\n{name}{shown}\n{body}")


_BUILTINS = dict(builtins.__dict__)
_BUILTINS.setdefault("help", _help)
_CODE_CACHE = {}
_CODE_CACHE_LIMIT = 256
_DEFAULT_LIMITS = protocol.DEFAULT_LIMITS


class LimitExceeded(Exception):
    """A limit of the execution (result size or depth) was exceeded."""


# --- Tool calls --------------------------------------------------------------

def _text(data):
    """The host's UTF-8 bytes as text, without json's encoding detection
    (the host writes UTF-8 only): on the path of every call."""
    if isinstance(data, (bytes, bytearray)):
        return data.decode("utf-8", "surrogatepass")
    return data


def _loads(data):
    """json.loads of the host's bytes (_text)."""
    return _json(_text(data))


_DECODER = json.JSONDecoder()
_scan = _DECODER.scan_once


def _json(text):
    """json.loads(text), by the decoder's scanner alone when the value spans
    the whole text (the host writes no space around it): json.loads' type
    checks, whitespace matches and Python layers cost more than decoding a
    small request or tool response. Any other text goes to json.loads,
    which reads it the same way and says what is wrong."""
    try:
        value, end = _scan(text, 0)
    except (StopIteration, ValueError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def decode(response):
    """Turn a host response into the tool's value, or raise its error here.

    The error is the builtin its "type" names when that is one of
    protocol.TOOL_EXCEPTIONS, and RuntimeError otherwise (_tool_error).
    """
    response = _loads(response)
    if "error" in response:
        raise _tool_error(response)
    return response["value"]




# The exception classes a tool's error may raise, by name, looked up once:
# only these, so a response can never make the program raise anything else,
# and a program that rebinds a builtin cannot change what a tool raises.
_TOOL_EXCEPTIONS = {name: getattr(builtins, name) for name in protocol.TOOL_EXCEPTIONS}
_CALL_ATTRIBUTE = "_spine_call"


def _tool_error(response):
    """The exception a tool's error raises: its type (RuntimeError unless the
    host names another allowed one) and, when the host keeps the tool's Go
    error, its id, reported back if the exception ends the program."""
    exception = _TOOL_EXCEPTIONS.get(response.get("type"), RuntimeError)
    error = exception(response["error"])
    call = response.get("call")
    if type(call) is int and call > 0:
        setattr(error, _CALL_ATTRIBUTE, call)
    return error


def invoke_tool(name, args):
    request = encode_request(name, args)
    handle = _claim(request)
    return decode(call(request) if handle is None else resolve(handle, request))


def start_tool_call(name, args):
    """Start a call from async code; return the coroutine that awaits it.

    Argument errors raise here, at the call; the tool's own error at `await`.
    """
    request = encode_request(name, args)
    execution = _execution()
    handle = _claim(request)
    return execution.calls.start(name, request, encode_call_now(name, args), handle)


def make_tool(name, description=None, signature=None):
    """A keyword-only proxy named after the tool; the program sees a function.

    Called from async code it returns an awaitable; elsewhere the value.
    `signature` is the one the host renders for prompts (Engine.Stubs):
    help(tool) and inspect.signature(tool) show it, and its docstring.
    """
    shown = _signature(signature) if signature else None
    doc = (signature.get("doc") or description) if shown is not None else description
    return _proxy(name, doc, shown)


def _proxy(name, doc, shown):
    def proxy(**args):
        if aio.in_async_code(sys._getframe(1)):
            return start_tool_call(name, args)
        return invoke_tool(name, args)
    proxy.__name__ = proxy.__qualname__ = name
    proxy.__doc__ = doc
    if shown is not None:
        proxy.__signature__ = shown
    return proxy


_TOOL_SHAPES = {}


def _tools(manifest, key=None):
    """A fresh proxy per tool of the manifest (each execution its own
    function objects), from (name, doc, signature) worked out once per
    manifest: the host sends the same one with every request, named by
    `key` (its digest; without one, its repr)."""
    key = key or repr(manifest)
    shapes = _TOOL_SHAPES.get(key)
    if shapes is None:
        shapes = []
        for spec in manifest:
            tool = make_tool(spec["name"], spec.get("description"), spec.get("signature"))
            shapes.append((spec["name"], tool.__doc__, getattr(tool, "__signature__", None)))
        if len(_TOOL_SHAPES) >= _SIGNATURES_LIMIT:
            _TOOL_SHAPES.pop(next(iter(_TOOL_SHAPES)), None)
        _TOOL_SHAPES[key] = shapes
    return {name: _proxy(name, doc, shown) for name, doc, shown in shapes}


class _Shown:
    """An annotation or default that inspect shows as the host's text."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


_SIGNATURES = {}
_SIGNATURES_LIMIT = 1024


def _signature(spec):
    """The inspect.Signature of a manifest's signature entry (None when the
    entry is malformed: the tool then shows (**args), as it works)."""
    key = repr(spec)  # the host renders each spec the same way every time: no need to sort
    cached = _SIGNATURES.get(key)
    if cached is not None:
        return cached
    try:
        Parameter = inspect.Parameter
        params = [Parameter(p["name"], Parameter.KEYWORD_ONLY, annotation=_Shown(str(p["type"])),
                            default=_Shown(str(p["default"])) if p.get("default") else Parameter.empty)
                  for p in spec.get("params") or ()]
        if spec.get("kwargs"):
            params.append(Parameter("kwargs", Parameter.VAR_KEYWORD, annotation=_Shown("Any")))
        shown = inspect.Signature(params, return_annotation=_Shown(str(spec.get("returns", "Any"))))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if len(_SIGNATURES) >= _SIGNATURES_LIMIT:
        _SIGNATURES.pop(next(iter(_SIGNATURES)), None)
    _SIGNATURES[key] = shown
    return shown


def _early_request(name, payload, names):
    """The canonical request of an early call, or None (see prepare_call)."""
    try:
        args = early_arguments(payload, names())
        if args is None:
            return None
        return encode_request(name, args)
    except Interrupt:
        raise
    except BaseException:  # noqa: B036 - see prepare_call
        return None


def prepare_call(name, payload, names):
    """Start a call of tool `name` early; 0 means nothing was prepared.

    `payload` is the text of the call's keyword arguments as a dict display,
    `names()` the values of the names it reads. The arguments are computed by
    early evaluation (early.py), which runs none of the program's code and
    refuses what is not plain data. Whatever goes wrong here, including a
    BaseException such as SystemExit, means only that nothing starts early:
    the call site evaluates its arguments again and raises there, as the
    plain program does. The host's Interrupt is the one exception that
    passes: it stops the program wherever it is.
    """
    request = _early_request(name, payload, names)
    if request is None:
        return 0
    handle = _claim(request)
    return prepare(request) if handle is None else handle


def warm_call(name, payload, names):
    """prepare_call for a call no handle can reach (in a function or a
    lambda of the program): the call starts now, and the first call of the
    program that makes exactly this request claims it. Returns 0."""
    request = _early_request(name, payload, names)
    execution = _execution()
    if request is None or execution is None:
        return 0
    claims = execution.claims
    handle = claims.claim(request) if claims is not None else None
    if handle is None:
        handle = prepare(request)
    if handle:
        if execution.warmed is None:
            execution.warmed = Pool()
        execution.warmed.add(request, handle)
    return 0


def resolve_call(handle, name, /, **args):
    return decode(resolve(handle, encode_request(name, args)))


# --- Prefix streaming --------------------------------------------------------

def prefix_begin(request):
    """Start receiving a streamed program; replaces an earlier stream of the same id.

    request: {"stream": id, "inputs": ..., "manifest": [...], "budget": {...}}.
    "budget" (optional) bounds the analysis: "statement_steps", "statement_ms"
    and "stream_ms" (see prefix.Budget); the host sets them from the
    execution's limits, and a missing field takes prefix's default.
    """
    from prefix import Prefix
    request = json.loads(request)
    stream = request.get("stream", "")
    _streams.pop(stream, None)
    while len(_streams) >= _STREAM_LIMIT:
        # The host aborts streams it abandons; this bounds a host that does not.
        _streams.pop(next(iter(_streams)))
    _streams[stream] = Prefix(request.get("inputs", {}), request.get("manifest", []), prepare,
                              budget=request.get("budget"))


def prefix_feed(request):
    """Feed one chunk: {"stream": id, "chunk": text}. Never runs user code."""
    request = json.loads(request)
    state = _streams.get(request.get("stream", ""))
    if state is None:
        raise RuntimeError("prefix_feed without prefix_begin")
    state.feed(request["chunk"])


def prefix_abort(stream=""):
    """Drop a stream's state; the host cancels what it prepared."""
    _streams.pop(stream, None)


# --- Output capture ----------------------------------------------------------

class _Capture:
    """A text stream that keeps at most `limit` UTF-8 bytes and notes the rest.

    With `live` (protocol.OUTPUT_STDOUT or OUTPUT_STDERR) it also hands the
    host what it keeps as it is written, line by line (a line ends, 8 KiB
    are pending, or the program flushes): the host forwards it to the
    caller's writer and, when the program ends, the rest it did not get.
    """

    encoding = "utf-8"
    errors = "backslashreplace"
    _LIVE_CHUNK = 8192

    def __init__(self, limit, live=None):
        self._data = bytearray()
        self._limit = limit
        self.truncated = False
        self._buffer = None
        self._live = live
        self._sent = 0

    @property
    def buffer(self):
        """`sys.stdout.buffer`, made when a program first asks for it: it
        refers back to this capture, and a cycle made with every execution
        would leave each execution's captures to the cyclic collector."""
        if self._buffer is None:
            self._buffer = _BinaryCapture(self)
        return self._buffer

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._append(text.encode("utf-8", "backslashreplace"))
        return len(text)

    def _append(self, data):
        room = self._limit - len(self._data)
        if len(data) <= room:
            self._data += data
        else:
            self.truncated = True
            if room > 0:
                # Cut at a character boundary so the kept part stays valid UTF-8.
                self._data += data[:room].decode("utf-8", "ignore").encode("utf-8")
                self._limit = len(self._data)
        if self._live is not None and (b"\n" in data or len(self._data) - self._sent >= self._LIVE_CHUNK):
            self._send()

    def _send(self):
        """Hand the host what it has not had yet (live output only)."""
        if self._live is None or self._sent >= len(self._data):
            return
        chunk = bytes(self._data[self._sent:])
        self._sent = len(self._data)
        _spine.output(self._live, chunk)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        self._send()

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    def getvalue(self):
        return bytes(self._data)


class _BinaryCapture:
    """`sys.stdout.buffer` for programs that write bytes."""

    def __init__(self, text):
        self._text = text

    def write(self, data):
        data = bytes(data)
        self._text._append(data)
        return len(data)

    def flush(self):
        self._text._send()


class _Route:
    """sys.stdout or sys.stderr: writes go to the capture of the execution
    the writing thread runs (sys.stdout is one for the process, and in
    process executions overlap), else to the stream it replaced."""

    def __init__(self, name, outside):
        self._name = name
        self._outside = outside

    def _target(self):
        execution = _execution()
        return getattr(execution, self._name) if execution is not None else self._outside

    def write(self, text):
        return self._target().write(text)

    def __getattr__(self, name):
        return getattr(self._target(), name)


_routes = None


def _route_output():
    """Install the routes once; put them back if a program replaced them."""
    global _routes
    if _routes is None:
        _routes = (_Route("stdout", sys.stdout), _Route("stderr", sys.stderr))
    sys.stdout, sys.stderr = _routes


def take_output():
    """(stdout, stderr) bytes of this thread's last execution; read once by the runtime."""
    output = getattr(_here, "output", (b"", b""))
    _here.output = (b"", b"")
    return output


def _begin_running(execution):
    with _running_lock:
        _running.append(execution)
        _set_recursion_limit()


def _end_running(execution):
    with _running_lock:
        _running.remove(execution)
        _set_recursion_limit()


def _set_recursion_limit():
    """The interpreter's recursion limit (one for all threads in CPython
    3.11) is the highest any running execution asked for: an overlapping
    execution never fails a recursion its own limit allows. Set only when
    it changes (setting it visits every thread state). Called with
    _running_lock held: an execution ending on another thread between a
    look at the list and the walk over it would leave max() nothing."""
    limit = max((e.recursion for e in _running), default=_IDLE_RECURSION)
    if sys.getrecursionlimit() != limit:
        sys.setrecursionlimit(limit)


_IDLE_RECURSION = protocol.DEFAULT_LIMITS["recursion"] + 50


# --- Result encoding ---------------------------------------------------------

_KEY_TYPES = (str, int, float, bool, type(None))
_encode_value = protocol.one_shot(json.JSONEncoder(ensure_ascii=False, allow_nan=False))


def _where(path):
    return "result" + "".join(f"[{p!r}]" for p in path)


_LEAVE = object()  # a stack entry that ends the visit of a container


def _check_result(value, max_bytes, max_depth):
    """Walk the result once, before anything is encoded.

    Names the first value JSON cannot carry (with its path), refuses NaN and
    infinities, a container inside itself (a reference cycle; a container
    shared by two branches is fine), nesting deeper than `max_depth`, and a
    result whose encoding is certainly larger than `max_bytes`: the size
    counted here is a lower bound of the encoded size, so nothing huge is
    ever allocated.
    """
    size = 0
    stack = [(value, 0, ())]
    open_paths = {}  # id -> path of the containers being visited (the current branch)
    while stack:
        item, depth, path = stack.pop()
        if item is _LEAVE:
            del open_paths[depth]
            continue
        kind = type(item)
        if (kind is list or kind is tuple or kind is dict) and id(item) in open_paths:
            raise ValueError(f"result contains a reference cycle: {_where(path)} is "
                             f"{_where(open_paths[id(item)])}")
        if depth > max_depth:
            raise LimitExceeded(f"result nesting exceeds the depth limit of {max_depth} at {_where(path)}")
        if kind is str:
            size += len(item) + 2
        elif kind is bool or item is None:
            size += 4
        elif kind is int:
            size += item.bit_length() * 3 // 10 + 1
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                raise ValueError(f"result is not JSON-serializable: float {item!r} at {_where(path)}")
            size += 3
        elif kind is list or kind is tuple:
            size += len(item) + 1
            open_paths[id(item)] = path
            stack.append((_LEAVE, id(item), None))
            for index in range(len(item) - 1, -1, -1):
                stack.append((item[index], depth + 1, path + (index,)))
        elif kind is dict:
            size += 2 * len(item) + 1
            open_paths[id(item)] = path
            stack.append((_LEAVE, id(item), None))
            for key, child in item.items():
                if not isinstance(key, _KEY_TYPES):
                    raise TypeError(
                        f"result is not JSON-serializable: dict key of type {type(key).__name__} at {_where(path)}")
                size += len(str(key)) + 2
                stack.append((child, depth + 1, path + (key,)))
        else:
            # Anything else, subclasses of JSON types included (they may
            # override what encoding sees).
            raise TypeError(f"result is not JSON-serializable: {kind.__name__} at {_where(path)}")
        if size > max_bytes:
            raise LimitExceeded(f"result exceeds the size limit of {max_bytes} bytes")


# The types of a flat result's members (_plainly_fine): no float, whose
# NaN and infinities _check_result names.
_FLAT_MEMBERS = frozenset((str, int, bool, type(None)))
_FLAT_MEMBERS_MAX = 16


def _plainly_fine(value, max_bytes, max_depth):
    """True for a result _check_result certainly accepts, seen at a glance:
    a scalar or a small dict (str keys) or list of scalars whose encoding
    cannot exceed max_bytes (each character counted as its longest escape).
    Most results are; they skip the walk. Anything else (False) takes the
    walk, which names what is wrong."""
    kind = type(value)
    if kind in _FLAT_MEMBERS:
        return _flat_bound(value) <= max_bytes
    if max_depth < 1 or (kind is not dict and kind is not list) or len(value) > _FLAT_MEMBERS_MAX:
        return False
    size = 2
    if kind is dict:
        for key in value:
            if type(key) is not str:
                return False
            size += 6 * len(key) + 6  # quotes, ": " and ", "
        value = value.values()
    for member in value:
        if type(member) not in _FLAT_MEMBERS:
            return False
        size += _flat_bound(member) + 2
    return size <= max_bytes


def _flat_bound(scalar):
    """The most bytes a scalar of _FLAT_MEMBERS encodes to (a large int: more
    than the limit, so that the walk judges it)."""
    kind = type(scalar)
    if kind is str:
        return 6 * len(scalar) + 2
    if kind is int and scalar.bit_length() > 64:
        return 1 << 62
    return 20


def _encode_result(value, max_bytes, max_depth):
    if not _plainly_fine(value, max_bytes, max_depth):
        _check_result(value, max_bytes, max_depth)
    text = _encode_value(value)
    # The limit is in bytes of the response, which the host measures: a
    # character takes 1 to 4 bytes of UTF-8, or 6 for a lone surrogate's
    # escape (see execute); count exactly only when it can matter.
    if len(text) > max_bytes or (len(text) * 6 > max_bytes and
                                 len(text.encode("utf-8", "backslashreplace")) > max_bytes):
        raise LimitExceeded(f"result exceeds the size limit of {max_bytes} bytes")
    return text


# --- Errors ------------------------------------------------------------------

def _user_line(error):
    """The program's line where `error` was raised (0 if it never ran there)."""
    if isinstance(error, SyntaxError) and error.filename == protocol.PROGRAM_FILENAME:
        return error.lineno or 0
    line = 0
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == protocol.PROGRAM_FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _user_traceback(error, source, name=protocol.PROGRAM_FILENAME):
    """The program's frames only: bootstrap's own frames are not the user's business.

    The program's code is always compiled as PROGRAM_FILENAME (the runtime
    finds the program's frames by it, to deliver interrupts only there);
    `name`, the request's name for the program, is what the user reads."""
    lines = source.splitlines()
    frames = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == protocol.PROGRAM_FILENAME:
            number = tb.tb_lineno
            text = lines[number - 1].strip() if 0 < number <= len(lines) else ""
            frames.append(f'  File "{name}", line {number}, in {code.co_name}\n    {text}')
        tb = tb.tb_next
    if not frames:
        return ""
    # The most recent frames say most; a deep recursion's are many.
    return _clip("Traceback (most recent call last):\n" + "\n".join(frames), protocol.TRACEBACK_CHARS, keep_tail=True)


def _message(error):
    if isinstance(error, SyntaxError) and error.filename == protocol.PROGRAM_FILENAME:
        # The line goes in the envelope's own field, not in the message.
        return _clip(f"{type(error).__name__}: {error.msg}", protocol.MESSAGE_CHARS)
    text = str(error)
    return _clip(f"{type(error).__name__}: {text}" if text else type(error).__name__, protocol.MESSAGE_CHARS)


def _clip(text, limit, keep_tail=False):
    """At most `limit` characters of text, saying what was cut."""
    if len(text) <= limit:
        return text
    if keep_tail:
        return "... (clipped)\n" + text[-limit:]
    return text[:limit] + " ... (clipped)"


# --- Compilation -------------------------------------------------------------

def _compile(source, manifest, plm, fanout, native=False):
    """Code object, PLM helpers, transformed text and the hot-function plan
    (None unless native), cached by source, manifest and mode."""
    if plm or native:
        key = (source, bool(plm), fanout, native,
               tuple((spec["name"], bool(spec.get("speculative")), str(spec.get("reads")), str(spec.get("writes")))
                     for spec in manifest))
    else:
        key = source
    cached = _CODE_CACHE.get(key)
    if cached is not None:
        return cached
    transformed, helpers, plan = "", (), None
    tree = source
    if plm:
        from plm import transform
        tree, helpers = transform(source, manifest, fanout=fanout)
        if helpers:
            transformed = _clip(ast.unparse(tree), protocol.TRANSFORMED_CHARS)
    if native:
        import hot
        parsed = ast.parse(source) if isinstance(tree, str) else None
        plan = hot.plan(source, {spec["name"] for spec in manifest}, parsed)
        tree = hot.decorate(parsed or tree, plan)
    entry = (compile(tree, protocol.PROGRAM_FILENAME, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT),
             helpers, transformed, plan)
    if len(_CODE_CACHE) >= _CODE_CACHE_LIMIT:
        _CODE_CACHE.pop(next(iter(_CODE_CACHE)), None)
    _CODE_CACHE[key] = entry
    return entry


def _compiled(request, source, manifest, limits, native):
    """What _compile gives, and whether this guest made it: from the host's
    Compiled when it sent one this Python can read (the program was
    compiled once, by Engine.Compile, or, in native mode, planned by a
    fresh child whose plan the host kept), so no guest parses, plans or
    transforms it again."""
    compiled = request.get("compiled")
    if compiled is not None and compiled.get("python") == sys.version:
        kept = _kept(compiled, native)
        if kept is not None:
            return kept, False
    return _compile(source, manifest, request.get("plm"), limits["fanout"], bool(native)), True


_CODE_TYPE = type(_compile.__code__)


def _kept(compiled, native):
    """The host's Compiled as _compile's entry, or None (then the guest
    compiles the source): a plan comes with native code only, and one the
    guest cannot read is not used."""
    shape = compiled.get("plan")
    if bool(native) != (shape is not None):
        return None
    try:
        code = marshal.loads(binascii.a2b_base64(compiled["code"]))
        if type(code) is not _CODE_TYPE:
            return None
        plan = None
        if shape is not None:
            import hot
            plan = hot.Plan.read(shape)
        return code, tuple(compiled["helpers"]), compiled["transformed"], plan
    except (KeyError, TypeError, ValueError, EOFError, binascii.Error):
        return None


def _compiled_form(code, helpers, transformed, plan=None):
    """A Compiled (protocol.Compiled) of what this guest made."""
    compiled = {"code": binascii.b2a_base64(marshal.dumps(code), newline=False).decode("ascii"),
                "helpers": list(helpers), "transformed": transformed, "python": sys.version}
    if plan is not None:
        compiled["plan"] = plan.shape()
    return compiled


def _compile_only_response(code, helpers, transformed):
    compiled = _compiled_form(code, helpers, transformed)
    return ('{"value":%s,"transformed":%s}' % (json.dumps(compiled), json.dumps(transformed))).encode("utf-8")


# --- The entry point ---------------------------------------------------------

# The manifests read so far, by the host's key: (their text, the manifest).
# The host sends the same manifest with every request, first (see
# _load_request); parsing it again was the largest cost of a small
# execution's request.
_MANIFESTS = {}
_MANIFESTS_LIMIT = 64
_KEYED = '{"manifest_key":"'
_MANIFEST_FIELD = '","manifest":'


def _load_request(data):
    """The request, parsed; its manifest taken from _MANIFESTS when the
    request opens with a key and a manifest text read before.

    The host writes `{"manifest_key":K,"manifest":M,` before the other
    fields. M is used from the cache only when its text is exactly the one
    parsed before under K, so a key never stands in for a manifest it does
    not name; a request in any other shape is parsed whole.
    """
    text = _text(data)
    if not text.startswith(_KEYED):
        return _json(text)
    key_end = text.find(_MANIFEST_FIELD, len(_KEYED))
    if key_end < 0:
        return json.loads(text)
    key = text[len(_KEYED):key_end]
    at = key_end + len(_MANIFEST_FIELD)
    cached = _MANIFESTS.get(key)
    if cached is not None and text.startswith(cached[0], at):
        manifest, end = cached[1], at + len(cached[0])
    else:
        manifest, end = _DECODER.raw_decode(text, at)
    if text[end:end + 1] not in (",", "}"):
        return json.loads(text)  # not the shape above: json says what is wrong
    request = _json("{" + text[end + 1:] if text[end] == "," else "{}")
    if not isinstance(request, dict):
        return request
    if cached is None or cached[1] is not manifest:
        if cached is not None:
            _TOOL_SHAPES.pop(key, None)  # worked out from the manifest the key named before
        if len(_MANIFESTS) >= _MANIFESTS_LIMIT:
            _MANIFESTS.pop(next(iter(_MANIFESTS)), None)
        _MANIFESTS[key] = (text[at:end], manifest)
    request["manifest_key"], request["manifest"] = key, manifest
    return request


def _read_request(request):
    """The request and, when it finishes a stream, the stream's state (its
    program put in the request).

    A request the guest cannot read is no outcome of the program, and none a
    guest may claim: it raises, and the runtime reports that the guest
    failed. The host wrote the request (or lost the stream it names), so the
    caller is never blamed for it.
    """
    try:
        request = _load_request(request)
    except ValueError as error:
        raise ValueError(f"malformed request: {error}") from None
    if not isinstance(request, dict):
        raise ValueError("malformed request: not a JSON object")
    if not request.get("prefix"):
        return request, None
    # The stream's state ends with this execution, success or failure.
    stream = _streams.pop(request.get("stream", ""), None)
    if stream is None:
        raise RuntimeError("prefix execution without prefix_begin")
    request = {**request, "source": stream.source, "inputs": stream.inputs,
               "manifest": stream.manifest, "plm": True}
    return request, stream


def execute(request):
    """Run one program; return the response JSON as UTF-8 bytes."""
    transformed = ""
    source = ""
    kind = protocol.OUTCOME_PROGRAM
    limits = _DEFAULT_LIMITS
    stdout = stderr = hot = execution = None
    request, stream = _read_request(request)
    try:
        if request.get("limits"):
            limits = {**_DEFAULT_LIMITS, **request["limits"]}
        source = request["source"]
        manifest = request.get("manifest", [])
        live = request.get("live") or ()
        stdout = _Capture(limits["stdout_bytes"], protocol.OUTPUT_STDOUT if "stdout" in live else None)
        stderr = _Capture(limits["stdout_bytes"], protocol.OUTPUT_STDERR if "stderr" in live else None)

        native = request.get("native")
        (code, helpers, transformed, plan), made = _compiled(request, source, manifest, limits, native)
        if request.get("compile_only"):
            return _compile_only_response(code, helpers, transformed)
        scope = _scope(request.get("session"))
        scope["inputs"] = request.get("inputs", {})
        scope.update(_tools(manifest, request.get("manifest_key")))
        if helpers:
            from plm import FAN_RUNTIME
            scope.update(zip(helpers, (prepare_call, resolve_call, warm_call, *FAN_RUNTIME)))
        if plan is not None:
            from hot import DECORATOR, Hot
            hot = Hot(plan, native, scope)
            scope[DECORATOR] = hot.decorate
            keep = bool(request.get(protocol.REQUEST_KEEP_PLAN))
            hot.start(always=keep, kept=_compiled_form(code, helpers, transformed, plan) if keep and made else None)

        execution = _here.execution = _Execution(stream, stdout, stderr, limits["recursion"] + 50)
        _begin_running(execution)
        _route_output()
        execution.repeatable = _repeatable(request.get("determinism"))
        try:
            execution.calls.begin()
            aio.install_loop_policy()
            if code.co_flags & aio.CO_ASYNC:
                _run_coroutine(eval(code, scope))
            else:
                exec(code, scope)
        finally:
            # A thread the program started that outlives it reads the real
            # sources from now on.
            execution.repeatable = None
            execution.calls.finish(stderr)
            _route_output()
        value = _encode_result(scope.get("result"), limits["result_bytes"], limits["result_depth"])
        response = '{"value":%s,"transformed":%s%s%s}' % (
            value, json.dumps(transformed) if transformed else '""', _output_flags(stdout, stderr), _native_field(hot))
    except BaseException as error:
        if isinstance(error, LimitExceeded):
            kind = protocol.OUTCOME_RESULT_LIMIT
        elif isinstance(error, Interrupt):
            kind = protocol.OUTCOME_INTERRUPT
        name = request.get("name") or protocol.PROGRAM_FILENAME
        line = _user_line(error)
        envelope = {"error": _message(error), "transformed": transformed, "kind": kind,
                    "line": line, "traceback": _user_traceback(error, source, name)}
        call = getattr(error, _CALL_ATTRIBUTE, None)
        if type(call) is int and call > 0:
            envelope["call"] = call
        response = (json.dumps(envelope, ensure_ascii=False)[:-1] + _output_flags(stdout, stderr) +
                    _native_field(hot) + "}")
        error.__traceback__ = None
    finally:
        if execution is not None:
            _here.execution = None
            _end_running(execution)
        _here.output = (stdout.getvalue() if stdout else b"", stderr.getvalue() if stderr else b"")
    # A lone surrogate (a str may hold one; UTF-8 cannot) can only stand in a
    # JSON string, where its backslash escape is the JSON escape: the
    # response stays valid UTF-8 JSON.
    return response.encode("utf-8", "backslashreplace")


# The namespaces of the sessions this interpreter serves, by the host's
# session id: a session's executions share theirs (variables, functions,
# imports). A sandboxed child serves one session; in process the host ends
# each with session_end.
_sessions = {}


def _scope(session):
    """The namespace an execution runs in: its session's, without the
    result of an earlier execution, or a fresh one."""
    if session is None:
        return {"__name__": "__main__", "__builtins__": _BUILTINS.copy()}
    scope = _sessions.get(session)
    if scope is None:
        scope = _sessions[session] = {"__name__": "__main__", "__builtins__": _BUILTINS.copy()}
    scope.pop("result", None)
    return scope


def session_end(session):
    """Drop a session's namespace (in process, when the session ends)."""
    _sessions.pop(session, None)


def _read_clock():
    """The wall-clock time (UnixNano) as the host records it for a journal."""
    return decode(call(encode_request(protocol.CLOCK_TOOL, {})))


def _repeatable(determinism):
    """The execution's repeatable clock and randomness when the request
    keeps a journal (determinism.py), or None."""
    if not determinism:
        return None
    import determinism as sources
    sources.install(_repeatable_sources)
    return sources.Sources(int(determinism["seed"]), _read_clock)


def _repeatable_sources():
    """The running thread's journaled execution's sources, or None (then
    the real ones): strictly this thread's own execution, so a thread that
    serves none never reads another's journal."""
    execution = getattr(_here, "execution", None)
    return None if execution is None else execution.repeatable


def _run_coroutine(program):
    """Run a program with top-level `await` to completion on a new event loop.

    While the loop runs, the program runs, even when none of its frames is
    on the stack (all its coroutines waiting): the host's interrupt must be
    raised then too.
    """
    import asyncio
    aio.install_loop_policy()
    try:
        # Inside the try: the interrupt may be raised as soon as the flag is
        # set, and the flag must not outlive the program.
        program_loop(True)
        asyncio.run(program)
    finally:
        program_loop(False)


def _native_field(hot):
    if hot is None:
        return ""
    report = hot.report()
    # Past its allowance the report is dropped whole (the host then records
    # that the guest sent none) rather than cut into invalid JSON.
    return ',"native":' + report if len(report) <= protocol.NATIVE_REPORT_BYTES else ""


def in_process_setup():
    """Once, when the in-process runtime starts (the zygote does the same for
    the sandbox with its preloads): import asyncio and install the loop
    policy whose selector waits on the host. A program that imports asyncio
    itself and calls asyncio.run must get that loop too, or its awaitable
    tool calls are resolved one by one, in the order awaited, and
    as_completed or wait(FIRST_COMPLETED) wait for the slowest."""
    import asyncio  # noqa: F401 (install_loop_policy acts only once it is imported)
    import gc

    aio.install_loop_policy()
    # What start-up made lives as long as the process: out of the collector's
    # reach, each full collection a program's allocations trigger walks only
    # the program's objects, as under a fresh python3 (the zygote freezes its
    # heap the same way; bench/RESULTS.md, "Guest interpreter in process").
    gc.collect()
    gc.freeze()


def native_setup(python_dir):
    """Once per process, before any execution: load the native module loader
    from the toolchain (the zygote does this before it forks)."""
    import hot
    hot.setup(python_dir)


def _output_flags(stdout, stderr):
    flags = ""
    if stdout is not None and stdout.truncated:
        flags += ',"stdout_truncated":true'
    if stderr is not None and stderr.truncated:
        flags += ',"stderr_truncated":true'
    return flags
