"""Formatting and division as their authors write them: report lines with
f-string format specs, format() and repr(), str() of floats, divmod digit
loops and time splits. Each is compiled natively and compared with CPython
on its own answers (tests/compiler/python/test_formatting.py)."""
from typing import List, Tuple


def money(amount: float) -> str:
    return f"${amount:,.2f}"


def percent(part: int, whole: int) -> str:
    if whole == 0:
        raise ValueError("whole must not be zero")
    return f"{part / whole:.1%}"


def report_line(name: str, count: int, ratio: float) -> str:
    return f"{name:<12}|{count:>8d}|{ratio:8.3f}"


def centered_title(title: str) -> str:
    return f"{title:*^30}"


def padded_id(n: int) -> str:
    return f"ID-{n:06d}"


def hex_dump(values: List[int]) -> str:
    parts: List[str] = []
    for v in values:
        parts.append(f"{v & 0xFF:02x}")
    return " ".join(parts)


def binary_word(n: int) -> str:
    return f"{n:#010b}"


def octal_and_hex(n: int) -> str:
    return f"{n:o} {n:#o} {n:x} {n:#X}"


def grouped(n: int) -> str:
    return f"{n:,} {n:_} {n:_x} {n:+,d}"


def zero_padded_grouping(n: int) -> str:
    return f"[{n:012,}] [{n:0=+15_}]"


def scientific(x: float) -> str:
    return f"{x:e} {x:.3E} {x:.0e} {x:#.0e}"


def general(x: float) -> str:
    return f"{x:g} {x:.3g} {x:#.4g} {x:G} {x:.12g}"


def shortest(x: float) -> str:
    return f"{x} {x!r} {x!s} {x:.3} {x:12}"


def str_of_float(x: float) -> str:
    return str(x) + "|" + repr(x)


def signed_fields(x: float) -> str:
    return f"{x:+.2f} {x: .2f} {x:-.2f} {x:z.1f} {x:+z.0f}"


def aligned_floats(x: float) -> str:
    return f"[{x:<10.2f}] [{x:>10.2f}] [{x:^10.2f}] [{x:=+10.2f}] [{x:010.2f}]"


def unicode_fill(s: str, n: int) -> str:
    return f"{s:é^9}{n:日>6}{s:😀<4}"


def truncated(s: str) -> str:
    return f"[{s:.3}] [{s:>8.2}] [{s:^7}]"


def quoted(s: str) -> str:
    return f"name={s!r}"


def repr_of_values(n: int, b: bool) -> str:
    return f"{n!r} {b!r} {b} {b:>6} {b:d}"


def char_codes(n: int) -> str:
    if n < 32 or n > 0x10FFFF:
        return "?"
    return f"{n:c}|{n:>3c}"


def format_builtin(x: float, n: int) -> str:
    return format(x, ".2f") + format(n, ">5") + format(n) + format(x)


def table(names: List[str], scores: List[float]) -> str:
    lines: List[str] = []
    for i, name in enumerate(names):
        score = scores[i] if i < len(scores) else 0.0
        lines.append(f"{i + 1:>2}. {name:<10} {score:7.2f}")
    return "\n".join(lines)


def average_line(scores: List[float]) -> str:
    if not scores:
        return "no scores"
    total = 0.0
    for s in scores:
        total += s
    return f"n={len(scores)} mean={total / len(scores):.4f} max={max(scores):g}"


def progress_bar(done: int, total: int) -> str:
    if total <= 0:
        raise ValueError(f"total must be positive, got {total}")
    frac = min(done, total) / total
    filled = int(frac * 20)
    return f"[{'#' * filled:<20}] {frac:6.1%}"


def temperature(celsius: float) -> str:
    fahrenheit = celsius * 9 / 5 + 32
    return f"{celsius:.1f}°C = {fahrenheit:.1f}°F"


def int_as_float(n: int) -> str:
    return f"{n:.2f} {n:e} {n:%} {n:g}"


def huge_precision(x: float) -> str:
    return f"{x:.60f}|{x:.40e}|{x:.30g}"


def digit_sum(n: int) -> int:
    n = abs(n)
    total = 0
    while n > 0:
        n, d = divmod(n, 10)
        total += d
    return total


def to_base(n: int, base: int) -> str:
    if base < 2 or base > 16:
        raise ValueError("base out of range")
    if n == 0:
        return "0"
    digits = "0123456789abcdef"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out: List[str] = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    return sign + "".join(out[::-1])


def hms(seconds: int) -> str:
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}"


def split_pair(a: int, b: int) -> Tuple[int, int]:
    return divmod(a, b)


def split_float(a: float, b: float) -> Tuple[float, float]:
    return divmod(a, b)


def split_mixed(a: int, b: float) -> Tuple[float, float]:
    q, r = divmod(a, b)
    return q, r


def bool_divmod(b: bool, n: int) -> Tuple[int, int]:
    return divmod(b, n)


def reverse_digits(n: int) -> int:
    out = 0
    while n > 0:
        n, d = divmod(n, 10)
        out = out * 10 + d
    return out


def luhn_valid(n: int) -> bool:
    if n < 0:
        return False
    total = 0
    position = 0
    while n > 0:
        n, d = divmod(n, 10)
        if position % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        position += 1
    return total % 10 == 0


def angle_dms(degrees: float) -> str:
    whole, rest = divmod(abs(degrees), 1.0)
    minutes, seconds = divmod(rest * 60, 1.0)
    sign = "-" if degrees < 0 else ""
    return f"{sign}{whole:.0f}°{minutes:02.0f}'{seconds * 60:05.2f}\""


def matrix_text(rows: List[List[float]]) -> str:
    out: List[str] = []
    for row in rows:
        out.append(" ".join(f"{v:8.3f}" for v in row))
    return "\n".join(out)


def histogram(values: List[int]) -> str:
    lines: List[str] = []
    for v in values:
        lines.append(f"{v:>5} | {'*' * max(0, min(v, 40))}")
    return "\n".join(lines)


def ratio_text(a: int, b: int) -> str:
    if b == 0:
        return "undefined"
    return f"{a}/{b} = {a / b:.6g} ({a // b} r {a % b})"


def exponent_report(x: float) -> str:
    return f"{x:10.2e}|{x:<12.5G}|{x:^14.3%}"


def label_value(label: str, value: float, width: int) -> str:
    text = f"{label}: {value:.2f}"
    return text + "." * max(0, width - len(text))


def format_method(name: str, count: int, ratio: float) -> str:
    return "{}: {:>6d} items, {:.1%} done, {!r}".format(name, count, ratio, name)


def format_indexed(a: int, b: int) -> str:
    return "{1} > {0}? {0:x}/{1:#o} {{literal}}".format(a, b)


def csv_row(xs: List[float]) -> str:
    return ",".join("{:.3g}".format(x) for x in xs)
