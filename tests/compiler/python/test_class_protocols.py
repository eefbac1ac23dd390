"""Differential tests over corpus_class_protocols (classes with dunder methods,
class constants, static and class methods, properties, as TheAlgorithms-style
data structures write them): every entry point, compiled natively, gives
CPython's value or raises CPython's exception with its message
(differential.py: the native answer itself, no Python fallback), and what
native code cannot reproduce exactly is refused where it is used."""
import typing

import pytest

import corpus_class_protocols as corpus
from differential import corpus_tests, inputs_by, python_callable
from native import check_eligible, parse_module
from native.errors import CompileError

BY_TYPE = {int: [0, 1, 2, 3, -1, 7, -4], bool: [False, True],
           typing.List[int]: [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [1, 2, 3, 4, 5, 6, 7, 8, 9],
                              [4, 4, 0, -2]]}
BY_NAME = {"pops": [0, 1, 2, 5], "n": [0, 1, 2, 3, 4, -1], "k": [0, 1, 2, 5],
           "rows": [[], [7], [1, 2, 3], [1, 1, 1, 0], [2, 0, 1, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]],
           "left": [[1, 0, 0, 1], [1, 2, 3, 4], [0, 0, 0, 0], [2, 0, 0, 2]],
           "right": [[1, 0, 0, 1], [4, 3, 2, 1], [2, 0, 0, 2]],
           "den": [1, 2, -3, 0, 4, -1], "num": [0, 1, -2, 3, 6], "start": [0, 2, 5, -3], "end": [0, 3, 5, -4, 9],
           "balance": [0, 100, 999, -250], "targets": [[], [1], [0, 3, 5, -1, 7]],
           "amounts": [[], [1], [10, 20, 30], [-5, 7, 2]]}


FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 28, 600))


def test_protocol_answers_are_the_native_functions_own(suite):
    """Specific outcomes, straight from the native functions (no fallback given)."""
    window_len = suite.module.get_function("window_len")
    assert window_len(2, 9) == 7
    with pytest.raises(ValueError, match=r"^__len__\(\) should return >= 0$"):
        window_len(5, 2)
    with pytest.raises(ValueError, match=r"^__len__\(\) should return >= 0$"):
        suite.module.get_function("window_truth")(5, 2)  # truth falls back to __len__, checked too
    assert suite.module.get_function("window_truth")(2, 3) == "outside full"
    assert suite.module.get_function("account_interest")(1000, True) == [50, 5, 2, 2, 10]
    assert suite.module.get_function("fraction_truth")(0, 5) == [False, True, True]
    with pytest.raises(ZeroDivisionError, match="^denominator is zero$"):
        suite.module.get_function("fraction_make")(1, 0)
    assert suite.module.get_function("vector_text")(1, -2) == \
        "Vector(1, -2) Vector(1, -2) Vector(1, -2) Vector(-1, 2)Vector(2, -4)"
    assert suite.module.get_function("matrix_text")(0) == "matrix matrix size 2:\n2 0\n0 2"
    with pytest.raises(IndexError, match="^peek at an empty stack$"):
        suite.module.get_function("stack_peek_empty")(0)
    assert suite.module.get_function("counter_total")([1, 2]) == 3 * 1000 + 14


def test_a_dunder_that_does_not_compile_refuses_only_its_uses():
    source = ("class Bag:\n    def __init__(self) -> None:\n        self.items: list[int] = []\n"
              "    def __repr__(self):\n        return f'Bag({self.items})'\n"
              "    def __iter__(self):\n        yield from self.items\n"
              "    def add(self, x: int) -> int:\n        self.items.append(x)\n        return len(self.items)\n"
              "def adds(n: int) -> int:\n    b = Bag()\n    for i in range(n):\n        b.add(i)\n"
              "    return b.add(0)\n"
              "def shown(n: int) -> str:\n    b = Bag()\n    b.add(n)\n    return repr(b)\n"
              "def looped(n: int) -> int:\n    b = Bag()\n    b.add(n)\n    t = 0\n    for x in b:\n"
              "        t += x\n    return t\n")
    reasons = dict(check_eligible(source))
    assert reasons["adds"] is None
    assert "DunderMethod: Bag.__repr__ does not compile natively" in reasons["shown"]
    assert reasons["looped"].endswith("ForIter: iterating Bag")  # __iter__ is a generator: not native


_V = ("class V:\n    def __init__(self, x: int) -> None:\n        self.x = x\n"
      "    def __add__(self, o: 'V') -> 'V':\n        return V(self.x + o.x)\n"
      "    def __eq__(self, o: 'V') -> bool:\n        return self.x == o.x\n"
      "    def __radd__(self, o: int) -> 'V':\n        return V(self.x + o)\n")
_W = "class W:\n    def __init__(self) -> None:\n        self.y = 1\n"

REJECTED = [
    (_V + "def f(a: int) -> int:\n    return (1 + V(a)).x\n", "ReflectedOperator"),  # int.__add__ gives NotImplemented
    (_V + _W + "def f(a: int) -> int:\n    return (V(a) + W()).x\n", "ReflectedOperator"),
    (_V + "def f(a: int) -> bool:\n    return V(a) == None\n", "ReflectedOperator"),
    (_V + "def f(a: int) -> bool:\n    return V(a) in [V(a)]\n", "ClassEq"),
    ("class G:\n    def __gt__(self, o: 'G') -> bool:\n        return True\n"
     "def f(a: int) -> bool:\n    return G() < G()\n", "ReflectedOperator"),  # CPython calls the right's __gt__
    (_V + "def f(a: int) -> bool:\n    return V(a) < V(a)\n", "CompareTypes"),
    (_V + "class U(V):\n    pass\ndef f(a: int) -> int:\n    return (V(a) + V(a)).x\n", "DunderHierarchy"),
    (_V + "def f(a: int) -> str:\n    return str(V(a))\n", "DunderMethod"),  # the default repr: an address
    (_V + "def f(a: int) -> str:\n    return f'{V(a):>5}'\n", "FormatType"),
    ("class B:\n    def __bool__(self) -> int:\n        return 1\ndef f(a: int) -> bool:\n    return not B()\n",
     "DunderResult"),
    ("class N:\n    def __eq__(self, o: 'N') -> bool:\n        return NotImplemented\n"
     "def f(a: int) -> bool:\n    return N() == N()\n", "DunderMethod"),
    ("class S:\n    def __len__(self) -> int:\n        return 1\ndef f(a: int) -> int:\n    return len(S()) + a\n",
     None),
    ("class P:\n    @property\n    def v(self) -> int:\n        return 1\n    @v.setter\n"
     "    def v(self, x: int) -> None:\n        pass\n", "Decorator"),
    ("class P:\n    def __init__(self) -> None:\n        self.v = 2\n    @property\n    def v(self) -> int:\n"
     "        return 1\n", "Property"),
    ("class C:\n    ITEMS = [1, 2]\n", "ClassBody"),
    # A dataclass's Final attribute is a field (an __init__ parameter), not a class constant.
    ("from dataclasses import dataclass\nfrom typing import Final\n@dataclass\nclass D:\n    a: int\n"
     "    k: Final = 3\ndef f(n: int) -> int:\n    return D(n, 1).k\n", "ClassBody"),
    # With __slots__ CPython refuses other instance attributes (and shadowing a class constant).
    ("class C:\n    __slots__ = ('x',)\n    def __init__(self) -> None:\n        self.x = 1\n", "ClassBody"),
    ("class C:\n    LIMIT = 1\nclass D(C):\n    LIMIT = 2\n", "ClassConstant"),
    ("class C:\n    LIMIT = 1\n    @classmethod\n    def make(cls) -> 'C':\n        return cls()\nclass D(C):\n"
     "    pass\n", "Decorator"),
    ("class C:\n    LIMIT = 1\n    def bump(self) -> None:\n        self.LIMIT = 2\n", "UnknownField"),
    # A base method reading self.LIMIT would see a subclass instance's own attribute in CPython.
    ("class C:\n    LIMIT = 1\n    def get(self) -> int:\n        return self.LIMIT\nclass D(C):\n"
     "    def __init__(self) -> None:\n        self.LIMIT = 2\n", "ClassConstant"),
    ("class C:\n    size = 1\n    def size(self) -> int:\n        return 2\n", "ClassConstant"),
    ("class C:\n    BIG = 2 ** 70\n", "ClassBody"),
    ("class C:\n    HUGE = 1180591620717411303424\n", "ClassBody"),
    ("class G:\n    def __getattr__(self, name: str) -> int:\n        return 1\n", "DunderMethod"),
    # len(self) in a base's __init__ could run a subclass's __len__ before that one set its fields.
    ("class S:\n    def __init__(self, n: int) -> None:\n        self.n = n\n        if not self:\n"
     "            self.n = 1\n    def __len__(self) -> int:\n        return self.n\nclass T(S):\n"
     "    def __init__(self) -> None:\n        super().__init__(0)\n        self.m = 2\n", "SelfInInit"),
    # CPython's instance keeps the caller's list itself; a native one would keep a copy of it.
    ("class Acc:\n    def __init__(self) -> None:\n        self.items: list[int] = []\n"
     "    def __iadd__(self, xs: list[int]) -> 'Acc':\n        self.items = xs\n        return self\n"
     "def f(xs: list[int]) -> int:\n    a = Acc()\n    a += xs\n    xs.append(1)\n    return len(a.items)\n",
     "BorrowedStore"),
]


@pytest.mark.parametrize("source,construct", REJECTED)
def test_what_stays_python_says_why(source, construct):
    if construct is None:
        parse_module(source)
        return
    with pytest.raises(CompileError) as info:
        parse_module(source + "def g(x: int) -> int:\n    return x\n")
    assert info.value.construct == construct, str(info.value)
