"""Differential corpus of typed Python as its authors write it: `typing`
names in annotations, module constants, `math`, validation with `raise` and
`assert`, `-> None` helpers, `**` and bit operators, `in` on tuples,
`isinstance`, and small classes. Each function runs natively and under
CPython (test_typed.py) on edge values: zero, negatives, int64 boundaries,
empty containers and non-ASCII text. Parameters named n or k bound loops."""
from __future__ import annotations

import math
import typing
from math import floor, gcd as math_gcd, pi, sqrt
from typing import Dict, List, Optional, Sequence, Set, Tuple

MOD = 10 ** 9 + 7
MAX_ITEMS: int = 1 << 16
EPSILON = 1e-9
GOLDEN = (1 + 5 ** 0.5) / 2
VOWELS = "aeiouAEIOU"
SEPARATOR: str = ", "
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
PRIMES_UNDER_20 = (2, 3, 5, 7, 11, 13, 17, 19)
UNITS = ("B", "KiB", "MiB", "GiB")
HALF_TURN = math.pi
MASK_32 = 0xFFFFFFFF
DEBUG = False


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def norm(self) -> float:
        return math.sqrt(self.x * self.x + self.y * self.y)

    def dot(self, other: Point) -> float:
        return self.x * other.x + self.y * other.y


class Counter:
    count: int = 0

    def bump(self, by: int) -> None:
        self.count += by

    def value(self) -> int:
        return self.count


# ---- typing names in annotations ---------------------------------------------------
def total(values: List[int]) -> int:
    result = 0
    for v in values:
        result += v
    return result


def mean(values: List[float]) -> float:
    if not values:
        raise ValueError("mean of an empty list")
    return sum(values, 0.0) / len(values)


def word_lengths(words: List[str]) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for w in words:
        out[w] = len(w)
    return out


def pair_sum(pair: Tuple[int, int]) -> int:
    a, b = pair
    return a + b


def swap_pair(pair: Tuple[int, int]) -> Tuple[int, int]:
    return pair[1], pair[0]


def min_max(values: Sequence[int]) -> Tuple[int, int]:
    if len(values) == 0:
        raise ValueError("min_max() of an empty sequence")
    lo = hi = values[0]
    for v in values[1:]:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


def distinct_count(values: List[int]) -> int:
    seen: Set[int] = set()
    for v in values:
        seen.add(v)
    return len(seen)


def sorted_unique(values: List[int]) -> List[int]:
    seen: Set[int] = set(values)
    return sorted(seen)


def char_histogram(text: str) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def typing_module_names(values: typing.List[int]) -> typing.Tuple[int, int]:
    evens = 0
    for v in values:
        if v % 2 == 0:
            evens += 1
    return evens, len(values) - evens


def group_by_length(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = {}
    for w in words:
        if len(w) not in groups:
            groups[len(w)] = []
        groups[len(w)].append(w)
    return groups


def enumerate_pairs(values: List[int]) -> List[Tuple[int, int]]:
    return [(i, v) for i, v in enumerate(values)]


def transpose(grid: List[List[int]]) -> List[List[int]]:
    if not grid:
        return []
    width = min(len(row) for row in grid)
    return [[row[c] for row in grid] for c in range(width)]


def row_sums(grid: List[List[int]]) -> List[int]:
    return [sum(row) for row in grid]


def scores_above(scores: Dict[str, int], threshold: int) -> List[str]:
    return sorted(name for name, s in scores.items() if s > threshold)


# ---- module constants ----------------------------------------------------------------
def mod_add(a: int, b: int) -> int:
    return (a % MOD + b % MOD) % MOD


def mod_mul(a: int, b: int) -> int:
    return (a % MOD) * (b % MOD) % MOD


def mod_pow(base: int, exp: int) -> int:
    if exp < 0:
        raise ValueError("negative exponent")
    result = 1
    base %= MOD
    while exp > 0:
        if exp & 1:
            result = result * base % MOD
        base = base * base % MOD
        exp >>= 1
    return result


def clamp_items(n: int) -> int:
    return max(0, min(n, MAX_ITEMS))


def almost_equal(a: float, b: float) -> bool:
    return abs(a - b) < EPSILON


def golden_scaled(x: float) -> float:
    return x * GOLDEN


def count_vowels(text: str) -> int:
    return sum(1 for ch in text if ch in VOWELS)


def join_words(words: List[str]) -> str:
    return SEPARATOR.join(words)


def neighbours(x: int, y: int) -> List[Tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in DIRECTIONS]


def is_small_prime(x: int) -> bool:
    return x in PRIMES_UNDER_20


def human_size(size: int) -> str:
    if size < 0:
        raise ValueError(f"size must be non-negative, got {size}")
    unit = 0
    while size >= 1024 and unit < len(UNITS) - 1:
        size //= 1024
        unit += 1
    return f"{size} {UNITS[unit]}"


def low_32_bits(x: int) -> int:
    return x & MASK_32


def debug_label(x: int) -> str:
    if DEBUG:
        return "debug"
    return str(x)


# ---- math ------------------------------------------------------------------------------
def hypotenuse(a: float, b: float) -> float:
    return math.sqrt(a * a + b * b)


def circle_area(r: float) -> float:
    return pi * r * r


def circumference(r: float) -> float:
    return 2 * math.pi * r


def int_sqrt_floor(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    return math.isqrt(x)


def is_perfect_square(x: int) -> bool:
    if x < 0:
        return False
    r = math.isqrt(x)
    return r * r == x


def float_floor(x: float) -> int:
    return math.floor(x)


def float_ceil(x: float) -> int:
    return math.ceil(x)


def imported_floor(x: float) -> int:
    return floor(x)


def log_ratio(a: float, b: float) -> float:
    return math.log(a) - math.log(b)


def log_base(x: float, b: float) -> float:
    return math.log(x, b)


def digits_of(x: int) -> int:
    if x == 0:
        return 1
    return math.floor(math.log10(abs(x))) + 1 if abs(x) < 10 ** 15 else len(str(abs(x)))


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def angle_deg(x: float, y: float) -> float:
    return math.degrees(math.atan2(y, x))


def to_radians(deg: float) -> float:
    return math.radians(deg)


def sine_wave(x: float) -> float:
    return math.sin(x) * math.cos(x)


def tangent(x: float) -> float:
    return math.tan(x)


def safe_sqrt(x: float) -> float:
    if x < 0:
        return -1.0
    return sqrt(x)


def gcd_of(a: int, b: int) -> int:
    return math.gcd(a, b)


def lcm_of(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return abs(a * b) // math_gcd(a, b)


def factorial_of(n: int) -> int:
    return math.factorial(n)


def classify_float(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf"
    if math.isfinite(x):
        return "finite"
    return "?"


def power_of(x: float, y: float) -> float:
    return math.pow(x, y)


def remainder_of(x: float, y: float) -> float:
    return math.fmod(x, y)


def signed_magnitude(x: float, y: float) -> float:
    return math.copysign(abs(x), y)


def truncate(x: float) -> int:
    return math.trunc(x)


def arc_sine(x: float) -> float:
    return math.asin(x)


def exp_minus_one(x: float) -> float:
    return math.expm1(x)


def log_one_plus(x: float) -> float:
    return math.log1p(x)


def log_two(x: float) -> float:
    return math.log2(x)


def hyperbolic(x: float) -> float:
    return math.tanh(x) + math.sinh(x) / (1.0 + math.cosh(x))


def half_turns(x: float) -> float:
    return x / HALF_TURN


def infinity_or(x: float) -> float:
    return x if x < math.inf else -math.inf


def distance(p: Tuple[float, float], q: Tuple[float, float]) -> float:
    dx = p[0] - q[0]
    dy = p[1] - q[1]
    return math.sqrt(dx * dx + dy * dy)


def rms(values: List[float]) -> float:
    if not values:
        return 0.0
    return math.sqrt(sum([v * v for v in values], 0.0) / len(values))


def int_log2(x: int) -> int:
    if x <= 0:
        raise ValueError("int_log2() of a non-positive number")
    return math.floor(math.log2(x))


# ---- raise and assert -------------------------------------------------------------------
def checked_div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("checked_div by zero")
    return a // b


def require_positive(x: int) -> int:
    if x <= 0:
        raise ValueError(f"expected a positive number, got {x}")
    return x


def nth_item(values: List[int], i: int) -> int:
    if i < 0 or i >= len(values):
        raise IndexError(f"index {i} out of range for {len(values)} items")
    return values[i]


def parse_bit(text: str) -> int:
    if text == "0":
        return 0
    if text == "1":
        return 1
    raise ValueError("not a bit: " + text)


def typed_check(x: int) -> int:
    if x > 1000:
        raise TypeError("too large")
    return x * 2


def custom_raise(x: int) -> int:
    if x < 0:
        raise KeyError(x)
    return x


def assert_sorted(values: List[int]) -> List[int]:
    out = sorted(values)
    for i in range(1, len(out)):
        assert out[i - 1] <= out[i], f"not sorted at {i}"
    return out


def assert_plain(x: int) -> int:
    assert x != 7
    return x + 1


def state_error(n: int) -> int:
    if n > 3:
        raise RuntimeError("too many steps")
    return n


def validate_range(lo: int, hi: int) -> None:
    if lo > hi:
        raise ValueError(f"empty range {lo}..{hi}")


def range_length(lo: int, hi: int) -> int:
    validate_range(lo, hi)
    return hi - lo


def check_name(name: str) -> None:
    if not name:
        raise ValueError("name must not be empty")
    if not name[0].isalpha():
        raise ValueError(f"name must start with a letter: {name!r}")


def name_length(name: str) -> int:
    check_name(name)
    return len(name)


def checked_mean(values: List[int]) -> float:
    if len(values) == 0:
        raise ZeroDivisionError("mean of nothing")
    return sum(values) / len(values)


def first_negative(values: List[int]) -> int:
    for v in values:
        if v < 0:
            return v
    raise ValueError("no negative value")


def long_message(n: int) -> int:
    if n < 0:
        raise ValueError("x" * 600)
    return n


# ---- -> None -------------------------------------------------------------------------------
def noop(x: int) -> None:
    pass


def ignore_all(values: List[int]) -> None:
    for v in values:
        if v == 0:
            return


def nothing() -> None:
    return None


# ---- ** and bit operators ---------------------------------------------------------------------
def square(x: int) -> int:
    return x ** 2


def cube(x: int) -> int:
    return x ** 3


def int_power(x: int, exponent: int) -> int:
    return x ** exponent


def float_power(x: float, y: float) -> float:
    return x ** y


def mixed_power(x: int, y: float) -> float:
    return x ** y


def two_to_the(n: int) -> int:
    return 2 ** n


def popcount(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    count = 0
    while x:
        count += x & 1
        x >>= 1
    return count


def is_power_of_two(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def lowest_set_bit(x: int) -> int:
    return x & -x


def bit_or(a: int, b: int) -> int:
    return a | b


def bit_xor(a: int, b: int) -> int:
    return a ^ b


def bit_not(a: int) -> int:
    return ~a


def shift_left(small: int, shift: int) -> int:
    return small << shift


def shift_right(a: int, shift: int) -> int:
    return a >> shift


def bool_and(a: bool, b: bool) -> bool:
    return a & b


def bool_xor(a: bool, b: bool) -> bool:
    return a ^ b


def bool_or_int(a: bool, b: int) -> int:
    return a | b


def gray_code(x: int) -> int:
    return x ^ (x >> 1)


def xor_all(values: List[int]) -> int:
    acc = 0
    for v in values:
        acc ^= v
    return acc


def set_bit(x: int, i: int) -> int:
    if not 0 <= i < 62:
        raise ValueError("bit index out of range")
    return x | (1 << i)


def clear_bit(x: int, i: int) -> int:
    if not 0 <= i < 62:
        raise ValueError("bit index out of range")
    return x & ~(1 << i)


def fnv1a(text: str) -> int:
    h = 2166136261
    for ch in text:
        h ^= ord(ch)
        h = (h * 16777619) & MASK_32
    return h


def bit_reverse_8(x: int) -> int:
    out = 0
    for _ in range(8):
        out = (out << 1) | (x & 1)
        x >>= 1
    return out


# ---- in on tuples, isinstance ------------------------------------------------------------------
def is_weekend(day: str) -> bool:
    return day in ("Sat", "Sun")


def is_bracket(ch: str) -> bool:
    return ch in ("(", ")", "[", "]")


def small_code(x: int) -> bool:
    return x in (0, 1, 2, 3, 5, 8)


def direction_known(dx: int, dy: int) -> bool:
    return (dx, dy) in DIRECTIONS


def unit_index(unit: str) -> int:
    if unit not in UNITS:
        return -1
    for i, u in enumerate(UNITS):
        if u == unit:
            return i
    return -1


def is_int_value(x: int) -> bool:
    return isinstance(x, int)


def is_number(x: float) -> bool:
    return isinstance(x, (int, float))


def bool_is_int(x: bool) -> bool:
    return isinstance(x, int) and not isinstance(x, str)


def list_kind(values: List[int]) -> str:
    if isinstance(values, list):
        return "list"
    return "other"


# ---- sets ---------------------------------------------------------------------------------------
def common_count(a: List[int], b: List[int]) -> int:
    other = set(b)
    return len({x for x in a if x in other})


def has_duplicates(values: List[str]) -> bool:
    seen: Set[str] = set()
    for v in values:
        if v in seen:
            return True
        seen.add(v)
    return False


# ---- classes -----------------------------------------------------------------------------------
def point_norm(x: float, y: float) -> float:
    return Point(x, y).norm()


def point_dot(x: float, y: float) -> float:
    p = Point(x, y)
    q = Point(y, x)
    return p.dot(q)


def count_up(n: int) -> int:
    c = Counter()
    for i in range(n):
        c.bump(i)
    return c.value()


# ---- a bit of everything -----------------------------------------------------------------------
def collatz_steps(x: int) -> int:
    if x <= 0:
        raise ValueError(f"collatz_steps() needs a positive number, got {x}")
    steps = 0
    while x != 1 and steps < 1000:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


def binomial(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def caesar(text: str, shift: int) -> str:
    out: List[str] = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - ord("a") + shift) % 26 + ord("a")))
        else:
            out.append(ch)
    return "".join(out)


def run_lengths(text: str) -> List[Tuple[str, int]]:
    out: List[Tuple[str, int]] = []
    for ch in text:
        if out and out[-1][0] == ch:
            out[-1] = (ch, out[-1][1] + 1)
        else:
            out.append((ch, 1))
    return out


def dot_product(a: List[float], b: List[float]) -> float:
    if len(a) != len(b):
        raise ValueError("vectors of different lengths")
    return sum([x * y for x, y in zip(a, b)], 0.0)


def normalise(values: List[float]) -> List[float]:
    length = math.sqrt(sum([v * v for v in values], 0.0))
    if length == 0.0:
        raise ZeroDivisionError("zero vector")
    return [v / length for v in values]


def weighted_score(scores: Dict[str, int], weights: Dict[str, int]) -> int:
    result = 0
    for name, s in scores.items():
        result += s * weights.get(name, 1)
    return result


def triangle_kind(a: int, b: int, c: int) -> str:
    if a <= 0 or b <= 0 or c <= 0:
        raise ValueError("sides must be positive")
    if a + b <= c or a + c <= b or b + c <= a:
        return "none"
    if a == b == c:
        return "equilateral"
    if a in (b, c) or b == c:
        return "isosceles"
    return "scalene"


def quadratic_roots(a: float, b: float, c: float) -> Tuple[float, float]:
    if a == 0.0:
        raise ValueError("not a quadratic")
    disc = b * b - 4 * a * c
    if disc < 0:
        raise ValueError("complex roots")
    r = math.sqrt(disc)
    return (-b - r) / (2 * a), (-b + r) / (2 * a)


def mod_inverse(a: int, m: int) -> int:
    if m <= 1:
        raise ValueError("modulus must be > 1")
    g, x = a % m, 1
    t, y = m, 0
    while t:
        q = g // t
        g, t = t, g - q * t
        x, y = y, x - q * y
    if g != 1:
        raise ValueError(f"{a} has no inverse modulo {m}")
    return x % m


def digit_sum(x: int) -> int:
    x = abs(x)
    s = 0
    while x:
        s += x % 10
        x //= 10
    return s


def checksum(values: List[int]) -> int:
    acc = 0
    for i, v in enumerate(values):
        acc = (acc * 31 + v * (i + 1)) % MOD
    return acc


def running_max(values: List[int]) -> List[int]:
    out: List[int] = []
    best = 0
    for i, v in enumerate(values):
        best = v if i == 0 else max(best, v)
        out.append(best)
    return out


def bucket(x: float) -> int:
    if math.isnan(x):
        raise ValueError("nan has no bucket")
    return math.floor(x / 10.0) if abs(x) < 1e15 else 0


# ---- defaults and keyword-only parameters ---------------------------------------------------
def repeat_word(word: str, times: int = 2, sep: str = "-") -> str:
    return sep.join([word] * max(times, 0))


def scaled_sum(values: List[int], *, factor: int = 1, offset: int = 0) -> int:
    return sum(values) * factor + offset


def round_to(x: float, step: float = 0.5) -> float:
    if step <= 0.0:
        raise ValueError("step must be positive")
    return math.floor(x / step) * step if math.isfinite(x) else x


def pad_left(text: str, width: int = 8, fill: str = " ") -> str:
    if len(fill) != 1:
        raise ValueError("fill must be one character")
    return fill * max(0, width - len(text)) + text


def origin_distance(p: Tuple[int, int] = (0, 0)) -> int:
    return abs(p[0]) + abs(p[1])


def uses_defaults(x: int) -> str:
    return repeat_word(str(x)) + repeat_word("a", sep="+") + repeat_word("b", times=3, sep="")


def uses_keywords(values: List[int]) -> int:
    return scaled_sum(values) + scaled_sum(values, offset=1) + scaled_sum(values, offset=2, factor=3)


def keyword_order(a: int, b: int) -> str:
    return pad_left(str(a), fill="*", width=b % 10) + pad_left(fill=".", text=str(b))


def with_limit(x: int, limit: int = MAX_ITEMS) -> int:
    return min(x, limit)


def ratio(a: int, b: int = 1, *, strict: bool = True) -> float:
    if strict and b == 0:
        raise ZeroDivisionError("b must not be zero")
    return a / b if b else 0.0


def calls_ratio(a: int) -> float:
    return ratio(a) + ratio(a, 2) + ratio(a, b=4, strict=False) + ratio(a, 0, strict=False)


# ---- lists changed in place, as the caller sees them -------------------------------------------
def gap_insert(a: List[int], gap: int) -> None:
    for i in range(gap, len(a)):
        value = a[i]
        j = i
        while j >= gap and a[j - gap] > value:
            a[j] = a[j - gap]
            j -= gap
        a[j] = value


def shell_sort(a: List[int]) -> None:
    gap = len(a) // 2
    while gap > 0:
        gap_insert(a, gap)
        gap //= 2


def insertion_sort(items: List[str]) -> None:
    for i in range(1, len(items)):
        key = items[i]
        j = i - 1
        while j >= 0 and items[j] > key:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = key


def reverse_in_place(values: List[int]) -> None:
    i, j = 0, len(values) - 1
    while i < j:
        values[i], values[j] = values[j], values[i]
        i += 1
        j -= 1


def append_squares(out: List[int], n: int) -> int:
    for i in range(n):
        out.append(i * i)
    return len(out)


def drop_negatives(values: List[int]) -> int:
    removed = 0
    i = 0
    while i < len(values):
        if values[i] < 0:
            del values[i]
            removed += 1
        else:
            i += 1
    return removed


def scale_in_place(values: List[float], factor: float) -> None:
    for i in range(len(values)):
        values[i] *= factor


def pop_last(values: List[int]) -> int:
    if not values:
        raise IndexError("pop_last() on an empty list")
    return values.pop()


def sorted_in_place(words: List[str]) -> int:
    words.sort()
    words.extend(["~end"])
    return len(words)


def fill_with(values: List[int], v: int) -> None:
    for i in range(len(values)):
        values[i] = v
    values += [v]


def sort_and_median(values: List[int]) -> int:
    shell_sort(values)
    if not values:
        raise ValueError("median of nothing")
    return values[len(values) // 2]


# ---- try / except ------------------------------------------------------------------------------
def parse_int_or(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def safe_ratio(a: int, b: int) -> float:
    try:
        result = a / b
    except ZeroDivisionError:
        result = 0.0
    return result


def lookup_or(scores: Dict[str, int], key: str) -> int:
    try:
        return scores[key]
    except KeyError:
        return -1


def item_or_zero(values: List[int], i: int) -> int:
    try:
        return values[i]
    except (IndexError, KeyError):
        return 0


def count_parsed(words: List[str]) -> int:
    parsed = 0
    for w in words:
        try:
            int(w)
            parsed += 1
        except Exception:
            continue
    return parsed


def checked_or_message(x: int) -> str:
    try:
        require_positive(x)
        return "ok"
    except ValueError:
        return "not positive"


def overflow_is_not_caught(x: int) -> int:
    try:
        return x * x
    except ArithmeticError:
        return -1


def nested_handlers(a: int, b: int) -> int:
    try:
        try:
            return a // b
        except IndexError:
            return -2
    except LookupError:
        return -3
    except ZeroDivisionError:
        return -1


def parse_or_minus_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError as error:
        value = -1
    return value


def quotient_or_reason(a: int, b: int) -> str:
    try:
        return str(a // b)
    except ZeroDivisionError as exc:
        return "no quotient"
    except (ValueError, IndexError) as exc:
        raise ValueError("unreachable: " + str(a))


def checked_quotient(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError as err:
        raise ValueError("division by zero in checked_quotient") from err


def count_then_reraise(values: List[int], divisor: int) -> int:
    failures = 0
    acc = 0
    for v in values:
        try:
            acc += v // divisor
        except ZeroDivisionError:
            failures += 1
            if failures > 2:
                raise
    return acc - failures


def reraise_unless_index(values: List[int], i: int) -> int:
    try:
        return values[i] // values[0]
    except IndexError:
        return -1
    except ZeroDivisionError:
        if i == 0:
            return 0
        raise


def parse_or_reason(text: str) -> str:
    try:
        return str(int(text) % 1000)
    except ValueError as err:
        return "bad input: " + str(err)


def quotient_report(a: int, b: int) -> str:
    try:
        q = a // b
    except ZeroDivisionError as problem:
        return f"cannot divide {a}: {problem}"
    return f"{a} // {b} = {q}"


def validated_mean(values: List[int]) -> str:
    try:
        if not values:
            raise ValueError("no values given")
        if len(values) > 5:
            raise RuntimeError(f"too many values: {len(values)}")
        return str(sum(values) // len(values))
    except (ValueError, RuntimeError) as exc:
        return "rejected (" + str(exc) + ")"


def item_or_message(values: List[int], i: int) -> str:
    try:
        return str(values[i])
    except IndexError as e:
        return str(e)


# ---- try / else ------------------------------------------------------------------------------
def parse_then_double(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    else:
        value = value * 2 if -(1 << 40) < value < (1 << 40) else -7
    return value


def else_faults_are_not_caught(values: List[int], i: int) -> int:
    try:
        first = values[i]
    except (IndexError, ZeroDivisionError):
        return -1
    else:
        return 100 // first


def else_skipped_by_break(values: List[int], divisor: int) -> int:
    hits = 0
    for v in values:
        try:
            if v < 0:
                break
            q = v // divisor
        except ZeroDivisionError:
            hits -= 1
        else:
            hits += q % 7
    return hits


def else_then_finally(values: List[int], i: int) -> str:
    log = ""
    try:
        v = values[i]
    except IndexError:
        log += "missing;"
    else:
        log += "got " + str(v) + ";"
    finally:
        log += "done"
    return log


# ---- nested functions -------------------------------------------------------------------------
def scaled_total(values: List[int], factor: int) -> int:
    def scale(v: int) -> int:
        return v * factor
    acc = 0
    for v in values:
        acc += scale(v)
    return acc


def count_with_prefix(words: List[str], prefix: str) -> int:
    def matches(word: str) -> bool:
        return word.startswith(prefix) and len(word) > len(prefix)

    return sum(1 for w in words if matches(w))


def nested_fibonacci(n: int) -> int:
    def fib(k: int) -> int:
        if k < 2:
            return k
        return fib(k - 1) + fib(k - 2)
    if n < 0:
        raise ValueError("negative index")
    return fib(n)


def banded_score(values: List[int], low: int, high: int) -> int:
    def inside(v: int) -> bool:
        return low <= v <= high

    def score(v: int) -> int:
        return 2 if inside(v) else (1 if inside(v + 1) or inside(v - 1) else 0)

    return sum(score(v) for v in values)


def extend_with_squares(target: List[int], values: List[int]) -> None:
    def push(v: int) -> None:
        if v > -1000 and v < 1000:
            target.append(v * v)
    for v in values:
        push(v)


def weighted_distance(a: Tuple[float, float], b: Tuple[float, float]) -> float:
    def axis(d: float, w: float) -> float:
        return abs(d) * w
    return axis(a[0] - b[0], 1.0) + axis(a[1] - b[1], 0.5)


def clamp_all(values: List[float], low: float) -> List[float]:
    def clamp(v: float) -> float:
        return low if v < low else v
    return [clamp(v) for v in values]


# ---- try / finally -----------------------------------------------------------------------------
def sum_quotients_then_mark(values: List[int], divisor: int) -> int:
    done = 0
    acc = 0
    try:
        for v in values:
            acc += v // divisor
    finally:
        done = 1
    return acc * 10 + done


def parse_with_cleanup(text: str) -> int:
    state = 0
    try:
        state = int(text)
    except ValueError:
        state = -1
    finally:
        state += 100
    return state


def finally_raise_replaces(a: int, b: int) -> int:
    try:
        q = a // b
    finally:
        if b < 0:
            raise ValueError("negative divisor")
    return q


def first_negative_checked(values: List[int]) -> int:
    found = -1
    checked = 0
    try:
        for i in range(len(values)):
            if values[i] < 0:
                found = i
                break
    finally:
        checked += 1
    return found * 10 + checked


def cleanup_per_item(values: List[int], divisor: int) -> int:
    cleanups = 0
    acc = 0
    for v in values:
        try:
            try:
                acc += v // divisor
            finally:
                cleanups += 1
        except ZeroDivisionError:
            acc -= 1
    return acc * 1000 + cleanups


def read_counted(values: List[int], i: int) -> int:
    reads = 0
    try:
        v = values[i]
    except IndexError:
        v = -1
    finally:
        reads += 1
    return v % 1000 + reads


def finally_sees_partial_work(values: List[int], divisor: int) -> str:
    seen: List[int] = []
    outcome = "none"
    try:
        try:
            for v in values:
                seen.append(v // divisor)
        finally:
            outcome = "saw " + str(len(seen))
    except ZeroDivisionError:
        outcome += " then failed"
    return outcome


def finally_raise_in_handler(text: str) -> int:
    attempts = 0
    try:
        try:
            return_value = int(text)
        except ValueError:
            raise IndexError("not a number: " + text)
        finally:
            attempts += 1
    except IndexError:
        return_value = -attempts
    return return_value


def count_into(counts: Dict[str, int], words: List[str]) -> None:
    for w in words:
        counts[w] = counts.get(w, 0) + 1


def bump_all(scores: Dict[str, int], by: int) -> int:
    for name in list(scores.keys()):
        scores[name] += by
    scores.setdefault("new", by)
    return len(scores)


def drop_small(scores: Dict[str, int], limit: int) -> int:
    small = [k for k, v in scores.items() if v < limit]
    for k in small:
        del scores[k]
    return len(small)


def take(scores: Dict[str, int], key: str) -> int:
    if key not in scores:
        return -1
    return scores.pop(key)


# ---- sorting by a key ---------------------------------------------------------------------------
def by_length(words: List[str]) -> List[str]:
    return sorted(words, key=len)


def by_length_desc(words: List[str]) -> List[str]:
    return sorted(words, key=len, reverse=True)


def by_magnitude(values: List[int]) -> List[int]:
    return sorted(values, key=abs)


def by_last_char(words: List[str]) -> List[str]:
    return sorted(words, key=lambda w: w[-1] if w else "")


def ranked(scores: Dict[str, int]) -> List[str]:
    return sorted(scores.keys(), key=lambda name: (-scores[name], name))


def by_remainder(values: List[int], k: int) -> List[int]:
    if k == 0:
        raise ValueError("k must not be zero")
    return sorted(values, key=lambda v: v % k)


def sort_case_blind(words: List[str]) -> None:
    words.sort(key=str.lower)


def case_blind_desc(words: List[str]) -> List[Tuple[str, str]]:
    # equal keys ("b" and "B") keep their order under reverse=True, as CPython's sort
    pairs = [(w.lower(), w) for w in words + [w.upper() for w in words]]
    return sorted(pairs, key=lambda p: p[0], reverse=True) + sorted(pairs, reverse=True)


def sort_by_digit_sum(values: List[int]) -> None:
    values.sort(key=digit_sum, reverse=True)
