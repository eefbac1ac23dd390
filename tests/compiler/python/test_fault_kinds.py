"""The fault kinds are defined once, in module_abi.h (and codegen/core.h for
the program's classes): the frontend's numbers and class names, and the
texts module_loader.cc puts in front of a fault for loader.py to read, must
say what the headers say. A kind added on one side only fails here."""
import os
import re

from native import exceptions, excclasses, loader

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "runtime", "compiler")


def read(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return f.read()


def fault_kinds():
    """{name: value} of enum SpineFaultKind in module_abi.h."""
    enum = re.search(r"enum SpineFaultKind \{(.*?)\};", read("include", "spine", "compiler", "module_abi.h"), re.S)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"SPINE_FAULT_(\w+) = (\d+)", enum.group(1))}


def test_the_frontends_kinds_are_the_headers():
    kinds = fault_kinds()
    core = read("include", "spine", "compiler", "codegen", "core.h")
    # FaultClassName: the builtin class of each kind native code raises.
    names = {kinds[k]: name for k, name in re.findall(r"case SPINE_FAULT_(\w+): return \"(\w+)\";", core)}
    assert names == {kind: name for name, kind in exceptions._NATIVE_RAISES.items()}
    assert int(re.search(r"kFirstClassFault = (\d+);", core).group(1)) == excclasses.FIRST_KIND
    assert max(kinds.values()) < excclasses.FIRST_KIND


def test_the_loader_reads_the_prefixes_the_module_loader_writes():
    source = read("src", "module_loader.cc")
    prefixes = dict(re.findall(r"case SPINE_FAULT_(\w+):\s*rt::SetLastError\([^,]+, \(std::string\(\"([^\"]+)\"\)",
                               source))
    assert prefixes["CLASS"] == loader._PROGRAM_CLASS
    assert prefixes["CALLED"] == loader._CALLED
    assert {p: cls.__name__ for p, cls in loader._PREFIXED.items()} == \
        {prefixes[k]: name for k, name in (("ZERODIV", "ZeroDivisionError"), ("RUNTIME", "RuntimeError"))}
