"""Differential tests over corpus_classes (class hierarchies and Optional
class references as typed code writes them): every entry point, compiled
natively, gives CPython's value or raises CPython's exception with its
message (differential.py: the native answer itself, no Python fallback).
Reading an attribute of None or casting to a class the object is not of is
an explicit decline: CPython then runs the function and raises its own
AttributeError, which the tests below check through the fallback."""
import typing

import pytest

import corpus_classes as corpus
from differential import corpus_tests, inputs_by, python_callable
from native import NativeFallback, check_eligible, parse_module
from native.errors import CompileError

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, 2, 3, -1, 7, 12, -20], str: ["", "a", "héllo"],
           typing.List[int]: [[], [0], [5], [3, 1, 2, 1], [-1, 5, -1, 7], [1, 2, 3], [INT64_MAX, INT64_MIN],
                              [9, -2, 9, 4, 4, 4, 0], [8, 3, 10, 1, 6, 14, 4, 7, 13],
                              [50, 30, 70, 20, 40, 60, 80, 30], list(range(12)), [5, 4, 3, 2, 1, 0, -1]],
           typing.List[str]: [[], ["dog"], ["puppy", "dodo", "robin"], ["", "p", "d", "héron"], ["pip"] * 5,
                              ["daisy", "pluto", "dino", "tweety", "polly"]]}
BY_NAME = {"n": [0, 1, 2, 3, 5, 8], "size": [0, 1, 2, 5, -1, -3], "kind": [0, 1, 4, 5, 8, 2],
           "k": [0, 1, 2, -1], "pops": [0, 1, 2, 5], "limit": [0, 1, 2, 4, 9], "times": [0, 1, 2, -1],
           "digits": ["", "7", "12", "907", "1234", "5050", "98765", "2468024"], "start": [0, 50, 150, 1000, -5],
           "amounts": [[], [10], [10, 20, 30], [200, 5, 99, 100], [1000], [-5, 7], [40, 40, 40, 40, 40, 40]]}


FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 19, 400))


def test_helpers_with_class_signatures_compile_as_native_helpers():
    with open(corpus.__file__) as f:
        reasons = dict(check_eligible(f.read()))
    for name in ("make_shape", "build_expr"):
        assert reasons[name] == "class instances cannot cross into Python"


def test_attribute_of_none_is_cpythons_attribute_error(suite):
    f = suite.module.get_function("linked_length_after")
    with pytest.raises(NativeFallback):
        f([1, 2], 3)
    g = suite.module.get_function("linked_length_after", fallback=corpus.linked_length_after)
    with pytest.raises(AttributeError, match="^'NoneType' object has no attribute 'next'$"):
        g([1, 2], 3)
    with pytest.raises(AttributeError, match="^'NoneType' object has no attribute 'value'$"):
        g([1, 2], 2)
    assert g([4, 5, 6], 2) == 4 and g.fallbacks == 2


def test_cast_to_another_class_is_cpythons(suite):
    f = suite.module.get_function("rect_width")
    assert f(1, 3) == 3 and f(0, 4) == 4
    with pytest.raises(NativeFallback):
        f(2, 3)  # a Triangle: typing.cast does not check, the field read fails in CPython
    g = suite.module.get_function("rect_width", fallback=corpus.rect_width)
    with pytest.raises(AttributeError, match="^'Triangle' object has no attribute 'w'$"):
        g(2, 3)


def test_methods_resolve_as_in_cpython(suite):
    chorus = suite.module.get_function("chorus")
    assert chorus(2) == "rex: woof woof | bit: yip yip | kiwi: TWEET TWEET | fish: ... ..."
    with pytest.raises(ValueError, match="^rex cannot speak -1 times$"):
        chorus(-1)
    assert suite.module.get_function("shapes_summary")(4, 2) == \
        "rect(6/10), square(4/8), triangle(0/6), point(0/0)"


REJECTED = [
    ("class A:\n    def m(self) -> int:\n        return 1\nclass B(A):\n    def m(self) -> str:\n"
     "        return 'b'\n", "Override"),
    ("class A:\n    x: int = 1\nclass B(A, object):\n    pass\n", "FieldDefault"),
    ("class A:\n    def __init__(self) -> None:\n        self.x = 1\nclass B:\n    def m(self) -> int:\n"
     "        return A.__init__(self)\n", "UnboundMethod"),
    ("class A:\n    def __init__(self) -> None:\n        self.x = 1\ndef f(k: int) -> int:\n"
     "    a = A()\n    return 1 if a is None else 2\n" , None),
    ("from typing import Union\ndef f(k: Union[int, bytes]) -> int:\n    return 1\n", "Annotation"),
]


@pytest.mark.parametrize("source,construct", REJECTED)
def test_what_stays_python_says_why(source, construct):
    if construct is None:
        parse_module(source)  # `is None` of a class reference compiles
        return
    with pytest.raises(CompileError) as info:
        parse_module(source + "def g(x: int) -> int:\n    return x\n")
    assert info.value.construct == construct, str(info.value)
