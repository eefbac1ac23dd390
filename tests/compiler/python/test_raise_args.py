"""Differential tests over corpus_raise_args: exception classes raised bare,
with no argument, an int, a float, a key or several arguments; re-raised in
handlers; read there as repr(e), type(e).__name__ and isinstance(e, C);
the program's classes whose __init__ hands its base a message and keeps a
status. Every answer is the
native function's own (differential.py: no Python fallback), and an exception
reaching Python is the same class with the same args, str() and repr()."""
import typing

import pytest

import corpus_raise_args as corpus
from differential import DECLINED, both_sides, corpus_tests, inputs_by, python_callable
from native import NativeFallback, check_eligible, module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, -1, -3, 7, 12, 500, INT64_MAX, INT64_MIN], str: ["", "42", "x1", "é", "a'b\"c", "long name here"],
           float: [0.0, -0.0, 0.5, -1.25, 3.0, 1e300, float("inf")],
           typing.List[int]: [[], [3], [1, 7, 0, -2, 60], [5, 12, 4], [-200, 3], [INT64_MAX], [429, 200, 503, 404]],
           typing.List[str]: [[], ["80"], ["22", "x", "", "99999"], ["toolongname", "ok", "\t"], ["ünïcode", "7"]],
           typing.Dict[str, int]: [{}, {"id": 4, "count": 10}, {"id": 1, "count": 2, "total": 30, "": 9}]}
BY_NAME = {"key": ["id", "", "missing", "ké"], "field": ["id", "total", "bogus"], "name": ["id", "count", "x"],
           "limit": [0, 10, 100, -5], "max_steps": [0, 5], "attempts": [1, 2, 5],
           "codes": [[], [200], [503, 200], [503, 502, 501], [429, 404, 500, 200]],
           "ports": [{}, {"http": 80, "ssh": 22}], "budget": [100, 600],
           "status": [200, 404, 500, 399, -1], "fields": [[], ["id"], ["id", "count", "bogus", "zz"]]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 27, 400))


def raised(f, args):
    """(type, args, str, repr) of what @p f raises on @p args; None if it returns; DECLINED."""
    try:
        f(*args)
    except NativeFallback:
        return DECLINED
    except Exception as e:  # noqa: BLE001 - what it raised is the point
        return type(e), e.args, str(e), repr(e)
    return None


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_exceptions_reach_python_with_their_args(suite, f):
    # The differential check compares type and str(); args and repr tell ValueError("a", 1) from
    # ValueError("('a', 1)") and KeyError(1) from KeyError("1").
    fast = suite.module.get_function(f.__name__, signature=f)
    compared = 0
    for args in inputs_for(f):
        mine, theirs = both_sides(args)
        got = raised(fast, mine)
        if got is DECLINED:
            continue
        assert got == raised(f, theirs), (f.__name__, args)
        compared += got is not None
    assert compared > 0 or f.__name__ in NEVER_RAISING_TO_THE_CALLER, f.__name__


# Functions whose handlers take every exception their pools make them meet.
NEVER_RAISING_TO_THE_CALLER = {"tool_status", "describe_failure", "safe_ratio", "log_errors", "budget_left",
                               "step_or_default", "first_missing", "names_ok", "schema_problems", "fields_total",
                               "budget_report", "classify", "fetch_all"}


def test_raised_exceptions_are_native_not_cpython(suite):
    # Each raise form ran natively: no case of these declined (but non-ASCII text, whose
    # isdigit() and repr() need Unicode tables: CPython's).
    for f in (corpus.parse_count, corpus.check_step, corpus.nth, corpus.require_key, corpus.check_budget,
              corpus.validate_name, corpus.strict_steps, corpus.retry_until, corpus.tool_status, corpus.last_value,
              corpus.checked_ratio, corpus.classify, corpus.first_missing, corpus.fetch, corpus.fetch_all):
        cases = [args for args in inputs_for(f) if repr(args).isascii() and "inf" not in repr(args)]
        assert suite.check(f, cases) == 0, f.__name__


def test_an_argument_without_a_literal_repr_is_raised_by_cpython(tmp_path):
    source = "def reject(x: float) -> float:\n    raise ValueError(x, 'bad')\n"
    simple_compile(source, str(tmp_path / "reject.so"))
    module = module_loader(str(tmp_path / "reject.so"))
    namespace = {}
    exec(source, namespace)
    native = module.get_function("reject", signature=namespace["reject"])
    with pytest.raises(ValueError) as e:
        native(-0.5)
    assert e.value.args == (-0.5, "bad")
    with pytest.raises(NativeFallback, match="arguments of ValueError raised in Python"):
        native(float("nan"))
    fallback = module.get_function("reject", fallback=namespace["reject"])
    with pytest.raises(ValueError) as e:
        fallback(float("inf"))
    assert e.value.args == (float("inf"), "bad") and fallback.fallbacks == 1


def test_str_of_an_exception_its_init_made_is_cpythons(tmp_path):
    # The handler compiles; taking an HttpError there, it cannot say str(e) (its __init__ gave
    # the base only the message) and lets CPython run the call, which says it.
    source = ("class HttpError(Exception):\n    def __init__(self, message: str, status: int) -> None:\n"
              "        super().__init__(message)\n        self.status = status\n"
              "def fetch(status: int) -> str:\n    try:\n        if status >= 400:\n"
              "            raise HttpError('failed', status)\n        if status < 0:\n"
              "            raise ValueError(status)\n        return 'ok'\n"
              "    except (HttpError, ValueError) as e:\n        return repr(e) + ' ' + str(e)\n")
    simple_compile(source, str(tmp_path / "fetch.so"))
    module = module_loader(str(tmp_path / "fetch.so"))
    namespace = {}
    exec(source, namespace)
    native = module.get_function("fetch", signature=namespace["fetch"])
    assert native(200) == "ok" and native(-2) == "ValueError(-2) -2"
    with pytest.raises(NativeFallback, match="an exception whose __init__ made its args"):
        native(404)
    fallback = module.get_function("fetch", fallback=namespace["fetch"])
    assert fallback(404) == "HttpError('failed') failed" and fallback.fallbacks == 1


@pytest.mark.parametrize("source, construct", [
    # The object itself (its args, attributes) is not available natively.
    ("def f(x: int) -> int:\n    try:\n        return 1 // x\n    except ZeroDivisionError as e:\n"
     "        return len(e.args)\n", "ExceptAs"),
    # isinstance() of a caught fault and a class that is no exception.
    ("def f(x: int) -> bool:\n    try:\n        return 1 // x > 0\n    except ZeroDivisionError as e:\n"
     "        return isinstance(e, int)\n", "Except"),
    # str() of a KeyError is its key's repr, known natively only as repr(e).
    ("def f(d: dict[str, int], k: str) -> str:\n    try:\n        return str(d[k])\n    except KeyError as e:\n"
     "        return str(e)\n", "ExceptAs"),
    # A class with a constant named as an exception attribute is not a plain exception class.
    ("class Bad(ValueError):\n    args = ()\n"
     "def f(x: int) -> int:\n    try:\n        return 1 // x\n    except Bad:\n        return -1\n", "ClassBody"),
    # An __init__ that does more than hand arguments on and keep them (a default, a computed
    # attribute) makes no exception class of the program.
    ("class Coded(Exception):\n    def __init__(self, code: int = 0) -> None:\n        super().__init__(code)\n"
     "def f(x: int) -> int:\n    if x < 0:\n        raise Coded(x)\n    return x\n", "ClassBases"),
    ("class Coded(Exception):\n    def __init__(self, code: int) -> None:\n        super().__init__(code)\n"
     "        self.double = code * 2\n"
     "def f(x: int) -> int:\n    if x < 0:\n        raise Coded(x)\n    return x\n", "ClassBases"),
])
def test_what_stays_unsupported_is_refused_clearly(source, construct):
    why = dict(check_eligible(source))["f"]
    assert why is not None and construct in why, why
