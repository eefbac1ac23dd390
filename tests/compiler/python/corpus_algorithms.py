"""Differential corpus of everyday algorithms, written the way people write
them (helpers calling helpers, early returns, while loops, small classes),
in what the native compiler accepts: each runs natively and under CPython
(test_algorithms.py) on edge values: zero, negatives, int64 boundaries,
empty containers and non-ASCII text. Parameters named n, k or steps bound
loops and get small values."""


# ---- numbers -------------------------------------------------------------------
def gcd(a: int, b: int) -> int:
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def lcm(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return abs(a // gcd(a, b) * b)


def is_prime(x: int) -> bool:
    if x < 2:
        return False
    if x % 2 == 0:
        return x == 2
    i = 3
    while i * i <= x and i < 100000:
        if x % i == 0:
            return False
        i += 2
    return True


def count_primes(n: int) -> int:
    count = 0
    for v in range(n * 7):
        if is_prime(v):
            count += 1
    return count


def sieve(n: int) -> list[int]:
    limit = n * 5
    if limit < 2:
        return []
    marks = [True] * (limit + 1)
    marks[0] = False
    marks[1] = False
    p = 2
    while p * p <= limit:
        if marks[p]:
            for q in range(p * p, limit + 1, p):
                marks[q] = False
        p += 1
    return [i for i, m in enumerate(marks) if m]


def fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fib_memo(n: int) -> int:
    memo: dict[int, int] = {0: 0, 1: 1}
    for i in range(2, n + 1):
        memo[i] = memo[i - 1] + memo[i - 2]
    return memo[n] if n >= 0 else -1


def collatz_steps(x: int) -> int:
    if x <= 0:
        return -1
    steps = 0
    while x != 1 and steps < 1000:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


def digit_sum(x: int) -> int:
    x = abs(x)
    total = 0
    while x > 0:
        total += x % 10
        x //= 10
    return total


def reverse_digits(x: int) -> int:
    sign = -1 if x < 0 else 1
    x = abs(x)
    out = 0
    while x:
        out = out * 10 + x % 10
        x //= 10
    return sign * out


def is_palindrome_number(x: int) -> bool:
    if x < 0:
        return False
    return str(x) == str(x)[::-1]


def power(base: int, n: int) -> int:
    result = 1
    for _ in range(n):
        result *= base
    return result


def power_mod(base: int, n: int, m: int) -> int:
    result = 1
    base = base % m
    e = n
    while e > 0:
        if e % 2 == 1:
            result = result * base % m
        base = base * base % m
        e //= 2
    return result


def isqrt(x: int) -> int:
    if x < 0:
        return -1
    lo, hi = 0, min(x, 3037000499) + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid * mid <= x:
            lo = mid
        else:
            hi = mid
    return lo


def to_binary(x: int) -> str:
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits: list[str] = []
    while x != 0:
        digits.append(str(abs(x % 2)))
        x = abs(x) // 2
    return sign + "".join(digits[::-1])


def from_binary(s: str) -> int:
    value = 0
    for ch in s:
        if ch == "0" or ch == "1":
            value = value * 2 + ord(ch) - ord("0")
        else:
            return -1
    return value


def triangle(n: int) -> int:
    return n * (n + 1) // 2


def signum(x: int) -> int:
    if x > 0:
        return 1
    elif x < 0:
        return -1
    return 0


def clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(x, hi))


def mean(xs: list[int]) -> float:
    return sum(xs) / len(xs)


def variance(xs: list[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = sum(xs, 0.0) / len(xs)
    return sum([(x - m) * (x - m) for x in xs], 0.0) / (len(xs) - 1)


def median(xs: list[int]) -> float:
    ys = sorted(xs)
    n = len(ys)
    if n % 2 == 1:
        return float(ys[n // 2])
    return (ys[n // 2 - 1] + ys[n // 2]) / 2


def celsius(f: float) -> float:
    return (f - 32.0) * 5.0 / 9.0


def hypot_squared(x: float, y: float) -> float:
    return x * x + y * y


# ---- lists ---------------------------------------------------------------------
def binary_search(xs: list[int], target: int) -> int:
    ys = sorted(xs)
    lo, hi = 0, len(ys) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if ys[mid] == target:
            return mid
        if ys[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def bubble_sort(xs: list[int]) -> list[int]:
    ys = xs.copy()
    n = len(ys)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if ys[j] > ys[j + 1]:
                tmp = ys[j]
                ys[j] = ys[j + 1]
                ys[j + 1] = tmp
                swapped = True
        if not swapped:
            break
    return ys


def insertion_sort(xs: list[int]) -> list[int]:
    ys = list(xs)
    for i in range(1, len(ys)):
        key = ys[i]
        j = i - 1
        while j >= 0 and ys[j] > key:
            ys[j + 1] = ys[j]
            j -= 1
        ys[j + 1] = key
    return ys


def selection_sort(xs: list[int]) -> list[int]:
    ys = xs[:]
    for i in range(len(ys)):
        best = i
        for j in range(i + 1, len(ys)):
            if ys[j] < ys[best]:
                best = j
        smallest = ys[best]
        ys[best] = ys[i]
        ys[i] = smallest
    return ys


def merge(a: list[int], b: list[int]) -> list[int]:
    out: list[int] = []
    i, j = 0, 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out


def merge_sort(xs: list[int]) -> list[int]:
    if len(xs) <= 1:
        return xs[:]
    mid = len(xs) // 2
    return merge(merge_sort(xs[:mid]), merge_sort(xs[mid:]))


def quicksort(xs: list[int]) -> list[int]:
    if len(xs) <= 1:
        return xs[:]
    pivot = xs[len(xs) // 2]
    less = [x for x in xs if x < pivot]
    equal = [x for x in xs if x == pivot]
    more = [x for x in xs if x > pivot]
    return quicksort(less) + equal + quicksort(more)


def max_subarray(xs: list[int]) -> int:
    if not xs:
        return 0
    best = xs[0]
    current = best
    for x in xs[1:]:
        current = max(x, current + x)
        best = max(best, current)
    return best


def two_sum(xs: list[int], target: int) -> list[int]:
    seen: dict[int, int] = {}
    for i, x in enumerate(xs):
        if target - x in seen:
            return [seen[target - x], i]
        seen[x] = i
    return []


def running_sum(xs: list[int]) -> list[int]:
    out: list[int] = []
    total = 0
    for x in xs:
        total += x
        out.append(total)
    return out


def count_inversions(xs: list[int]) -> int:
    count = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] > xs[j]:
                count += 1
    return count


def mode(xs: list[int]) -> int:
    counts: dict[int, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    best, best_count = 0, 0
    for x, c in counts.items():
        if c > best_count:
            best, best_count = x, c
    return best


def dedupe(xs: list[int]) -> list[int]:
    seen: set[int] = set()
    out: list[int] = []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def chunks(xs: list[int], k: int) -> list[list[int]]:
    if k <= 0:
        return []
    return [xs[i:i + k] for i in range(0, len(xs), k)]


def flatten(grid: list[list[int]]) -> list[int]:
    return [x for row in grid for x in row]


def transpose(grid: list[list[int]]) -> list[list[int]]:
    if not grid:
        return []
    width = min(len(row) for row in grid)
    return [[row[c] for row in grid] for c in range(width)]


def row_sums(grid: list[list[int]]) -> list[int]:
    return [sum(row) for row in grid]


def diagonal_sum(grid: list[list[int]]) -> int:
    total = 0
    for i in range(len(grid)):
        total += grid[i][i]
    return total


def rotate(xs: list[int], k: int) -> list[int]:
    if not xs:
        return []
    k = k % len(xs)
    return xs[-k:] + xs[:-k]


def second_largest(xs: list[int]) -> int:
    first = -9223372036854775808
    second = first
    for x in xs:
        if x > first:
            first, second = x, first
        elif first > x > second:
            second = x
    return second


def all_unique(xs: list[int]) -> bool:
    return len(set(xs)) == len(xs)


def is_sorted(xs: list[int]) -> bool:
    return all(xs[i] <= xs[i + 1] for i in range(len(xs) - 1))


def pairwise_diffs(xs: list[int]) -> list[int]:
    return [b - a for a, b in zip(xs, xs[1:])]


def clamp_all(xs: list[int], lo: int, hi: int) -> list[int]:
    return [clamp(x, lo, hi) for x in xs]


def pascal_row(n: int) -> list[int]:
    row = [1]
    for _ in range(n):
        row = [a + b for a, b in zip([0] + row, row + [0])]
    return row


def climb_stairs(n: int) -> int:
    if n <= 1:
        return 1
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return b


def coin_ways(coins: list[int], n: int) -> int:
    ways = [0] * (max(n, 0) + 1)
    ways[0] = 1
    for c in coins:
        if c <= 0:
            continue
        for v in range(c, n + 1):
            ways[v] += ways[v - c]
    return ways[n] if n >= 0 else 0


def knapsack(weights: list[int], values: list[int], n: int) -> int:
    best = [0] * (max(n, 0) + 1)
    for w, v in zip(weights, values):
        if w <= 0:
            continue
        for cap in range(n, w - 1, -1):
            best[cap] = max(best[cap], best[cap - w] + v)
    return best[max(n, 0)]


def pop_pairs(ps: list[tuple[int, int]]) -> int:
    work = ps.copy()
    total = 0
    while work:
        t = work.pop()
        total = total * 3 + t[0] - t[1]
    return total


def histogram(xs: list[int]) -> dict[int, int]:
    h: dict[int, int] = {}
    for x in xs:
        h[x % 10] = h.get(x % 10, 0) + 1
    return h


def moving_average(xs: list[float], k: int) -> list[float]:
    if k <= 0:
        return []
    out: list[float] = []
    for i in range(len(xs) - k + 1):
        out.append(sum(xs[i:i + k], 0.0) / k)
    return out


def dot(a: list[float], b: list[float]) -> float:
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total


# ---- text ----------------------------------------------------------------------
def word_count(s: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for w in s.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


def char_frequency(s: str) -> dict[str, int]:
    freq: dict[str, int] = {}
    for ch in s:
        if ch in freq:
            freq[ch] += 1
        else:
            freq[ch] = 1
    return freq


def is_anagram(a: str, b: str) -> bool:
    return sorted(a) == sorted(b)


def vowel_count(s: str) -> int:
    return sum(1 for ch in s if ch in "aeiouAEIOU")


def reverse_words(s: str) -> str:
    return " ".join(s.split()[::-1])


def longest_common_prefix(words: list[str]) -> str:
    if not words:
        return ""
    prefix = words[0]
    for w in words[1:]:
        while not w.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


def longest_word(words: list[str]) -> str:
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def is_balanced(s: str) -> bool:
    stack: list[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack


def roman_to_int(s: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    prev = 0
    for ch in s[::-1]:
        v = values[ch]
        if v < prev:
            total -= v
        else:
            total += v
            prev = v
    return total


def int_to_roman(x: int) -> str:
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
             (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    x = x % 4000
    for value, numeral in table:
        while x >= value:
            out += numeral
            x -= value
    return out


def hamming(a: str, b: str) -> int:
    if len(a) != len(b):
        return -1
    return sum(1 for x, y in zip(a, b) if x != y)


def levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a):
        cur = [i + 1]
        for j, cb in enumerate(b):
            cur.append(min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (ca != cb)))
        prev = cur
    return prev[-1]


def lcs_length(a: str, b: str) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[len(a)][len(b)]


def run_length(s: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for ch in s:
        if out and out[-1][0] == ch:
            last = out.pop()
            out.append((ch, last[1] + 1))
        else:
            out.append((ch, 1))
    return out


def run_length_text(s: str) -> str:
    return "".join(f"{ch}{count}" for ch, count in run_length(s))


def is_subsequence(a: str, b: str) -> bool:
    i = 0
    for ch in b:
        if i < len(a) and a[i] == ch:
            i += 1
    return i == len(a)


def count_overlapping(s: str, sub: str) -> int:
    if not sub:
        return len(s) + 1
    count = 0
    for i in range(len(s) - len(sub) + 1):
        if s[i:i + len(sub)] == sub:
            count += 1
    return count


def interleave(a: str, b: str) -> str:
    out: list[str] = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return "".join(out)


def group_by_length(words: list[str]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for w in words:
        if len(w) not in groups:
            groups[len(w)] = []
        groups[len(w)].append(w)
    return groups


def top_words(words: list[str], k: int) -> list[str]:
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    ranked = sorted([(-c, w) for w, c in counts.items()])
    return [w for _, w in ranked[:k]]


def acronym(s: str) -> str:
    return "".join(w[0] for w in s.split() if w)


def pad_left(s: str, n: int) -> str:
    if len(s) >= n:
        return s
    return " " * (n - len(s)) + s


def parse_csv_ints(s: str) -> list[int]:
    out: list[int] = []
    for part in s.split(","):
        part = part.strip()
        if part and part.isdigit():
            out.append(int(part))
    return out


def describe(name: str, score: int) -> str:
    grade = "A" if score >= 90 else "B" if score >= 80 else "C"
    return f"{name}: {score} ({grade})"


# ---- small classes ---------------------------------------------------------------
class Stack:
    def __init__(self) -> None:
        self.items: list[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int:
        return self.items.pop()

    def size(self) -> int:
        return len(self.items)


def rpn_eval(tokens: list[str]) -> int:
    stack = Stack()
    for tok in tokens:
        if tok == "+" or tok == "-" or tok == "*":
            b = stack.pop()
            a = stack.pop()
            if tok == "+":
                stack.push(a + b)
            elif tok == "-":
                stack.push(a - b)
            else:
                stack.push(a * b)
        elif tok.isdigit():
            stack.push(int(tok))
    return stack.pop() if stack.size() > 0 else 0


class Account:
    def __init__(self, owner: str, balance: int) -> None:
        self.owner = owner
        self.balance = balance

    def deposit(self, amount: int) -> int:
        if amount > 0:
            self.balance += amount
        return self.balance

    def withdraw(self, amount: int) -> bool:
        if 0 < amount <= self.balance:
            self.balance -= amount
            return True
        return False


def account_history(amounts: list[int]) -> str:
    acct = Account("ana", 100)
    refused = 0
    for a in amounts:
        if a >= 0:
            acct.deposit(a)
        elif not acct.withdraw(-a):
            refused += 1
    return f"{acct.owner}: {acct.balance}, refused {refused}"
