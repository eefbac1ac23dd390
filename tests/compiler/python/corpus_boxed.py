"""Differential corpus of boxed values as typed code uses them: `Any`,
`object`, `Union[A, B]`, bare `list` / `dict` and `List` / `Dict` without
parameters, `Dict[str, Any]` records as agents and JSON munging build them,
`-> None` helpers changing a bare list passed in, and locals that receive
typed and boxed values alike. Each runs natively and under CPython
(test_boxed.py) on edge values: empty containers, mixed element types,
Unicode, int64 bounds and bigger ints, None."""
from typing import Any, Dict, List, Union


def total(xs: list) -> int:
    t = 0
    for x in xs:
        t = t + x
    return t


def total_any(xs: List[Any]) -> Any:
    t = 0
    for x in xs:
        t += x
    return t


def count_words(words: List[str]) -> dict:
    counts: Dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts


def get_name(rec: Dict[str, Any]) -> str:
    return str(rec["name"])


def get_name_or(rec: Dict[str, Any], default: str) -> Any:
    return rec.get("name", default)


def as_float(x: Union[int, float]) -> float:
    return float(x)


def evens(n: int) -> list:
    return [i for i in range(n) if i % 2 == 0]


def identity(x: Any) -> Any:
    return x


def first(xs: list) -> Any:
    return xs[0]


def last_or_none(xs: list) -> Any:
    if not xs:
        return None
    return xs[-1]


def length(x: Any) -> int:
    return len(x)


def add(a: Any, b: Any) -> Any:
    return a + b


def arith(a: Any, b: Any) -> Any:
    return [a - b, a * b, a // b, a % b, a / b]


def mixed_arith(a: Any, n: int) -> Any:
    return a * n + n


def describe(x: Any) -> str:
    return f"value={x}"


def describe_repr(x: object) -> str:
    return f"{x!r} / {x:>6}"


def kind_of(x: Any) -> str:
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    if isinstance(x, str):
        return "str"
    if isinstance(x, (list, tuple)):
        return "sequence"
    if isinstance(x, dict):
        return "mapping"
    if x is None:
        return "none"
    return "other"


def is_truthy(x: Any) -> bool:
    if x:
        return True
    return False


def same_or_equal(left: Any, right: Any) -> List[bool]:
    return [left == right, left != right, left is right]


def less(a: Any, b: Any) -> bool:
    return a < b


def contains(xs: list, x: Any) -> bool:
    return x in xs


def contains_key(d: dict, k: Any) -> bool:
    return k in d


def append_all(dst: list, src: list) -> None:
    for x in src:
        dst.append(x)


def push_twice(xs: list, x: Any) -> None:
    xs.append(x)
    xs.append(x)


def set_field(rec: Dict[str, Any], key: str, value: Any) -> None:
    rec[key] = value


def pick(rec: Dict[str, Any], keys: List[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k in keys:
        if k in rec:
            out[k] = rec[k]
    return out


def merge(a: Dict[str, Any], b: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k in a:
        out[k] = a[k]
    for k in b:
        out[k] = b[k]
    return out


def flatten(rows: list) -> list:
    out = []
    for row in rows:
        for x in row:
            out.append(x)
    return out


def keys_of(d: dict) -> list:
    return [k for k in d]


def values_as_text(d: Dict[str, Any]) -> List[str]:
    return [str(d[k]) for k in d]


def summarize(records: List[Dict[str, Any]]) -> str:
    parts: List[str] = []
    for r in records:
        parts.append(f"{r.get('id', '?')}:{r.get('status', 'unknown')}")
    return ", ".join(parts)


def total_field(records: List[Dict[str, Any]], field: str) -> Any:
    t: Any = 0
    for r in records:
        t = t + r.get(field, 0)
    return t


def deep_get(data: Any, a: str, b: str) -> Any:
    return data[a][b]


def index_of(xs: list, x: Any) -> int:
    i = 0
    for y in xs:
        if y == x:
            return i
        i += 1
    return -1


def max_of(xs: list) -> Any:
    best = xs[0]
    for x in xs:
        if x > best:
            best = x
    return best


def count_truthy(xs: list) -> int:
    n = 0
    for x in xs:
        if x:
            n += 1
    return n


def repeat_list(x: Any, n: int) -> list:
    out = []
    for _ in range(n):
        out.append(x)
    return out


def pair(a: Any, b: Any) -> tuple:
    return (a, b)


def to_int(x: Any) -> int:
    return int(x)


def clamp_any(x: Union[int, float], lo: int, hi: int) -> Union[int, float]:
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def negate(x: Any) -> Any:
    return -x


def scale_all(xs: list, k: Union[int, float]) -> list:
    return [x * k for x in xs]


def safe_div(a: Any, b: Any) -> Any:
    if b == 0:
        return None
    return a / b


def tag_all(items: List[Any], tag: str) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for it in items:
        out.append({"tag": tag, "value": it})
    return out


def status_counts(records: List[Dict[str, Any]]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for r in records:
        s = str(r.get("status", "none"))
        counts[s] = counts.get(s, 0) + 1
    return counts


def bump(counter: dict, item: Any) -> None:
    counter[item] = counter.get(item, 0) + 1


def range_of(n: Any) -> List[int]:
    return [i for i in range(n)]


def upper_all(xs: list) -> list:
    return [x.upper() for x in xs]


def join_any(xs: list, sep: str) -> str:
    return sep.join([str(x) for x in xs])


def width(x: Union[str, List[int]]) -> int:
    return len(x) * 2


def double_number(x: Any) -> Any:
    if isinstance(x, int):
        return x * 2
    if isinstance(x, str):
        return x + x
    return x


def normalize(value: Union[int, str]) -> int:
    if isinstance(value, str):
        return len(value)
    return value


def describe_all(items: list) -> List[str]:
    out: List[str] = []
    for it in items:
        if isinstance(it, str):
            out.append(it.upper())
        elif isinstance(it, float):
            out.append(f"{it:.2f}")
        else:
            out.append(str(it))
    return out


def with_default(x: Any = None, n: int = 2) -> Any:
    if x is None:
        return n
    return x


def as_row(a: int, label: str) -> list:
    return [a, label, None, a > 0]


def render(d: Dict[str, Any]) -> List[str]:
    out: List[str] = []
    for k, v in d.items():
        out.append(f"{k}={v}")
    return out
