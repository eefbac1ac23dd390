"""Errors of the native frontend."""


class CompileError(Exception):
    """A construct the frontend does not support (or a type rule it breaks).

    ``line`` and ``col`` are 1-based / 0-based like Python's ``ast``; ``construct``
    names the rejected syntax (an ``ast`` node class name or a rule name).
    """

    def __init__(self, node, construct, message=None):
        self.line = getattr(node, "lineno", 0)
        self.col = getattr(node, "col_offset", 0)
        self.construct = construct
        text = message or f"unsupported construct {construct}"
        super().__init__(f"line {self.line}, column {self.col}: {construct}: {text}")
