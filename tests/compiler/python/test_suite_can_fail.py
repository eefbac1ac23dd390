"""The differential check must fail when native code is wrong: each mutant
below is compiled under the name of a corpus function and checked against
that function's CPython version, exactly as the corpus suites check the real
module. A check that passed one of them would compare CPython with itself."""
import pytest

import corpus
import corpus_callables
import corpus_class_protocols
import corpus_closures
import corpus_closures_cross
import corpus_boxed
import corpus_boxed_try
import corpus_containers
import corpus_dataclasses
import corpus_defaultdicts
import corpus_exception_classes
import corpus_formatting
import corpus_heaps
import corpus_numeric_builtins
import corpus_optional
import corpus_print
import corpus_raise_args
import corpus_set_args
import corpus_sets
import corpus_str_methods
import corpus_try_finally
import corpus_vartuple
import test_callables
import test_class_protocols
import test_closures
import test_closures_cross
import test_boxed
import test_boxed_try
import test_containers
import test_dataclasses
import test_defaultdicts
import test_differential
import test_exception_classes
import test_formatting
import test_heaps
import test_numeric_builtins
import test_optional
import test_print
import test_raise_args
import test_set_args
import test_sets
import test_str_methods
import test_try_finally
import test_vartuple
from differential import Suite, printed_outcome
from native import NativeFallback, NativeFunction, module_loader, simple_compile

MUTANTS = {
    # len() of an instance without CPython's check of __len__'s result (a negative length returned).
    "window_len": (corpus_class_protocols, test_class_protocols,
                   "class MutantWindow:\n    def __init__(self, start: int, end: int) -> None:\n"
                   "        self.start = start\n        self.end = end\n"
                   "    def length(self) -> int:\n        return self.end - self.start\n"
                   "def window_len(start: int, end: int) -> int:\n    return MutantWindow(start, end).length()\n"),
    # An instance's truth without its __bool__ (any instance true, as without the protocol).
    "fraction_truth": (corpus_class_protocols, test_class_protocols,
                       "class MutantFraction:\n    def __init__(self, num: int, den: int) -> None:\n"
                       "        if den == 0:\n            raise ZeroDivisionError('denominator is zero')\n"
                       "        self.num = num\n"
                       "def fraction_truth(num: int, den: int) -> list[bool]:\n    f = MutantFraction(num, den)\n"
                       "    return [bool(f), not f, bool(MutantFraction(1, 2))]\n"),
    # != as identity where CPython negates __eq__ (no __ne__ defined).
    "vector_compare": (corpus_class_protocols, test_class_protocols,
                       "class MutantVector:\n    def __init__(self, x: int, y: int) -> None:\n"
                       "        self.x = x\n        self.y = y\n"
                       "    def __eq__(self, o: 'MutantVector') -> bool:\n"
                       "        return self.x == o.x and self.y == o.y\n"
                       "    def __lt__(self, o: 'MutantVector') -> bool:\n"
                       "        return self.x * self.x + self.y * self.y < o.x * o.x + o.y * o.y\n"
                       "    def __le__(self, o: 'MutantVector') -> bool:\n"
                       "        return self.x * self.x + self.y * self.y <= o.x * o.x + o.y * o.y\n"
                       "def vector_compare(a: int, b: int) -> list[bool]:\n"
                       "    v, w, u = MutantVector(a, b), MutantVector(b, a), MutantVector(a, b)\n"
                       "    return [v == w, v is not w, v < w, v <= w, w < v, v == u, v is not u]\n"),
    # A wrong value.
    "add": (corpus, test_differential, "def add(a: int, b: int) -> int:\n    return a - b\n"),
    # The right exception type with another message.
    "floordiv": (corpus, test_differential,
                 "def floordiv(a: int, b: int) -> int:\n    if b == 0:\n        return a % b\n    return a // b\n"),
    # A body that always raises IndexError.
    "s_len": (corpus_containers, test_containers,
              "def s_len(s: str) -> int:\n    e: list[int] = []\n    return e[len(s) - len(s)]\n"),
    # A body that always says it cannot compute the call natively (an int64 overflow).
    "sub": (corpus, test_differential,
            "def sub(a: int, b: int) -> int:\n    big = 9223372036854775807\n    return a - b + (big + 1 - big)\n"),
    # Truth where `is None` was meant: 0 taken for None.
    "value_or_default": (corpus_optional, test_optional, "def value_or_default(x: int | None, default: int) -> int:\n"
                         "    if not x:\n        return default\n    return x\n"),
    # A list's IndexError message where a tuple's is due.
    "item_at": (corpus_vartuple, test_vartuple,
                "def item_at(values: tuple[int, ...], i: int) -> int:\n    return list(values)[i]\n"),
    # A list where CPython returns a tuple of the same items.
    "from_list": (corpus_vartuple, test_vartuple, "def from_list(xs: list[int]) -> list[int]:\n    return xs.copy()\n"),
    # A set's members in insertion order (what a set kept in insertion order would pop).
    "drain_in_pop_order": (corpus_sets, test_sets,
                           "def drain_in_pop_order(xs: list[int]) -> list[int]:\n    order: list[int] = []\n"
                           "    for x in xs:\n        if x not in order:\n            order.append(x)\n"
                           "    return order\n"),
    # The right members in a set built another way (sorted, no dummies): another table, another order.
    "without": (corpus_sets, test_sets,
                "def without(xs: list[int], ys: list[int]) -> set[int]:\n    s: set[int] = set()\n"
                "    for x in sorted(set(xs)):\n        if x not in ys:\n            s.add(x)\n    return s\n"),
    # A set argument written back by re-inserting its members (old ones in the caller's
    # order, then the new ones) instead of restoring the native table: the right members,
    # another order of iteration and of pop().
    "mark_seen": (corpus_set_args, test_set_args,
                  "def mark_seen(seen: set[str], words: list[str]) -> None:\n    kept = list(seen)\n"
                  "    for w in words:\n        if w not in kept:\n            kept.append(w)\n"
                  "    seen.clear()\n    for w in kept:\n        seen.add(w)\n"),
    # Money cut to cents instead of rounded to them.
    "money": (corpus_formatting, test_formatting,
              "def money(amount: float) -> str:\n    s = f'{amount:,.3f}'\n    return '$' + s[:len(s) - 1]\n"),
    # divmod as // and %: the right pair, but the zero divisor's message is floor division's.
    "split_float": (corpus_formatting, test_formatting,
                    "def split_float(a: float, b: float) -> tuple[float, float]:\n    return a // b, a % b\n"),
    # A valid heap, but not the one CPython's sift loops build.
    "heapify_order": (corpus_heaps, test_heaps,
                      "def heapify_order(xs: list[float]) -> list[float]:\n    return sorted(xs)\n"),
    # Closures made in a loop bound early (each its own i) where CPython's read the last i.
    "closures_in_loop": (corpus_callables, test_callables,
                         "def closures_in_loop(n: int) -> list[int]:\n    return [10 + i for i in range(n)]\n"),
    # Defaults read late (each lambda the last i) where CPython evaluated each where it was made.
    "adders_in_loop": (corpus_closures, test_closures,
                       "def adders_in_loop(n: int) -> list[int]:\n    return [10 + n - 1 for _ in range(n)]\n"),
    # A factory's closure reading its caller's rebound name instead of the value it was made with.
    "captured_before_rebinding": (corpus_closures, test_closures,
                                  "def captured_before_rebinding(n: int, x: int) -> int:\n    n = n * 1000\n"
                                  "    return x + n + n\n"),
    # A nested def that captured a local by value where it was defined, where CPython reads it when called.
    "running_offsets": (corpus_closures, test_closures,
                        "def running_offsets(xs: list[int]) -> list[int]:\n    return [x + 0 for x in xs]\n"),
    # A key lambda's default read late (the last column for every key) where CPython pinned each one.
    "best_per_column_pinned": (corpus_closures, test_closures,
                               "def best_per_column_pinned(rows: list[tuple[int, int]]) -> list[tuple[int, int]]:\n"
                               "    best = []\n    for i in range(2):\n"
                               "        best.append(max(rows, key=lambda r: r[1]) if rows else (0, 0))\n"
                               "    return best\n"),
    # A lifted def given the annotated local's first value (0), where CPython's reads it as the loop raises it.
    "new_highs": (corpus_closures, test_closures,
                  "def new_highs(xs: list[int]) -> int:\n    return len([x for x in xs if x > 0])\n"),
    # The late lambda given the value k had where it was made, as if it had a default too.
    "pinned_then_late": (corpus_closures, test_closures,
                         "def pinned_then_late(n: int, k: int) -> list[int]:\n"
                         "    return [2 + i * 10 for i in range(max(0, min(n, 4)))] + [2 * k]\n"),
    # Handlers stored in a loop bound early (each its own word) where CPython's read the last one.
    "length_handlers": (corpus_closures, test_closures,
                        "def length_handlers(words: list[str]) -> list[int]:\n    handlers = {}\n"
                        "    for w in words:\n        handlers[w] = 1 + len(w)\n    return list(handlers.values())\n"),
    # `==` where `is` was meant (1 == True, but 1 is not True).
    "same_or_equal": (corpus_boxed, test_boxed, "def same_or_equal(left: object, right: object) -> list[bool]:\n"
                      "    return [left == right, left != right, left == right]\n"),
    # `t = t + x` where `t += x` was written: CPython's TypeError names the operator `+=`.
    "total_any": (corpus_boxed, test_boxed, "def total_any(xs: list) -> object:\n    t: object = 0\n"
                  "    for x in xs:\n        t = t + x\n    return t\n"),
    # A clause taking a superclass of what was written: a KeyError caught where only IndexError is.
    "only_index_errors": (corpus_boxed_try, test_boxed_try,
                          "from typing import Any\ndef only_index_errors(container: Any, key: Any) -> Any:\n"
                          "    try:\n        return container[key]\n    except LookupError:\n"
                          "        return 'no such index'\n"),
    # The exception's message where its args were asked for (a KeyError's str is repr(key)).
    "missing_key_args": (corpus_boxed_try, test_boxed_try,
                         "from typing import Any\ndef missing_key_args(record: Any, key: Any) -> Any:\n"
                         "    try:\n        return (record[key],)\n    except KeyError as e:\n"
                         "        return (str(e),)\n"),
    # finally's work done on the normal path only: missing when an exception passes.
    "length_then_log": (corpus_boxed_try, test_boxed_try,
                        "from typing import Any\ndef length_then_log(x: Any) -> list:\n    log: list = ['start']\n"
                        "    try:\n        log.append(len(x))\n    except TypeError as e:\n"
                        "        log.append(str(e))\n        return log\n    log.append('end')\n    return log\n"),
    # One list shared by every instance (a mutable default) where default_factory makes one each.
    "separate_histories": (corpus_dataclasses, test_dataclasses,
                           "def separate_histories(n: int) -> list[int]:\n    shared: list[int] = []\n"
                           "    for i in range(n):\n        shared.append(i)\n    shared.append(5)\n"
                           "    return [len(shared), len(shared), shared[0]]\n"),
    # Keyword arguments evaluated in parameter order, not in the order written.
    "written_order": (corpus_dataclasses, test_dataclasses,
                      "def written_order(size: int, start: int) -> list[int]:\n    trace: list[int] = []\n"
                      "    trace.append(size)\n    trace.append(size % 3)\n    trace.append(start)\n"
                      "    trace.append(size + start + size % 3)\n    return trace\n"),
    # dataclass(eq=False) instances compared by their fields instead of by identity.
    "same_handles": (corpus_dataclasses, test_dataclasses,
                     "def same_handles(n: int) -> list[bool]:\n    return [n == n, True, n != n, True, False]\n"),
    # A NamedTuple's default left out where a call omits the field.
    "walk_moves": (corpus_dataclasses, test_dataclasses,
                   "def walk_moves(amounts: list[int]) -> str:\n    x = y = 0\n    labels: list[str] = []\n"
                   "    for a in amounts:\n        dx, dy, label = (a, -a // 2, '') if a % 2 else (a, 1, 'jump')\n"
                   "        x += dx\n        y += dy\n        labels.append(f'{label}:{abs(dx) + abs(dy)}')\n"
                   "    return f'{x},{y} ' + ' '.join(labels)\n"),
    # A defaultdict read of a missing key that does not insert it (as .get would).
    "reads_insert": (corpus_defaultdicts, test_defaultdicts,
                     "def reads_insert(words: list[str], probe: str) -> list[str]:\n"
                     "    counts: dict[str, int] = {}\n    for w in words:\n"
                     "        counts[w] = counts.get(w, 0) + 2\n    seen = counts.get(probe, 0)\n"
                     "    before = probe in counts\n    missing = counts.get(probe + '?', -1)\n"
                     "    out = [f'{k}={v}' for k, v in counts.items()]\n"
                     "    out.append(f'{seen}/{before}/{missing}/{len(counts)}')\n    return out\n"),
    # A Counter read of a missing key that inserts it (as a defaultdict's would).
    "counter_reads": (corpus_defaultdicts, test_defaultdicts,
                      "def counter_reads(xs: list[int], k: int) -> list[int]:\n    c: dict[int, int] = {}\n"
                      "    for x in xs:\n        c[x % 4] = c.get(x % 4, 0) + x\n    got = c.setdefault(k, 0)\n"
                      "    top = sorted(c.items(), key=lambda kv: kv[1], reverse=True)[:2]\n"
                      "    return [got, len(c), c.get(k + 1, -1), int(k in c)] + [v for _, v in top]\n"),
    # most_common's ties in key order instead of first-seen order.
    "top_words": (corpus_defaultdicts, test_defaultdicts,
                  "def top_words(words: list[str], k: int) -> list[tuple[str, int]]:\n    c: dict[str, int] = {}\n"
                  "    for w in words:\n        c[w] = c.get(w, 0) + 1\n"
                  "    return sorted(sorted(c.items()), key=lambda kv: kv[1], reverse=True)[:max(k, 0)]\n"),
    # .get that inserts the default, as a defaultdict read would.
    "get_does_not_insert": (corpus_defaultdicts, test_defaultdicts,
                            "def get_does_not_insert(words: list[str]) -> tuple[int, int]:\n"
                            "    counts: dict[str, int] = {}\n    hits = 0\n    for w in words:\n"
                            "        if counts.setdefault(w, 0) > 0:\n            hits += 1\n"
                            "        counts[w] = counts.setdefault(w, 0) + 1\n"
                            "        counts.setdefault(w + '!', 0)\n    return hits, len(counts)\n"),
    # The value read after finally changed its name, where CPython computed it before finally ran.
    "value_before_cleanup": (corpus_try_finally, test_try_finally,
                             "def value_before_cleanup(x: int) -> int:\n    total = x * 2\n    total = -1\n"
                             "    return total\n"),
    # finally's work done when the body ends normally only: skipped by continue and break.
    "sum_valid": (corpus_try_finally, test_try_finally,
                  "def sum_valid(values: list[int], limit: int) -> list[int]:\n    total = 0\n    seen = 0\n"
                  "    for v in values:\n        if v < 0:\n            continue\n        if v > limit:\n"
                  "            break\n        total += v\n        seen += 1\n    return [total, seen]\n"),
    # A continue in finally that lets the exception go on instead of dropping it.
    "divide_all": (corpus_try_finally, test_try_finally,
                   "def divide_all(values: list[int], divisor: int) -> list[int]:\n    out: list[int] = []\n"
                   "    for v in values:\n        try:\n            out.append(v // divisor)\n"
                   "        finally:\n            out.append(-1)\n    return out\n"),
    # finally's return replacing the body's return only, not its exception.
    "safe_div": (corpus_try_finally, test_try_finally,
                 "def safe_div(a: int, b: int) -> int:\n    if b == 0:\n        return a // b\n    return a // b\n"),
    # A clause taking only the class it names, not its subclasses: a ValidationError is a ValueError.
    "caught_by_builtin_base": (corpus_exception_classes, test_exception_classes,
                               "class ValidationError(ValueError):\n    pass\n"
                               "class RangeError(ValidationError):\n    pass\n"
                               "class ConfigError(Exception):\n    pass\n"
                               "class MissingSetting(ConfigError):\n    pass\n"
                               "def caught_by_builtin_base(value: int) -> str:\n    try:\n        if value <= 0:\n"
                               "            raise ValidationError(f'size must be positive, got {value}')\n"
                               "        return str(value)\n    except RangeError as e:\n"
                               "        return 'ValueError: ' + str(e)\n"),
    # The base class raised where the program raises its subclass: the caller sees another type.
    "setting": (corpus_exception_classes, test_exception_classes,
                "def setting(settings: dict[str, str], key: str) -> str:\n    if key not in settings:\n"
                "        raise ConfigError(f'no setting {key!r}')\n    value = settings[key]\n"
                "    if not value:\n        raise ConfigError(f'setting {key!r} is empty')\n    return value\n"),
    # A subclass's clause taking its base's exceptions too.
    "describe_setting": (corpus_exception_classes, test_exception_classes,
                         "def describe_setting(settings: dict[str, str], key: str) -> str:\n    try:\n"
                         "        if key not in settings:\n            raise MissingSetting(f'no setting {key!r}')\n"
                         "        if not settings[key]:\n            raise ConfigError(f'setting {key!r} is empty')\n"
                         "        return 'value ' + settings[key]\n    except ConfigError as e:\n"
                         "        return 'missing: ' + str(e)\n"),
    # Two arguments raised as one message: the same words, another str() and args.
    "parse_count": (corpus_raise_args, test_raise_args,
                    "class AgentError(Exception):\n    pass\nclass ToolError(AgentError):\n    pass\n"
                    "class BudgetExceeded(AgentError):\n    pass\n"
                    "def parse_count(text: str) -> int:\n    if not text:\n        raise ValueError\n"
                    "    if not text.isdigit():\n        raise ValueError('not a count ' + text)\n    return int(text)\n"),
    # str(e) where the handler reads repr(e).
    "describe_failure": (corpus_raise_args, test_raise_args,
                         "def describe_failure(text: str) -> str:\n    try:\n        return str(int(text))\n"
                         "    except ValueError as e:\n        return f'{type(e).__name__}: {e} / {e}'\n"),
    # A bare raise that raises another exception than the one taken.
    "strict_steps": (corpus_raise_args, test_raise_args,
                     "def strict_steps(steps: list[int]) -> int:\n    done = 0\n    for s in steps:\n"
                     "        try:\n            if s < 0:\n                raise ValueError(s)\n"
                     "            if s >= 10:\n                raise RuntimeError()\n        except RuntimeError:\n"
                     "            raise RuntimeError('again')\n        except ValueError:\n            continue\n"
                     "        done += 1\n    return done\n"),
    # The base class's name where the handler reads the class's own.
    "tool_status": (corpus_raise_args, test_raise_args,
                    "def tool_status(codes: list[int]) -> list[str]:\n    out: list[str] = []\n    for c in codes:\n"
                    "        try:\n            if c >= 500:\n                raise ToolError('server', c)\n"
                    "            if c == 429:\n                raise BudgetExceeded\n"
                    "            if c == 404:\n                raise ToolError(c)\n            out.append('ok')\n"
                    "        except AgentError as e:\n            out.append(repr(e))\n    return out\n"),
    # A key raised as its length: KeyError(2), not KeyError('id').
    "require_key": (corpus_raise_args, test_raise_args,
                    "def require_key(record: dict[str, int], key: str) -> int:\n    if key not in record:\n"
                    "        raise KeyError(len(key))\n    return record[key]\n"),
    # The base class (whose __init__ makes the args) raised where the program raises its subclass.
    "fetch": (corpus_raise_args, test_raise_args,
              "class HttpError(AgentError):\n    def __init__(self, message: str, status: int) -> None:\n"
              "        super().__init__(message)\n        self.status = status\n"
              "class PageMissing(HttpError):\n    pass\n"
              "def fetch(status: int) -> int:\n    if status >= 400:\n"
              "        raise HttpError('request failed', status)\n    return status\n"),
    # Ties rounded away from zero (C's round(), "half up"): round(2.5) is 3 where CPython says 2.
    "round_half_even": (corpus_numeric_builtins, test_numeric_builtins,
                        "def round_half_even(x: float) -> int:\n    return int(x + 0.5) if x >= 0 else int(x - 0.5)\n"),
    # Ties settled on the decimal digits as written, not on the exact double: round(2.675, 2)
    # is 2.68 here, CPython's 2.67 (the double is below the tie).
    "round_to_places": (corpus_numeric_builtins, test_numeric_builtins,
                        "def round_to_places(x: float, places: int) -> float:\n"
                        "    if places != 2:\n        return round(x, places)\n"
                        "    return round(x + 1e-9, 2)\n"),
    # The magnitude's bits without the sign: bin(-5) is '0b101' here, CPython's '-0b101'.
    "to_bin": (corpus_numeric_builtins, test_numeric_builtins,
               "def to_bin(n: int) -> str:\n    return '0b' + bin(abs(n))[2:]\n"),
    # A split that drops a trailing empty field ("a,b,".split(",") ends with "").
    "split_fields": (corpus_str_methods, test_str_methods,
                     "def split_fields(line: str, sep: str, maxsplit: int) -> list[str]:\n"
                     "    parts = line.split(sep, maxsplit)\n    if len(parts) > 1 and parts[-1] == '':\n"
                     "        parts.pop()\n    return parts\n"),
    # A count that ignores its start.
    "count_from": (corpus_str_methods, test_str_methods,
                   "def count_from(text: str, sub: str, start: int) -> int:\n    return text.count(sub)\n"),
    # A tuple of prefixes where the empty one never matches.
    "has_any_prefix": (corpus_str_methods, test_str_methods,
                       "def has_any_prefix(text: str, prefixes: tuple[str, ...]) -> bool:\n    for p in prefixes:\n"
                       "        if p and text.startswith(p):\n            return True\n    return False\n"),
    # Words split from the left where rsplit keeps the rest on the left.
    "rsplit_words": (corpus_str_methods, test_str_methods,
                     "def rsplit_words(text: str, maxsplit: int) -> list[str]:\n"
                     "    return text.split(None, maxsplit)\n"),
}


# Closure factories Python calls, checked by Suite.check_factory: each wrong in the closure it returns.
FACTORY_MUTANTS = {
    # The closure reading the parameter as passed where CPython's reads it as the factory rebound it.
    "make_shifter": "def make_shifter(n: int, by: int) -> Callable[[int], int]:\n    m = n + by\n"
                    "    return lambda x: x - n\n",
    # The right values from a closure of another name (not CPython's code object: loading it fails).
    "make_adder": "def make_adder(n: int) -> Callable[[int], int]:\n    def plus(x: int) -> int:\n"
                  "        return x + n\n    return plus\n",
    # A lambda where CPython returns the nested def (not CPython's code object: loading it fails).
    "make_length_check": "def make_length_check(min_len: int, max_len: int) -> Callable[[str], bool]:\n"
                         "    return lambda s: min_len <= len(s) <= max_len\n",
    # No validation: a closure where CPython raises ValueError.
    "make_clamp": "def make_clamp(lo: int, hi: int) -> Callable[[int], int]:\n"
                  "    def clamp(x: int) -> int:\n        return max(lo, min(hi, x))\n    return clamp\n",
    # A closure that answers 0 where CPython's raises ZeroDivisionError.
    "make_operator": "def make_operator(op: str) -> Callable[[int, int], int]:\n    if op == '+':\n"
                     "        return lambda a, b: a + b\n    if op == '-':\n        return lambda a, b: a - b\n"
                     "    if op == '*':\n        return lambda a, b: a * b\n    if op == '//':\n"
                     "        return lambda a, b: a // b if b else 0\n"
                     "    raise ValueError(f'unknown operator: {op!r}')\n",
}


@pytest.fixture(scope="module")
def factory_mutants(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("mutants") / "factories.so")
    names = simple_compile("from typing import Callable\n" + "\n\n".join(FACTORY_MUTANTS.values()), path)
    assert sorted(names) == sorted(FACTORY_MUTANTS)
    return module_loader(path)


@pytest.mark.parametrize("name", sorted(FACTORY_MUTANTS))
def test_a_wrong_closure_fails_the_check(factory_mutants, name):
    original = getattr(corpus_closures_cross, name)
    suite = Suite(factory_mutants, [], None, [original], test_closures_cross.factory_inputs)
    if name in ("make_adder", "make_length_check"):
        # Without the code object CPython would have made, the loader does not pretend to be that closure.
        with pytest.raises(KeyError, match=f"^'{name}\\(\\) has no nested code object (plus|<lambda>) #0'$"):
            suite.check_factory(original)
        return
    with pytest.raises(AssertionError):
        suite.check_factory(original)


@pytest.fixture(scope="module")
def mutants(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("mutants") / "mutants.so")
    simple_compile("\n\n".join(source for _, _, source in MUTANTS.values()), path)
    return module_loader(path)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wrong_native_code_fails_the_check(mutants, name):
    corpus_module, suite_module, _ = MUTANTS[name]
    original = getattr(corpus_module, name)
    suite = Suite(mutants, [original], suite_module.inputs_for)
    with pytest.raises(AssertionError):
        suite.check(original)


def test_a_suite_declining_too_much_fails():
    # Each function may decline up to half its cases, but the suite as a whole far less.
    class Declining:
        """Answers as CPython does, except that it declines every fourth call."""

        def get_function(self, name, signature=None):
            calls = []

            def declines_some(*args):
                calls.append(args)
                if len(calls) % 4 == 0:
                    raise NativeFallback("integer overflow")
                return getattr(corpus, name)(*args)
            return declines_some

    functions = [corpus.add, corpus.sub, corpus.mul]
    suite = Suite(Declining(), functions, test_differential.inputs_for)
    for f in functions:
        suite.check(f)
    with pytest.raises(AssertionError):
        suite.check_declines()


def test_a_list_not_changed_as_cpython_changes_it_fails():
    # A native shell_sort that sorts a copy (the caller's list unchanged) answers None like CPython.
    import corpus_typed
    import test_typed

    class CopyingIn:
        def get_function(self, name, signature=None):
            return lambda xs: getattr(corpus_typed, name)(list(xs))

    suite = Suite(CopyingIn(), [corpus_typed.shell_sort], test_typed.inputs_for)
    with pytest.raises(AssertionError):
        suite.check(corpus_typed.shell_sort)


# Functions that print, checked on their output too (printed_outcome): each mutant prints wrongly.
PRINT_MUTANTS = {
    # A line printed twice.
    "progress": "def progress(total: int) -> int:\n    done = 0\n    for step in range(total):\n"
                "        done += step\n        print(f'step {step + 1}/{total}: {done}')\n"
                "    print('finished')\n    print('finished')\n    return done\n",
    # A line lost: the last name is not greeted.
    "greet_all": "def greet_all(names: list[str]) -> None:\n    for name in names[:-1]:\n"
                 "        print(f'Hello, {name}!')\n",
    # The separator ignored.
    "separators": "def separators(a: str, b: str, sep: str) -> None:\n    print(a, b)\n    print(a, b, sep='')\n"
                  "    print(a, b, sep=sep, end=sep)\n    print(a, end='')\n    print(b, end=None)\n"
                  "    print(a, sep=None)\n",
}


@pytest.fixture(scope="module")
def print_mutants(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("mutants") / "print_mutants.so")
    simple_compile("\n\n".join(PRINT_MUTANTS.values()), path)
    return module_loader(path)


@pytest.mark.parametrize("name", sorted(PRINT_MUTANTS))
def test_wrong_printing_fails_the_check(print_mutants, name):
    original = getattr(corpus_print, name)
    suite = Suite(print_mutants, [original], test_print.inputs_for, observe=printed_outcome)
    with pytest.raises(AssertionError):
        suite.check(original)


def test_output_printed_before_a_fallback_fails_the_check():
    # A native call that writes its lines at once, then overflows: CPython's run prints them again.
    class PrintsThenOverflows:
        def get_function(self, name, fallback=None, signature=None):
            def native(x):
                print("cubing", x)
                y = x * x * x
                if not -2 ** 63 <= y < 2 ** 63:
                    raise OverflowError("integer overflow")
                print("cube is", y)
                return y
            return NativeFunction(native, name, fallback, signature)

    original = corpus_print.print_then_overflow
    suite = Suite(PrintsThenOverflows(), [original], test_print.inputs_for, observe=printed_outcome,
                  falls_back={original.__name__})
    with pytest.raises(AssertionError):
        suite.check(original)
