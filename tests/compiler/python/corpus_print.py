"""Functions that print, as their authors write them (test_print.py): `-> None`
helpers printing tables and progress lines, `print(f"...")`, `sep=` and
`end=`, prints inside loops with an early return, reports of lists and dicts,
None and Optional values, floats, a class's __str__, and functions that print
and then raise or overflow int64 (CPython must print those lines once)."""
from typing import Dict, List, Optional, Tuple


def hello(name: str) -> None:
    print("Hello,", name)


def greet_all(names: List[str]) -> None:
    for name in names:
        print(f"Hello, {name}!")


def square_table(n: int) -> None:
    print("n", "n^2", "n^3", sep="\t")
    for i in range(n):
        print(i, i * i, i * i * i, sep="\t")


def progress(total: int) -> int:
    done = 0
    for step in range(total):
        done += step
        print(f"step {step + 1}/{total}: {done}")
    print("finished")
    return done


def countdown(n: int) -> None:
    while n > 0:
        print(n, end=" ")
        n -= 1
    print("liftoff!")


def print_row(cells: List[int], width: int) -> None:
    print("|".join(str(c).rjust(width) for c in cells))


def matrix_report(rows: List[List[int]]) -> None:
    for row in rows:
        for x in row:
            print(x, end=" ")
        print()


def print_list(xs: List[int]) -> None:
    print(xs)
    print("sorted:", sorted(xs))
    print("reversed:", xs[::-1], "length", len(xs))


def print_words(words: List[str]) -> None:
    print(words)
    print(", ".join(words))


def print_counts(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    print(counts)
    for word, count in counts.items():
        print(f"{word!r}: {count}")
    return counts


def print_pairs(xs: List[int]) -> None:
    pairs: List[Tuple[int, str]] = [(x, str(x) * 2) for x in xs]
    print(pairs)
    for p in pairs:
        print(p)


def print_floats(amount: float) -> None:
    print(amount, amount / 3, amount * 1e20, amount * 1e-7, -amount)
    print(f"{amount:.2f} {amount:10.3e} {amount:%}")
    print([amount, amount / 7, 0.1 + 0.2])


def average_report(xs: List[float]) -> float:
    if not xs:
        print("no data")
        return 0.0
    mean = sum(xs) / len(xs)
    print("mean:", mean)
    print("max:", max(xs), "min:", min(xs))
    return mean


def print_bools(a: int, b: int) -> None:
    print(a < b, a == b, a > b)
    print(a < b and b > 0, not a)


def print_none(xs: List[int]) -> None:
    print(None)
    print("value:", None, "end")


def maybe_value(found: Optional[int]) -> None:
    print("got", found)
    if found is None:
        print("nothing")
    else:
        print(found + 1)


def first_negative(xs: List[int]) -> int:
    for i, x in enumerate(xs):
        print("checking", i)
        if x < 0:
            print("found", x, "at", i)
            return i
    print("none negative")
    return -1


def search_steps(xs: List[int], target: int) -> int:
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        print(f"lo={lo} hi={hi} mid={mid}")
        if xs[mid] == target:
            print("found at", mid)
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    print("not found")
    return -1


def bubble_sort_verbose(xs: List[int]) -> List[int]:
    items = list(xs)
    for i in range(len(items)):
        swapped = False
        for j in range(len(items) - 1 - i):
            if items[j] > items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
                swapped = True
        print("pass", i, items)
        if not swapped:
            break
    return items


def fizzbuzz(n: int) -> None:
    for i in range(1, n + 1):
        if i % 15 == 0:
            print("FizzBuzz")
        elif i % 3 == 0:
            print("Fizz")
        elif i % 5 == 0:
            print("Buzz")
        else:
            print(i)


def separators(a: str, b: str, sep: str) -> None:
    print(a, b, sep=sep)
    print(a, b, sep="")
    print(a, b, sep=sep, end=sep)
    print(a, end="")
    print(b, end=None)
    print(a, sep=None)


def empty_prints(n: int) -> None:
    print()
    print(end="")
    print(sep="-")
    for _ in range(n):
        print("", end="")
    print("", "", sep="")


def unicode_text(s: str) -> None:
    print(s, len(s))
    print(f"[{s:^9}]")
    print(s.upper(), s[::-1])


def banner(title: str, width: int) -> None:
    line = "=" * width
    print(line)
    print(title.center(width))
    print(line)


def describe_number(n: int) -> str:
    kind = "even" if n % 2 == 0 else "odd"
    print(f"{n} is {kind}")
    if n < 0:
        print(f"{n} is negative")
    return kind


def log_and_return(x: int, verbose: bool) -> int:
    if verbose:
        print("computing", x)
    y = x * 2 + 1
    if verbose:
        print("result", y)
    return y


def collatz_trace(n: int) -> int:
    steps = 0
    while n != 1 and n > 0 and steps < 50:
        print(n, end=" -> ")
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    print(n)
    return steps


def gcd_steps(a: int, b: int) -> int:
    while b:
        print(f"gcd({a}, {b})")
        a, b = b, a % b
    print("=", a)
    return a


def dict_report(d: Dict[str, int]) -> None:
    print(d)
    for k in sorted(d):
        print(k, "->", d[k])
    print(list(d.keys()), list(d.values()))


def nested_report(groups: List[List[int]]) -> None:
    print(groups)
    print([sum(g) for g in groups])
    print({i: len(g) for i, g in enumerate(groups)})


def set_report(xs: List[int]) -> None:
    seen = set(xs)
    print(sorted(seen))
    print(len(seen), "distinct")


def helper_line(label: str, value: int) -> None:
    print(f"{label:<8}{value:>6}")


def uses_helper(xs: List[int]) -> int:
    total = 0
    for i, x in enumerate(xs):
        helper_line("item" + str(i), x)
        total += x
    helper_line("total", total)
    return total


def print_then_raise(x: int) -> int:
    print("validating", x)
    if x < 0:
        raise ValueError(f"negative value: {x}")
    print("ok")
    return x


def print_then_index_error(xs: List[int], i: int) -> int:
    print("looking up", i, "in", xs)
    value = xs[i]
    print("found", value)
    return value


def print_then_overflow(x: int) -> int:
    print("cubing", x)
    y = x * x * x
    print("cube is", y)
    return y


def running_factorial(n: int) -> int:
    result = 1
    for i in range(1, n + 1):
        result *= i
        print(f"{i}! = {result}")
    return result


def print_then_key_error(d: Dict[str, int], key: str) -> int:
    print("keys:", sorted(d))
    return d[key]


def print_then_caught(xs: List[int], i: int) -> int:
    try:
        print("trying", i)
        v = xs[i]
        print("got", v)
        return v
    except IndexError:
        print("index", i, "is out of range")
        return -1


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def __str__(self) -> str:
        return f"Point({self.x}, {self.y})"

    def shift(self, d: int) -> int:
        self.x += d
        return self.x


def print_point(x: int, y: int) -> None:
    p = Point(x, y)
    print(p)
    print("moved:", p, p.shift(3))
    print(str(p), f"{p}")


def arguments_in_order(xs: List[int]) -> None:
    # A later argument that changes the list shows in the list's text: str() is taken at the write.
    print(xs, xs.pop() if xs else 0, xs)


def tuple_report(a: int, s: str) -> None:
    t = (a, s, a * 1.5, a > 0)
    print(t)
    print(t[0], t[1])
    print((a,), ())


def optional_list(xs: List[int], k: int) -> None:
    found: Optional[int] = None
    for x in xs:
        if x > k:
            found = x
            break
    print("first above", k, "is", found)
