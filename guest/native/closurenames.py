"""How a module names the pieces of a closure factory that crosses into
Python, shared by the compiler (factories.py, crossing.py) and the loader
(closureloader.py), which reads them back from the module's registry.

A factory `F` compiles to `F__in__0state` (its body, returning the closure
it made as `(i, captures...)`) and one function per closure it returns,
`F__in__<i>closure<k>_<name>`: closure i's body, taking its parameters,
then its captures. `<name>` is the Python function's `__name__` (`lambda`
for `<lambda>`, a keyword no def can be named) and `<k>` says which of the
factory's nested code objects of that name it is, in the order CPython's
compiler makes them (its `co_consts`), so the loader can give it the very
code object CPython would have run. A nested def cannot be named `0state`
nor `<digits>closure...` (an identifier starts with no digit), so these
names never meet a lifted nested def's `F__in__<def name>`."""
import re

_SEP = "__in__"


def state_name(factory):
    return f"{factory}{_SEP}0state"


def body_name(factory, index, ordinal, py_name):
    return f"{factory}{_SEP}{index}closure{ordinal}_{'lambda' if py_name == '<lambda>' else py_name}"


def bodies_of(factory, names):
    """{closure index: (body function name, its Python __name__, which code object of that
    name)} for @p factory among the function @p names of a module."""
    pattern = re.compile(re.escape(factory + _SEP) + r"([1-9][0-9]*|0)closure([0-9]+)_(.+)\Z")
    out = {}
    for name in names:
        m = pattern.match(name)
        if m:
            py_name = "<lambda>" if m.group(3) == "lambda" else m.group(3)
            out[int(m.group(1))] = (name, py_name, int(m.group(2)))
    return out


def factory_of_state(name):
    """The factory whose state function @p name is, or None."""
    suffix = _SEP + "0state"
    return name[:-len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else None


def factory_of_body(name):
    """The factory whose closure body @p name is, or None."""
    m = re.match(r"(.+?)" + re.escape(_SEP) + r"(?:[1-9][0-9]*|0)closure[0-9]+_.+\Z", name)
    return m.group(1) if m else None
