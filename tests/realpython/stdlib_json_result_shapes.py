# expect: ok
# value: {"list": [1, "two", 3.0], "tuple": [1, 2], "nested": {"a": {"b": [null, true, false]}}, "empty": [{}, [], ""], "unicode": "é中😀"}
# Result values of every JSON shape; tuples become lists.
result = {"list": [1, "two", 3.0], "tuple": (1, 2), "nested": {"a": {"b": [None, True, False]}}, "empty": [{}, [], ""], "unicode": "\u00e9\u4e2d\U0001f600"}
