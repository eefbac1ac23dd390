"""Typed code leaving try ... finally by return, break and continue, as its
authors write it (test_try_finally.py): cleanup counted in finally while a
loop skips or stops early, a result computed before finally changes the
names it was read from, finally's own return replacing an earlier return
or an exception, break and continue in finally dropping an exception,
try/except/else/finally whose handlers and else return, and try ... finally
nested in loops and in each other."""
from typing import Any, Dict, List


def note(log: List[str], event: str) -> None:
    log.append(event)


def value_before_cleanup(x: int) -> int:
    # The return value is computed before finally runs: finally's change comes too late.
    total = x * 2
    try:
        return total
    finally:
        total = -1


def checked_ratio(a: int, b: int) -> List[str]:
    log: List[str] = []
    try:
        if b == 0:
            raise ValueError("b must not be zero")
        log.append(str(a // b))
        return log
    except ValueError as e:
        note(log, f"invalid: {e}")
        return log
    finally:
        note(log, "checked")


def first_negative(values: List[int]) -> int:
    checked = 0
    for i in range(len(values)):
        try:
            if values[i] < 0:
                return i * 1000 + checked
        finally:
            checked += 1
    return -checked


def sum_valid(values: List[int], limit: int) -> List[int]:
    # continue and break leave the try: finally counts every item looked at.
    total = 0
    seen = 0
    for v in values:
        try:
            if v < 0:
                continue
            if v > limit:
                break
            total += v
        finally:
            seen += 1
    return [total, seen]


def scan_until_zero(values: List[int]) -> List[int]:
    i = 0
    out: List[int] = []
    while i < len(values):
        try:
            if values[i] == 0:
                break
            if values[i] % 2 == 0:
                continue
            out.append(100 // values[i])
        finally:
            i += 1
    out.append(i)
    return out


def safe_div(a: int, b: int) -> int:
    # A return in finally replaces the ZeroDivisionError (and any earlier return).
    try:
        return a // b
    finally:
        if b == 0:
            return 0


def last_word(words: List[str], i: int) -> str:
    try:
        return words[i]
    finally:
        if not words:
            return "<empty>"


def divide_all(values: List[int], divisor: int) -> List[int]:
    # continue in finally drops the exception of the failed division and goes on.
    out: List[int] = []
    for v in values:
        try:
            out.append(v // divisor)
        finally:
            out.append(-1)
            continue
    return out


def stop_at_error(values: List[int]) -> int:
    # break in finally drops the IndexError and leaves the loop.
    total = 0
    for i in range(len(values) + 2):
        try:
            total += values[i]
        finally:
            if i >= len(values):
                break
    return total


def layered(x: int) -> List[int]:
    trail: List[int] = []
    try:
        try:
            if x > 3:
                return trail
            trail.append(10 // x)
        finally:
            trail.append(1)
            if x == 5:
                trail.append(55)
                return trail
    finally:
        trail.append(2)
    trail.append(3)
    return trail


def nested_override(x: int) -> int:
    try:
        try:
            return x
        finally:
            if x % 2 == 0:
                return x * 10
    finally:
        if x < 0:
            return -x


def release_both(values: List[int]) -> List[int]:
    # break and continue leave two try ... finally at once: both blocks run, inner first.
    log: List[int] = []
    for v in values:
        try:
            try:
                if v == 0:
                    break
                if v < 0:
                    continue
                log.append(100 // (v - 3))
            finally:
                log.append(-1)
        finally:
            log.append(-2)
    return log


def validated_total(prices: Dict[str, int], names: List[str]) -> str:
    # try/except/else/finally: else and the handler return; finally records every outcome.
    log: List[str] = []
    total = 0
    for name in names:
        try:
            price = prices[name]
            if price < 0:
                raise ValueError(f"negative price for {name}")
        except KeyError:
            log.append(f"unknown {name}")
            continue
        except ValueError as e:
            log.append(str(e))
            return "; ".join(log)
        else:
            total += price
            if total > 100:
                return f"over budget at {name}"
        finally:
            log.append("#")
    return f"{total} " + "".join(log)


def retries(attempts: int, fail_until: int) -> List[int]:
    # The classic retry loop: break on success, continue after a failure, a counter in finally.
    tries = 0
    got: List[int] = []
    while True:
        try:
            if tries < fail_until:
                raise RuntimeError("not yet")
            got.append(tries)
            break
        except RuntimeError:
            if tries + 1 >= attempts:
                got.append(-1)
                break
            continue
        finally:
            tries += 1
    got.append(tries)
    return got


def inner_loop_own_break(grid: List[List[int]]) -> List[int]:
    # The inner loop's break stays inside finally's body; the outer continue leaves it.
    rows: List[int] = []
    cleanups = 0
    for row in grid:
        try:
            if not row:
                continue
            best = 0
            for v in row:
                if v < 0:
                    break
                best = max(best, v)
            rows.append(best)
        finally:
            cleanups += 1
    rows.append(cleanups)
    return rows


def returns_in_handler_then_finally(text: str) -> str:
    steps: List[str] = []
    try:
        n = int(text)
    except ValueError:
        steps.append("bad")
        return ",".join(steps)
    finally:
        steps.append("done")
    return f"{n} {len(steps)}"


def final_raise_replaces_return(x: int) -> int:
    try:
        return x
    finally:
        if x > 10:
            raise ValueError(f"too large: {x}")


def count_lookups(record: Any, keys: List[str]) -> Any:
    # Boxed values: a KeyError from CPython's own lookup is dropped by the continue in finally.
    found: List[Any] = []
    for key in keys:
        try:
            found.append(record[key])
        finally:
            continue
    return found


def lookup_with_default(record: Any, key: str) -> Any:
    # A return in finally replaces CPython's exception of the lookup.
    value: Any = None
    try:
        value = record[key]
        return value
    finally:
        if value is None:
            return "missing"
