"""Differential tests over corpus_dataclasses (@dataclass classes and typed
NamedTuples as typed code writes them): every entry point, compiled natively, gives CPython's
value or raises CPython's exception with its message (differential.py: the
native answer itself, no Python fallback). What native code cannot do as the
generated dunders do is refused with a CompileError naming it."""
import typing

import pytest

import corpus_dataclasses as corpus
from differential import corpus_tests, inputs_by, python_callable
from native import check_eligible

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, 2, 3, -1, 7], str: ["", "a", "héllo", "ünï"],
           typing.List[int]: [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [INT64_MAX, INT64_MIN], [2, 0, 1, 3, 3, 2]],
           typing.List[str]: [[], ["dog"], ["Dog", "dog", "cat", "dog"], ["", "é", "É", "é"], ["pip"] * 5]}
BY_NAME = {"n": [0, 1, 2, 3, 5], "size": [0, 1, 2, 3, 4], "kind": [0, 1, 2, 3], "k": [0, 1, 2, -1, 4],
           "pops": [0, 1, 2, 5], "times": [0, 1, 3, 12], "start": [0, 1, 7, -5, INT64_MAX - 10],
           "digits": ["", "7", "12+", "34*2-", "99*9*9*", "1-", "5-5-5-"],
           "amounts": [[], [10], [10, 20, 30], [200, 5, 99, 100], [-5, 7], [40, 40, 40, 40], [1, 0, 2, 1, 3, 2],
                       [INT64_MAX // 4, INT64_MIN // 4]],
           "quantity": [0, 1, 3, -2]}


FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 23, 450))


HEAD = """from dataclasses import dataclass, field
from typing import List


@dataclass
class P:
    x: int
    y: int = 0


@dataclass(frozen=True)
class F:
    x: int
    tags: List[int] = field(default_factory=list)


"""


def why_not(body, head=HEAD):
    return dict(check_eligible(head + body))["f"]


@pytest.mark.parametrize("body, why", [
    ("def f(a: int) -> bool:\n    return P(a) == P(a)\n", "DataclassEq: comparing P with P"),
    ("def f(a: int) -> bool:\n    return P(a) != P(a, 1)\n", "DataclassEq: comparing P with P"),
    ("def f(a: int) -> bool:\n    return [P(a)] == [P(a)]\n", "DataclassEq: comparing list[P] with list[P]"),
    ("def f(a: int) -> bool:\n    return (a, P(a)) == (a, P(a))\n", "DataclassEq: comparing tuple[int, P]"),
    ("def f(a: int) -> bool:\n    ps = [P(a)]\n    return P(a) in ps\n", "DataclassEq: 'in' on list[P]"),
    ("def f(a: int) -> int:\n    ps = [P(a)]\n    return ps.index(ps[0])\n", "DataclassEq: list.index() on list[P]"),
    ("def f(a: int) -> int:\n    ps = [P(a)]\n    return ps.count(ps[0])\n", "DataclassEq: list.count() on list[P]"),
    ("def f(a: int) -> int:\n    p = F(a)\n    p.x = 3\n    return p.x\n",
     "FrozenInstance: cannot assign to field 'x' of F (CPython raises FrozenInstanceError)"),
    ("def f(a: int) -> int:\n    p = F(a)\n    p.x += 1\n    return p.x\n", "FrozenInstance"),
    ("def f(a: int) -> int:\n    return len(F(a, [a]).tags)\n", "CallSignature: F() takes 1 argument(s)"),
    ("def f(a: int) -> int:\n    return len(F(a, tags=[a]).tags)\n",
     "CallKeywords: F() has no keyword parameter 'tags'"),
    ("def f(a: int) -> str:\n    return repr(P(a))\n", "FormatType: !r of a P"),
    ("def f(a: int) -> bool:\n    return P(a) < P(a)\n", "CompareTypes: P values are not ordered"),
    ("def f(a: int) -> int:\n    return len({F(a)})\n", "KeyType: F cannot be a set member natively"),
])
def test_what_the_generated_dunders_would_change_is_refused(body, why):
    assert why in why_not(body)


@pytest.mark.parametrize("head, why", [
    ("from dataclasses import dataclass\n@dataclass(slots=True)\nclass P:\n    x: int\n",
     "dataclass(slots=...) is not supported natively"),
    ("from dataclasses import dataclass\n@dataclass(init=False)\nclass P:\n    x: int\n",
     "dataclass(init=False) is not supported natively"),
    ("from dataclasses import dataclass, field\n@dataclass\nclass P:\n    x: int = field(repr=False)\n",
     "field(repr=...) is not supported natively"),
    ("from dataclasses import dataclass, field\n@dataclass\nclass P:\n    x: int = field(default_factory=lambda: 1)\n",
     "field(default_factory=...) is not supported natively"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int = 0\n    y: int\n",
     "non-default argument 'y' follows default argument"),
    ("from dataclasses import dataclass\n@dataclass\nclass B:\n    x: int\n@dataclass\nclass P(B):\n    y: int\n",
     "dataclass P has a base class"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nclass Q(P):\n    pass\n",
     "Q derives from P (a dataclass or NamedTuple)"),
    ("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\n\n"
     "    def bump(self) -> None:\n        self.x += 1\n", "FrozenInstance: cannot assign to field 'x'"),
    ("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\n\n"
     "    def __init__(self, x: int) -> None:\n        self.x = x\n", "FrozenInstance: cannot assign to field 'x'"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n\n"
     "    def __post_init__(self) -> None:\n        self.x += 1\n", "method __post_init__ is not supported natively"),
])
def test_dataclass_forms_without_an_exact_native_meaning_are_refused(head, why):
    assert why in why_not("\n\ndef f(a: int) -> int:\n    return P(a).x\n", head)


def test_eq_false_keeps_identity_and_none_tests_compile():
    assert why_not("@dataclass(eq=False)\nclass N:\n    x: int\n\n\ndef f(a: int) -> bool:\n"
                   "    return N(a) == N(a)\n") is None
    assert why_not("def f(a: int) -> bool:\n    p = P(a)\n    q = None if a else p\n    return q == None\n") is None


def test_keyword_arguments_out_of_order_in_a_call_returning_none_are_refused():
    head = HEAD + "@dataclass\nclass Bag:\n    n: int = 0\n\n    def put(self, a: int, b: int) -> None:\n" \
        "        self.n += a - b\n\n\ndef g(x: int) -> int:\n    return x\n\n\n"
    assert "CallOrder: keyword arguments out of parameter order" in why_not(
        "def f(a: int) -> int:\n    bag = Bag()\n    bag.put(b=g(a), a=g(1))\n    return bag.n\n", head)
    assert why_not("def f(a: int) -> int:\n    bag = Bag()\n    bag.put(a=g(1), b=g(a))\n    return bag.n\n",
                   head) is None


NAMED_TUPLE = "from typing import NamedTuple\n\n\nclass P(NamedTuple):\n    x: int\n    y: int = 0\n\n\n"


@pytest.mark.parametrize("body, why", [
    ("def f(a: int) -> int:\n    return P(a)[0]\n", "Subscript: P is not subscriptable natively"),
    ("def f(a: int) -> int:\n    x, y = P(a)\n    return x\n", "Unpack: unpacking P into 2 names"),
    ("def f(a: int) -> int:\n    return len(P(a))\n", "Builtin: len() of (P)"),
    ("def f(a: int) -> bool:\n    return P(a) == (a, 0)\n", "DataclassEq: comparing P with tuple[int, int]"),
    ("def f(a: int) -> bool:\n    return isinstance(P(a), tuple)\n",
     "NamedTuple: isinstance() of a P (a NamedTuple, a tuple in CPython) with a builtin type"),
    ("def f(a: int) -> int:\n    p = P(a)\n    p.x = 2\n    return p.x\n",
     "FrozenInstance: cannot assign to field 'x' of P (CPython raises AttributeError: can't set attribute)"),
    ("def f(a: int) -> int:\n    return P(a)._replace(x=1).x\n", "UnknownMethod: P has no method '_replace'"),
    ("def f(a: int) -> int:\n    return len(list(P(a)))\n", "ForIter: iterating P"),
])
def test_what_makes_a_named_tuple_a_tuple_is_refused(body, why):
    assert why in why_not(body, NAMED_TUPLE)


def test_a_named_tuple_without_fields_is_refused():
    head = "from typing import NamedTuple\n\n\nclass E(NamedTuple):\n    pass\n\n\n"
    assert "NamedTuple without fields (always false)" in why_not("def f(a: int) -> bool:\n    return bool(E())\n", head)
