"""A native function stands where the Python function stood: what CPython
builds from the function (names in messages) and the identity of the
constants it returns are the same natively."""
import pytest

from native import module_loader, simple_compile

SOURCE = '''
def done(x: int) -> str:
    return "done"


def phrase(x: int) -> str:
    return "not an identifier!"


def pick(x: int) -> str:
    if x > 0:
        return "héllo wörld"
    return "b"


def built(s: str) -> str:
    return s + "!"


def words(x: int) -> list[str]:
    return ["a b", "c d", "a b"]


def first(s: str) -> str:
    return s[0]


def positive(n: int) -> int:
    if n <= 0:
        raise ValueError("n must be positive")
    return n


def item(xs: list[int], i: int) -> int:
    return xs[i]
'''


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(native functions with their Python versions as fallback, the Python functions)."""
    path = str(tmp_path_factory.mktemp("calls") / "m.so")
    simple_compile(SOURCE, path)
    namespace = {"__name__": "__main__"}
    exec(compile(SOURCE, "<program>", "exec"), namespace)
    module = module_loader(path)
    names = ("done", "phrase", "pick", "built", "words", "first", "positive", "item")
    return ({n: module.get_function(n, fallback=namespace[n]) for n in names}, namespace)


def test_names_are_the_python_functions(pair):
    native, python = pair
    f, g = native["done"], python["done"]
    assert (f.__name__, f.__qualname__, f.__module__, f.__doc__) == (g.__name__, g.__qualname__, g.__module__,
                                                                     g.__doc__) == ("done", "done", "__main__", None)


@pytest.mark.parametrize("call, message", [
    (lambda h: h(**1), "__main__.done() argument after ** must be a mapping, not int"),
    (lambda h: h(*1), "__main__.done() argument after * must be an iterable, not int"),
    (lambda h: h(**{"x": 1}, **{"x": 2}), "__main__.done() got multiple values for keyword argument 'x'"),
    (lambda h: h(1, **{"x": 2}), "done() got multiple values for argument 'x'"),
])
def test_call_errors_name_the_function(pair, call, message):
    native, python = pair
    for h in (native["done"], python["done"]):
        with pytest.raises(TypeError) as info:
            call(h)
        assert str(info.value) == message


def test_str_constants_keep_their_identity(pair):
    native, python = pair
    for name in ("done", "phrase"):
        assert native[name](1) is native[name](2), name
        assert python[name](1) is python[name](2), name
    # CPython interns constants that look like identifiers: the caller's "done" is the same object.
    assert native["done"](1) is "done"  # noqa: F632 - identity is what is tested
    assert native["pick"](1) is native["pick"](1) and native["pick"](0) is native["pick"](0)
    assert native["pick"](1) == "héllo wörld"
    got = native["words"](1)
    assert got == ["a b", "c d", "a b"] and got[0] is native["words"](2)[2]


def test_strings_built_at_run_time_are_new(pair):
    native, python = pair
    assert native["built"]("ab") == "ab!"
    assert (native["built"]("ab") is native["built"]("ab")) == (python["built"]("ab") is python["built"]("ab"))
    # One-character ASCII strings are one object in CPython whatever made them.
    assert native["first"]("xyz") is native["first"]("xab") is "x"  # noqa: F632


@pytest.mark.parametrize("name, args, raised", [
    ("positive", (0,), ValueError),         # a native raise, raised again by the Python version
    ("item", ([1, 2], 5), IndexError),      # a native fault
    ("positive", (-0.5,), ValueError),      # a float where native code takes an int: CPython's call
    ("positive", (2 ** 70 * -1,), ValueError),  # beyond int64: CPython's call
])
def test_errors_raised_through_the_python_version_stand_alone(pair, name, args, raised):
    """The exception the Python version raises once native code gave up is CPython's alone:
    no native fault as its __context__, so its traceback shows one exception, not "During
    handling of the above exception, another exception occurred"."""
    import traceback
    native, python = pair
    for h in (native[name], python[name]):
        with pytest.raises(raised) as info:
            h(*args)
        assert info.value.__context__ is None, (h, repr(info.value.__context__))
        text = "".join(traceback.format_exception(info.value))
        assert "During handling" not in text
