"""Tests of the spine_runtime CPython binding (runtime/python/)."""
import gc

import pytest

import spine_runtime as rt


@pytest.fixture(scope="module")
def g():
    return rt.get_global


def test_positional_and_keyword_calls(g):
    add = g("testing.add")
    assert add(1, 2) == 3
    assert add(a=3, b=4) == 7
    assert add(5, b=6) == 11
    assert add.name == "testing.add"
    scaled = g("testing.scaled_add")
    assert scaled(1) == 11  # default b=10
    assert scaled(1, 2, scale=3) == 9
    assert scaled(b=1, a=2, scale=2) == 6


def test_call_shape_errors_are_type_errors(g):
    add = g("testing.add")
    with pytest.raises(TypeError, match=r"^testing\.add\(\) takes 2 positional arguments but 3 were given$"):
        add(1, 2, 3)
    with pytest.raises(TypeError, match=r"missing required argument 'b'"):
        add(1)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'c'"):
        add(1, 2, c=3)
    with pytest.raises(TypeError, match=r"multiple values for argument 'a'"):
        add(1, a=2)
    with pytest.raises(TypeError, match=r"argument 'a' must be int, not str"):
        add("x", 1)
    with pytest.raises(TypeError, match=r"takes 2 positional arguments but 3"):
        g("testing.scaled_add")(1, 2, 3)  # scale is keyword-only
    with pytest.raises(TypeError, match=r"must be bool, not int"):
        g("testing.negate")(1)
    assert g("testing.negate")(False) is True


def test_runtime_errors_keep_kind_and_message(g):
    with pytest.raises(ValueError, match=r"^testing\.fail\(\): it broke$"):
        g("testing.fail")("it broke")
    with pytest.raises(KeyError, match="global function 'no.such' is not registered"):
        g("no.such")
    with pytest.raises(OverflowError):
        g("testing.add")(2**63, 1)
    with pytest.raises(TypeError, match="cannot convert 'object'"):
        g("testing.echo")(object())
    with pytest.raises(TypeError, match="even number"):
        g("runtime.Dict")(1)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -(2**63),
        2**63 - 1,
        1.5,
        float("inf"),
        "",
        "h\u00e9llo \u4e16\u754c",
        [],
        [1, "a", None, 2.5],
        (1, (2, (3,))),
        {"b": 1, "a": [1, 2], 3: {"x": None}},
        {1, "two", (3, 4)},
        frozenset({1}),
    ],
)
def test_round_trip(g, value):
    out = g("testing.echo")(value)
    expected = set(value) if isinstance(value, frozenset) else value
    assert out == expected
    assert type(out) is type(expected)


def test_dict_order_and_python_key_equality(g):
    d = g("testing.echo")({"z": 1, "a": 2, "m": 3})
    assert list(d) == ["z", "a", "m"]
    assert g("runtime.Dict")(1, "int", 1.0, "float", True, "bool") == {1: "bool"}
    assert g("runtime.Set")(1, 1.0, True, 2) == {1, 2}


def test_containers_and_iterator(g):
    assert g("testing.ListSum")([1, 2, 3]) == 6
    assert g("runtime.Len")("abc") == 3
    assert g("runtime.Len")({"a": 1}) == 1
    assert g("runtime.IterToList")({"k1": 1, "k2": 2}) == ["k1", "k2"]
    assert g("runtime.IterToList")("h\u00e9") == ["h", "\u00e9"]
    assert g("runtime.IterToList")((1, 2)) == [1, 2]
    with pytest.raises(TypeError, match="'int' object is not iterable"):
        g("runtime.IterToList")(5)


def test_multiple_results_and_none(g):
    assert g("testing.add4")(1, 2, 3, 4) == (3, 7, 2, 12)
    assert g("testing.add4")(1, 2, d=4, c=3) == (3, 7, 2, 12)
    assert g("testing.nothing")() is None
    assert g("testing.concat")("ab", "cd") == "abcd"
    assert g("testing.hypot")(3, 4.0) == 5.0


def test_objects_retain_and_release(g):
    p = g("testing.MakePoint")(1.5, 2.5)
    assert isinstance(p, rt.Object)
    assert p.type_name == "testing.Point"
    assert p.type_index == rt.type_index("testing.Point")
    assert p.use_count == 1
    q = g("testing.echo")(p)
    assert q.same_as(p) and q == p and hash(q) == hash(p)
    assert p.use_count == 2
    del q
    gc.collect()
    assert p.use_count == 1
    held = g("runtime.List")(p, p)  # converted back to a Python list of two wrappers
    assert p.use_count == 3
    del held
    assert p.use_count == 1
    assert g("testing.PointX")(p) == 1.5
    with pytest.raises(TypeError, match="must be testing.Point, not int"):
        g("testing.PointX")(1)


def test_register_object_class_by_type_name(g):
    make = g("testing.MakePoint")

    @rt.register_object("testing.Point")
    class Point(rt.Object):
        def __init__(self, x, y):
            self.__init_handle_by_constructor__(make, x, y=y)

        @property
        def x(self):
            return g("testing.PointX")(self)

    p = Point(3, 4)
    assert p.x == 3.0
    assert g("testing.PointY")(p) == 4.0
    back = make(5.0, 6.0)
    assert type(back) is Point and back.x == 5.0
    with pytest.raises(KeyError, match="runtime type 'no.Type' is not registered"):
        rt.register_object("no.Type", Point)
    with pytest.raises(TypeError):
        rt.register_object("testing.Point", int)
    with pytest.raises(ValueError, match="not initialised"):
        g("testing.PointX")(rt.Object())


def test_functions_are_values(g):
    add = g("testing.add")
    again = g("testing.echo")(add)
    assert isinstance(again, rt.Function)
    assert again(2, 3) == 5
    assert "testing.add" in rt.list_globals()
    assert rt.list_globals() == sorted(rt.list_globals())
    with pytest.raises(TypeError):
        rt.Function()


def test_many_calls_with_and_without_errors_are_stable(g):
    add = g("testing.add")
    total = 0
    for i in range(20000):
        total += add(i, b=1)
        if i % 1000 == 0:
            with pytest.raises(TypeError):
                add(i)
    assert total == sum(range(20000)) + 20000


def test_calls_and_errors_from_several_threads(g):
    import threading

    add, fail = g("testing.add"), g("testing.fail")
    problems = []

    def worker(n):
        for i in range(2000):
            if add(n, b=i) != n + i:
                problems.append(("sum", n, i))
            try:
                fail(f"thread {n} call {i}")
            except ValueError as e:
                if str(e) != f"testing.fail(): thread {n} call {i}":
                    problems.append(("message", str(e)))
            else:
                problems.append(("no error", n, i))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []


def test_argument_counts_beyond_the_stack_buffers(g):
    many = list(range(12))
    assert g("runtime.List")(*many) == many
    assert g("runtime.Tuple")(*many, "end") == (*many, "end")
    kwargs = {f"k{i}": i for i in range(10)}
    with pytest.raises(TypeError, match="unexpected keyword argument 'k0'"):
        g("testing.add")(1, 2, **kwargs)
    assert g("testing.add")(**{"b": 2, "a": 40}) == 42
