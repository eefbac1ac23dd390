"""Differential tests over corpus_exception_classes: the program's own
exception classes raised natively and matched along the class hierarchy; one
no clause takes reaches Python as the program's class (same type, args and
message). Every answer is the native function's own (differential.py: no
Python fallback)."""
import typing

import pytest

import corpus_exception_classes as corpus
from differential import corpus_tests, inputs_by, python_callable
from native import NativeFallback, check_eligible, module_loader, simple_compile

INT64_MAX, INT64_MIN = 2 ** 63 - 1, -(2 ** 63)

BY_TYPE = {int: [0, 1, -3, 7, 12, 70000, INT64_MIN], str: ["", "80", "0", "x1", "70000"],
           typing.List[str]: [[], ["80"], ["22", "x", "0", "99999", "443"], ["-1", "65535", "65536"]],
           typing.List[int]: [[], [3], [1, 7, 0, -2, 60], [5, 12, 4], [2000, 3], [INT64_MAX]],
           typing.Dict[str, str]: [{}, {"port": "8080", "host": "example"}, {"port": "", "name": "x"},
                                   {"port": "99999"}],
           typing.Dict[str, int]: [{}, {"id": 4, "count": 10}, {"id": 1, "count": 2, "total": 30, "extra": 9}]}
BY_NAME = {"key": ["port", "host", "name", "missing"], "default": ["none"],
           "fields": [[], ["id"], ["id", "count", "total"], ["name", "id"], ["total", "bogus", "count"]],
           "field": ["id", "total", "bogus"], "target": [0, 7, 5], "a": [7, 3, 2000], "b": [0, 5, 9],
           "low": [0, 5], "high": [10], "name": ["size"]}

FUNCTIONS = python_callable(corpus)
inputs_for = inputs_by(BY_NAME, BY_TYPE)

globals().update(corpus_tests(corpus, FUNCTIONS, inputs_for, 17, 200))


def test_an_uncaught_program_exception_is_the_programs_class(suite):
    f = suite.module.get_function("setting", signature=corpus.setting)
    with pytest.raises(corpus.MissingSetting) as e:
        f({}, "port")
    assert type(e.value) is corpus.MissingSetting and e.value.args == ("no setting 'port'",)
    lookup = suite.module.get_function("field_value", signature=corpus.field_value)
    with pytest.raises(corpus.UnknownField) as e:
        lookup({}, "bogus")
    # A KeyError subclass: str() is the repr of its argument, as CPython's.
    assert e.value.args == ("bogus",) and str(e.value) == "'bogus'"


@pytest.mark.parametrize("source, construct", [
    # A class with behaviour of its own is not a plain exception class.
    ("class Bad(ValueError):\n    def __str__(self):\n        return 'bad'\n"
     "def f(x: int) -> int:\n    try:\n        return 1 // x\n    except Bad:\n        return -1\n", "DunderMethod"),
    # str() of a KeyError subclass is its argument's repr.
    ("class Missing(KeyError):\n    pass\n"
     "def f(x: int) -> str:\n    try:\n        raise Missing('k')\n    except Missing as e:\n        return str(e)\n",
     "ExceptAs"),
    # Where handlers take CPython's exception objects, the program's classes are not matched natively.
    ("from typing import Any\nclass Bad(ValueError):\n    pass\ndef f(x: Any) -> int:\n    try:\n"
     "        return len(x)\n    except Bad:\n        return -1\n", "Except"),
])
def test_what_stays_unsupported_is_refused_clearly(source, construct):
    why = dict(check_eligible(source))["f"]
    assert why is not None and construct in why, why


def test_a_message_too_long_to_carry_with_its_class_name_lets_cpython_raise_it(tmp_path):
    source = ("class ValidationError(ValueError):\n    pass\n"
              "def reject(n: int) -> int:\n    raise ValidationError('x' * n)\n")
    simple_compile(source, str(tmp_path / "reject.so"))
    module = module_loader(str(tmp_path / "reject.so"))
    namespace = {}
    exec(source, namespace)
    native = module.get_function("reject", signature=namespace["reject"])
    with pytest.raises(namespace["ValidationError"]) as e:
        native(10)
    assert e.value.args == ("x" * 10,)
    # "ValidationError: " and 500 bytes do not fit the fault's 512: no cut message, CPython's own.
    with pytest.raises(NativeFallback, match="message raised in Python"):
        native(500)
    fallback = module.get_function("reject", fallback=namespace["reject"])
    with pytest.raises(namespace["ValidationError"]) as e:
        fallback(500)
    assert e.value.args == ("x" * 500,) and fallback.fallbacks == 1
