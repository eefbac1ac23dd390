"""pytest for guest/bootstrap.py on Debian's /usr/bin/python3.

`_spine` is the C module in production; here a small fake host stands in for
it (the real crossing is tested by the C and Go suites). Run from the repo:
    PYTHONPATH=guest:tests/programs /usr/bin/python3 -m pytest -q tests/guest
"""
import builtins
import json
import sys
import types

import pytest


class FakeHost:
    """Answers tool requests like the demo tools; records what it saw."""

    def __init__(self):
        self.requests = []
        self.prepared = {}
        self.now = []
        self.next_handle = 1

    def answer(self, request):
        req = json.loads(request)
        self.requests.append(req)
        args = req["args"]
        if req["tool"] == "lookup":
            key = args.get("key")
            if type(key) is int:
                return json.dumps({"value": 7 * key})
            return json.dumps({"error": "lookup: key must be an integer"})
        if req["tool"] == "fail":
            return json.dumps({"error": args["message"]})
        if req["tool"] == "echo":
            return json.dumps({"value": args})
        return json.dumps({"error": f"unknown tool {req['tool']!r}"})

    def prepare(self, request):
        handle = self.next_handle
        self.next_handle += 1
        parsed = json.loads(request)
        self.now.append(parsed.pop("now", False))
        self.prepared[handle] = json.dumps(parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return handle

    def resolve(self, handle, request):
        assert self.prepared.pop(handle, None) in (request, None)
        return self.answer(request)

    def wait(self, request):
        # Every call of this fake is answered at once: each waited handle is done.
        return json.dumps({"done": json.loads(request)["handles"]})


HOST = FakeHost()
_fake = types.ModuleType("_spine")


class Interrupt(BaseException):
    pass


_fake.Interrupt = Interrupt
_fake.call = lambda request: HOST.answer(request).encode()
_fake.prepare = lambda request: HOST.prepare(request)
_fake.resolve = lambda handle, request: HOST.resolve(handle, request).encode()
_fake.program_loop = lambda on: None
_fake.wait = lambda request: HOST.wait(request).encode()
_fake.current = lambda: 0  # one execution at a time here: threads serve it
_fake.adopt = lambda token: None
sys.modules["_spine"] = _fake

import bootstrap  # noqa: E402  (needs the fake _spine first)
import protocol  # noqa: E402

MANIFEST = [{"name": "lookup", "speculative": True}, {"name": "fail", "speculative": True},
            {"name": "echo", "speculative": True}]


def execute(source, inputs=None, **extra):
    request = {"source": source, "inputs": {} if inputs is None else inputs, "manifest": MANIFEST, **extra}
    response = json.loads(bootstrap.execute(json.dumps(request)))
    out, err = bootstrap.take_output()
    return response, out.decode(), err.decode()


def test_value_and_empty_transformed():
    response, out, _ = execute("result = {'x': lookup(key=inputs['item'])}", {"item": 3})
    assert response == {"value": {"x": 21}, "transformed": ""}
    assert out == ""


def test_scope_has_name_inputs_and_one_proxy_per_tool():
    response, _, _ = execute("result = [__name__, sorted(k for k in dir() if not k.startswith('__'))]")
    assert response["value"] == ["__main__", ["echo", "fail", "inputs", "lookup"]]


def test_proxy_is_keyword_only_and_named():
    response, _, _ = execute("result = lookup.__name__\nlookup(1)")
    assert response["error"].startswith("TypeError: lookup() takes 0 positional arguments")


def test_tool_error_is_catchable_runtime_error():
    response, _, _ = execute("try:\n    fail(message='nope')\nexcept RuntimeError as e:\n    result = str(e)")
    assert response["value"] == "nope"


def test_uncaught_error_has_line_kind_and_user_traceback():
    response, _, _ = execute("a = 1\n\nfail(message='bad')\n")
    assert response["error"] == "RuntimeError: bad"
    assert response["line"] == 3 and response["kind"] == "program"
    assert "line 3, in <module>" in response["traceback"] and "bootstrap" not in response["traceback"]


def test_syntax_error_line():
    response, _, _ = execute("x = 1\ny = = 2\n")
    assert response["error"].startswith("SyntaxError: invalid syntax") and response["line"] == 2


def test_stdout_is_captured_separately_and_never_in_the_json():
    response, out, err = execute("print('hello')\nimport sys\nprint('warn', file=sys.stderr)\nresult = 1")
    assert response == {"value": 1, "transformed": ""}
    assert out == "hello\n" and err == "warn\n"
    assert sys.stdout is not None and not isinstance(sys.stdout, bootstrap._Capture)


def test_stdout_cap_truncates_at_a_character_boundary():
    # 5 bytes end inside the second "é": the kept part stops before it.
    response, out, _ = execute("print('aé' * 10)", limits={"stdout_bytes": 5})
    assert out == "aéa" and response["stdout_truncated"] is True


def test_binary_stdout():
    _, out, _ = execute("import sys\nsys.stdout.buffer.write(b'raw')")
    assert out == "raw"


@pytest.mark.parametrize("source,message", [
    ("result = {1}", "TypeError: result is not JSON-serializable: set at result"),
    ("result = [1, object()]", "TypeError: result is not JSON-serializable: object at result[1]"),
    ("result = {'a': float('inf')}", "ValueError: result is not JSON-serializable: float inf at result['a']"),
    ("result = b'x'", "TypeError: result is not JSON-serializable: bytes at result"),
])
def test_unencodable_result_names_the_type(source, message):
    response, _, _ = execute(source)
    assert response["error"] == message


def test_result_limits():
    response, _, _ = execute("result = 'x' * 100", limits={"result_bytes": 50})
    assert response["kind"] == "result_limit"
    response, _, _ = execute("result = [[[[1]]]]", limits={"result_depth": 2})
    assert response["kind"] == "result_limit" and "depth limit of 2" in response["error"]


def test_result_limit_counts_bytes_not_characters():
    # 60 characters, 120 bytes of UTF-8: the host measures bytes, so must bootstrap.
    response, _, _ = execute("result = 'é' * 60", limits={"result_bytes": 100})
    assert response["kind"] == "result_limit"
    response, _, _ = execute("result = '\\ud800' * 20", limits={"result_bytes": 100})
    assert response["kind"] == "result_limit"  # 20 characters, 120 bytes escaped
    response, _, _ = execute("result = 'é' * 40", limits={"result_bytes": 100})
    assert response["value"] == "é" * 40


def test_reported_text_is_clipped_to_the_envelope_allowance():
    response, _, _ = execute("raise ValueError('m' * 100000)")
    assert response["error"].startswith("ValueError: mmm") and response["error"].endswith("(clipped)")
    assert len(response["error"]) < protocol.MESSAGE_CHARS + 20
    response, _, _ = execute("def f(n):\n    return f(n - 1) if n else 1 / 0\nf(900)", limits={"recursion": 1000})
    assert response["traceback"].startswith("... (clipped)") and response["error"] == "ZeroDivisionError: division by zero"
    assert len(response["traceback"]) < protocol.TRACEBACK_CHARS + 20


def test_a_lone_surrogate_keeps_the_response_valid_utf8():
    raw = bootstrap.execute(json.dumps({"source": "result = '\\ud800x'", "inputs": {}}))
    raw.decode("utf-8")  # strict
    assert json.loads(raw)["value"] == "\ud800x"


@pytest.mark.parametrize("source,error", [
    ("raise SystemExit(4)", "SystemExit: 4"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
])
def test_system_exit_and_keyboard_interrupt_end_only_the_execution(source, error):
    response, _, _ = execute(source)
    assert response["error"] == error
    assert execute("result = 'alive'")[0]["value"] == "alive"


def test_builtins_and_recursion_limit_are_per_execution():
    execute("__builtins__['print'] = None")
    assert execute("print('ok')")[1] == "ok\n"
    before = sys.getrecursionlimit()
    response, _, _ = execute("def f():\n    f()\nf()", limits={"recursion": 100})
    assert response["error"].startswith("RecursionError")
    assert sys.getrecursionlimit() == before


def test_executions_beginning_and_ending_on_many_threads_keep_the_recursion_limit():
    # In process, executions begin and end on their callers' threads at once:
    # the limit is recomputed from the running list while others change it.
    import threading

    errors = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython allows

    def churn(recursion):
        try:
            for _ in range(3000):
                execution = types.SimpleNamespace(recursion=recursion)
                bootstrap._begin_running(execution)
                assert sys.getrecursionlimit() >= recursion
                assert bootstrap._execution() is not None or not bootstrap._running
                bootstrap._end_running(execution)
        except BaseException as error:  # noqa: BLE001 - reported below, with its type
            errors.append(error)

    try:
        threads = [threading.Thread(target=churn, args=(200 + 10 * i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert bootstrap._running == []
    assert sys.getrecursionlimit() == bootstrap._IDLE_RECURSION


def test_malformed_request_is_a_failure_of_the_guest_not_an_outcome():
    # No envelope: a guest may not claim a bad request (the host wrote it).
    with pytest.raises(ValueError, match="malformed request"):
        bootstrap.execute(b"{nope")
    assert execute("result = 'alive'")[0]["value"] == "alive"


def test_code_is_cached_by_source():
    bootstrap._CODE_CACHE.clear()
    execute("result = 1")
    execute("result = 1")
    assert list(bootstrap._CODE_CACHE) == ["result = 1"]


def test_plm_execution_reports_transformed_text():
    response, _, _ = execute("a = lookup(key=1)\nb = lookup(key=2)\nresult = a + b", plm=True)
    assert response["value"] == 21
    assert "_spine_prepare" in response["transformed"]


def test_prefix_stream_claims_its_prepared_calls_and_ends():
    HOST.prepared.clear()
    bootstrap.prefix_begin(json.dumps({"stream": "s1", "inputs": {"k": 2}, "manifest": MANIFEST}))
    bootstrap.prefix_feed(json.dumps({"stream": "s1", "chunk": "a = lookup(key=inputs['k'])\n"}))
    bootstrap.prefix_feed(json.dumps({"stream": "s1", "chunk": "result = a\n"}))
    assert len(HOST.prepared) == 1
    response = json.loads(bootstrap.execute(json.dumps({"prefix": True, "stream": "s1"})))
    assert response["value"] == 14
    assert HOST.prepared == {}  # claimed, not prepared again
    assert "s1" not in bootstrap._streams
    with pytest.raises(RuntimeError, match="prefix execution without prefix_begin"):
        bootstrap.execute(json.dumps({"prefix": True, "stream": "s1"}))


def test_plain_execution_never_claims_from_a_stream():
    HOST.prepared.clear()
    bootstrap.prefix_begin(json.dumps({"stream": "s2", "inputs": {}, "manifest": MANIFEST}))
    bootstrap.prefix_feed(json.dumps({"stream": "s2", "chunk": "a = lookup(key=5)\n\n"}))
    handles = dict(HOST.prepared)
    assert len(handles) == 1
    execute("result = lookup(key=5)")
    assert HOST.prepared == handles  # the plain execution made its own call
    bootstrap.prefix_abort("s2")
    assert "s2" not in bootstrap._streams


def test_two_streams_do_not_see_each_other():
    bootstrap.prefix_begin(json.dumps({"stream": "a", "inputs": {"v": 1}, "manifest": MANIFEST}))
    bootstrap.prefix_begin(json.dumps({"stream": "b", "inputs": {"v": 2}, "manifest": MANIFEST}))
    bootstrap.prefix_feed(json.dumps({"stream": "a", "chunk": "result = inputs['v']\n"}))
    bootstrap.prefix_feed(json.dumps({"stream": "b", "chunk": "result = inputs['v'] * 10\n"}))
    b = json.loads(bootstrap.execute(json.dumps({"prefix": True, "stream": "b"})))
    a = json.loads(bootstrap.execute(json.dumps({"prefix": True, "stream": "a"})))
    assert (a["value"], b["value"]) == (1, 20)


def test_feed_without_begin_raises():
    with pytest.raises(RuntimeError):
        bootstrap.prefix_feed(json.dumps({"stream": "never", "chunk": "x"}))


# --- Async programs -----------------------------------------------------------

def test_tool_in_async_code_is_started_now_and_awaited():
    HOST.now.clear()
    source = ("import asyncio\n"
              "async def main():\n"
              "    calls = [lookup(key=k) for k in (1, 2)]\n"
              "    kinds = [type(c).__name__ for c in calls]\n"
              "    return kinds, await asyncio.gather(*calls)\n"
              "result = asyncio.run(main())")
    response, _, err = execute(source)
    assert response["value"] == [["coroutine", "coroutine"], [7, 14]]
    assert HOST.now == [True, True] and err == ""


def test_sync_helper_called_from_async_code_gets_the_value():
    source = ("def helper():\n    return lookup(key=1)\n"
              "async def main():\n    return helper()\n"
              "import asyncio\nresult = [asyncio.run(main()), lookup(key=2)]")
    response, _, _ = execute(source)
    assert response["value"] == [7, 14]


def test_top_level_await_makes_the_top_level_async():
    response, _, _ = execute("x = await lookup(key=3)\nresult = [x, type(lookup(key=1)).__name__]")
    assert response["value"] == [21, "coroutine"]


def test_tool_error_is_raised_at_its_await_and_catchable():
    source = ("c = fail(message='bad')\nwhere = 'after call'\n"
              "try:\n    await c\nexcept RuntimeError as e:\n    result = [where, str(e)]")
    response, _, _ = execute(source)
    assert response["value"] == ["after call", "bad"]


def test_unawaited_call_is_reported_on_stderr_once():
    response, _, err = execute("async def main():\n    lookup(key=1)\n    return 1\nresult = await main()")
    assert response["value"] == 1
    assert err == "RuntimeWarning: coroutine 'lookup' was never awaited\n"
    HOST.prepared.clear()


def test_syntax_error_message_has_no_location_and_line_is_separate():
    response, _, _ = execute("a = 1\nb = (\n")
    assert response["error"] == "SyntaxError: '(' was never closed" and response["line"] == 2


def test_cycle_in_result_is_named_a_cycle():
    response, _, _ = execute("x = {'k': []}\nx['k'].append(x)\nresult = x")
    assert response["error"] == "ValueError: result contains a reference cycle: result['k'][0] is result"
    response, _, _ = execute("s = [1]\nresult = [s, s, {'a': s}]")
    assert response["value"] == [[1], [1], {"a": [1]}]


# A tool error names the exception the program sees only from the allowlist;
# any other name, or none, is a RuntimeError, so a response can never raise
# an exception a program does not expect from a tool call.
@pytest.mark.parametrize("name", protocol.TOOL_EXCEPTIONS)
def test_tool_error_raises_the_type_it_names(name):
    with pytest.raises(getattr(builtins, name)) as caught:
        bootstrap.decode(json.dumps({"error": "denied", "type": name}))
    assert type(caught.value).__name__ == name and caught.value.args == ("denied",)


@pytest.mark.parametrize("name", [None, "SystemExit", "KeyboardInterrupt", "Interrupt", "BaseException", "os"])
def test_tool_error_outside_the_allowlist_is_a_runtime_error(name):
    response = {"error": "boom"} if name is None else {"error": "boom", "type": name}
    with pytest.raises(RuntimeError) as caught:
        bootstrap.decode(json.dumps(response))
    assert type(caught.value) is RuntimeError and str(caught.value) == "boom"



def _keyed(key, manifest_text, rest):
    """A request in the host's shape: key and manifest first."""
    return '{"manifest_key":"%s","manifest":%s,%s' % (key, manifest_text, rest)


def test_a_keyed_manifest_read_before_is_used_without_parsing_it_again():
    text = json.dumps(MANIFEST)
    rest = '"inputs":{"item":2},"source":"result = lookup(key=inputs[\'item\'])"}'
    first = json.loads(bootstrap.execute(_keyed("k-reuse", text, rest)))
    cached = bootstrap._MANIFESTS["k-reuse"][1]
    second = json.loads(bootstrap.execute(_keyed("k-reuse", text, rest)))
    assert first == second == {"value": 14, "transformed": ""}
    assert bootstrap._MANIFESTS["k-reuse"][1] is cached  # the same parse, not a new one


def test_a_key_never_stands_in_for_a_manifest_it_does_not_name():
    # The same key with another manifest text: the text is parsed, and the
    # program sees the tools of this request, not the cached ones.
    bootstrap.execute(_keyed("k-other", json.dumps(MANIFEST), '"inputs":{},"source":"result = 1"}'))
    only_echo = json.dumps([{"name": "echo", "speculative": True}])
    response = json.loads(bootstrap.execute(_keyed(
        "k-other", only_echo, '"inputs":{},"source":"result = sorted(k for k in dir() if not k.startswith(\'__\'))"}')))
    assert response["value"] == ["echo", "inputs"]


def test_a_malformed_keyed_request_is_refused_as_malformed():
    with pytest.raises(ValueError, match="malformed request"):
        bootstrap.execute('{"manifest_key":"k-bad","manifest":[1,2] "inputs":{}}')


@pytest.mark.parametrize("value", [
    None, True, 7, -(2 ** 63), 2 ** 70, "", "é" * 40, {"x": 21}, {"a": "b" * 30, "n": None, "t": False},
    [1, "two", None], {"k": 1.5}, {1: "int key"}, {"nested": {"x": 1}}, list(range(17)), ["\udcff" * 10],
])
@pytest.mark.parametrize("max_bytes", [4, 64, 1 << 20])
def test_a_result_taken_at_a_glance_is_one_the_walk_accepts(value, max_bytes):
    # _plainly_fine only lets results skip the walk that the walk accepts.
    if bootstrap._plainly_fine(value, max_bytes, 1):
        bootstrap._check_result(value, max_bytes, 1)
        assert len(bootstrap._encode_value(value).encode("utf-8", "backslashreplace")) <= max_bytes


def test_a_flat_result_over_the_size_limit_is_still_refused():
    response, _, _ = execute("result = {'s': 'x' * 100}", limits={"result_bytes": 50})
    assert response["kind"] == "result_limit" and "size limit of 50 bytes" in response["error"]


def test_small_flat_results_are_taken_at_a_glance_and_the_rest_walked():
    assert bootstrap._plainly_fine({"x": 21}, 1 << 20, 100)
    assert bootstrap._plainly_fine([1, "two", None], 1 << 20, 100)
    assert not bootstrap._plainly_fine({"x": 1.5}, 1 << 20, 100)  # a float: the walk checks NaN
    assert not bootstrap._plainly_fine({"x": {"y": 1}}, 1 << 20, 100)  # nested
    assert not bootstrap._plainly_fine({"s": "x" * 100}, 50, 100)  # may exceed the limit


@pytest.mark.parametrize("text", ['{"a":1}', '[1,2]', '"s"', '3', '{"a":{"b":[true,null]}}', ' {"a":1}', '{"a":1} ',
                                  '{"a":1}x', '{"a":', '', 'nan', '{"a":1}{"b":2}', '1 2'])
def test_json_reads_as_json_loads(text):
    try:
        expected = json.loads(text)
    except ValueError as error:
        with pytest.raises(type(error)) as raised:
            bootstrap._json(text)
        assert str(raised.value) == str(error)
        return
    assert bootstrap._json(text) == expected
