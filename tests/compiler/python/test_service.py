"""The compile service (guest/native/service.py) on hostile input: the source
is untrusted, so nothing in it may become C++ of its choosing. Whatever the
frontend accepts must compile to code that computes what CPython computes;
everything else is refused with a reason, and nothing is left half-written."""
import os
import tempfile

import pytest

from native import module_loader
from native.service import handle

INJECTIONS = [
    # A string constant that closes the literal and calls system().
    'def f(x: int) -> int:\n    s = "\\"); system(\\"touch {marker}\\"); //"\n    return x\n',
    # The same through a docstring, and a comment that would end a C++ comment.
    'def f(x: int) -> int:\n    """*/ system("touch {marker}"); /*"""\n    return x  # */ system("touch {marker}");\n',
    # Raw strings, backslashes and a newline escape.
    "def f(x: int) -> int:\n    s = r'\\\" ); system(\"touch {marker}\"); (\"\\\\n'\n    return x\n",
    # Identifiers C++ does not have: non-ASCII names.
    "def f(x: int) -> int:\n    \u00f1 = x\n    \u00e9 = \u00f1 + 1\n    return \u00e9 - 1\n",
    # A name made to collide with generated symbols.
    "def f(x: int) -> int:\n    v_x = x\n    t_0 = v_x\n    f_f = t_0\n    return f_f\n",
]


CLASS_RESULT = "class P:\n    def __init__(self, x: int) -> None:\n        self.x = x\n\n\n" \
    "def f(x: int) -> P:\n    return P(x)\n"


@pytest.mark.parametrize("template", INJECTIONS)
def test_injection_never_becomes_code(tmp_path, monkeypatch, template):
    marker = tmp_path / "pwned"
    source = template.format(marker=marker)
    modules, private = tmp_path / "modules", tmp_path / "private"
    modules.mkdir()
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))  # the service's $TMPDIR
    out, kept = str(modules / "m.so"), str(private / "m.cc")
    answer = handle({"id": 1, "name": "f", "source": source, "out": out, "keep_source": kept})
    if answer["ok"]:
        namespace = {}
        exec(source, namespace)
        fast = module_loader(out).get_function("f")
        for x in (0, 1, -5, 2 ** 40):
            assert fast(x) == namespace["f"](x)
        assert os.listdir(private) == ["m.cc"]  # the C++ is kept apart from the module
    else:
        assert answer["kind"] == "unsupported" and answer["message"]
        assert not os.path.exists(out) and os.listdir(private) == []
    assert not marker.exists()
    assert os.listdir(modules) == (["m.so"] if answer["ok"] else [])


@pytest.mark.parametrize("request_, kind", [
    ({"id": 1, "name": 'f"); system("x', "source": "def f(x: int) -> int:\n    return x\n", "out": "/tmp/x.so"},
     "invalid"),
    ({"id": 2, "name": "f", "source": "def f(x: int) -> int:\n    return x\n", "out": "relative.so"}, "invalid"),
    ({"id": 3, "name": "g", "source": "def f(x: int) -> int:\n    return x\n", "out": "/tmp/x.so"}, "invalid"),
    ({"id": 4, "name": "f", "source": "import os\nos.system('true')\n", "out": "/tmp/x.so"}, "unsupported"),
    ({"id": 5, "name": "f", "source": "(" * 5000, "out": "/tmp/x.so"}, "unsupported"),
    ({"id": 6, "name": 5}, "invalid"),
    ({"id": 8, "name": "f", "source": "def f(x: int) -> int:\n    return x\n", "out": "/tmp/x.so",
      "keep_source": "relative.cc"}, "invalid"),
    ([1, 2], "invalid"),
    # Compiles, but Python could not load it: a class result has no registry entry.
    ({"id": 9, "name": "f", "source": CLASS_RESULT, "out": "/tmp/x.so"}, "unsupported"),
])
def test_bad_requests_are_refused(request_, kind):
    answer = handle(request_)
    assert answer["ok"] is False and answer["kind"] == kind, answer


def test_what_cannot_load_is_never_compiled(tmp_path):
    out = str(tmp_path / "m.so")
    answer = handle({"id": 1, "name": "f", "source": CLASS_RESULT, "out": out})
    assert answer["ok"] is False and answer["construct"] == "Signature" and answer["line"] == 6, answer
    assert not os.path.exists(out)
