# expect: ok
# value: ["[0, 1, 2, 3, 4, 5, ...]", true, false, true]
# reprlib, keyword, builtins.
import reprlib, keyword
result = [reprlib.repr(list(range(100))), keyword.iskeyword("async"), keyword.iskeyword("match"), len(keyword.kwlist) > 30]
