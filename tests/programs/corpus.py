"""The differential corpus: one program per `.py` file, expectation in its header.

A fixture starts with comment lines of the form `# key: value`, one per key:

    # inputs: {"item": 3}          JSON object, optional, default {}
    # value: {"x": 21}             JSON of the expected `result`
    # error: RuntimeError: boom    exact "Type: message"; exclusive with value
    # stdout: "a\\nb\\n"            JSON string, optional, default ""
    # emitted: [1, 2]              JSON list of the values passed to emit, optional, default []

Exactly one of `value` and `error` is required (`# value: null` for a program
that sets no `result`). The header ends at the first line that is not such a
comment. The program is the whole file, header included (the header lines are
comments), so line numbers in the file are the program's line numbers.

Every program must give this outcome both plain and with PLM; `manifest.json`
beside this file is the manifest the corpus runs with.
"""
import json
import os
import re
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
_HEADER = re.compile(r"^# (inputs|value|error|stdout|emitted): (.*)$")


@dataclass
class Case:
    name: str
    path: str
    source: str
    inputs: dict = field(default_factory=dict)
    value: object = None
    error: str = None       # "Type: message", or None when a value is expected
    stdout: str = ""
    emitted: list = field(default_factory=list)


def parse_case(path):
    """Parse one fixture; raises ValueError naming the file on a malformed header."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    fields = {}
    for line in source.splitlines():
        match = _HEADER.match(line)
        if match is None:
            break
        key, text = match.groups()
        if key in fields:
            raise ValueError(f"{path}: duplicate header {key!r}")
        try:
            fields[key] = text if key == "error" else json.loads(text)
        except ValueError as error:
            raise ValueError(f"{path}: header {key!r} is not JSON: {error}") from None
    if ("value" in fields) == ("error" in fields):
        raise ValueError(f"{path}: exactly one of 'value' and 'error' is required")
    case = Case(name=os.path.splitext(os.path.basename(path))[0], path=path, source=source,
                inputs=fields.get("inputs", {}), value=fields.get("value"),
                error=fields.get("error"), stdout=fields.get("stdout", ""),
                emitted=fields.get("emitted", []))
    if not isinstance(case.inputs, dict) or not isinstance(case.stdout, str) or not isinstance(case.emitted, list):
        raise ValueError(f"{path}: inputs must be an object, stdout a string, emitted a list")
    return case


def load_corpus(directory=HERE):
    """Every `*.py` fixture in `directory` except this module, sorted by name."""
    names = sorted(n for n in os.listdir(directory)
                   if n.endswith(".py") and n != "corpus.py" and not n.startswith("_"))
    return [parse_case(os.path.join(directory, n)) for n in names]


def load_manifest(directory=HERE):
    with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)
