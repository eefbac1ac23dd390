"""Differential corpus over str, list, dict, set, tuple and classes: each
function runs natively and under CPython on inputs drawn from its
annotations (test_containers.py), including empty containers, negative
indices, missing keys and non-ASCII text."""


# ---- str ---------------------------------------------------------------------
def s_len(s: str) -> int:
    return len(s)


def s_index(s: str, i: int) -> str:
    return s[i]


def s_slice(s: str, a: int, b: int) -> str:
    return s[a:b]


def s_step(s: str, k: int) -> str:
    return s[::k]


def s_reverse(s: str) -> str:
    return s[::-1]


def s_concat_repeat(s: str, n: int) -> str:
    return (s + "|") * n


def s_compare(a: str, b: str) -> bool:
    return a < b


def s_contains(a: str, b: str) -> bool:
    return b in a and a not in b


def s_find_count(s: str, sub: str) -> int:
    return s.find(sub) * 100 + s.count(sub)


def s_index_method(s: str, sub: str) -> int:
    return s.index(sub)


def s_split_join(s: str) -> str:
    return "-".join(s.split())


def s_split_sep(s: str, sep: str) -> list[str]:
    return s.split(sep)


def s_strip(s: str) -> str:
    return "[" + s.strip() + "|" + s.lstrip() + "|" + s.rstrip() + "]"


def s_strip_chars(s: str, chars: str) -> str:
    return s.strip(chars)


def s_case(s: str) -> str:
    return s.upper() + s.lower()


def s_classes(s: str) -> int:
    n = 0
    if s.isdigit():
        n += 1
    if s.isalpha():
        n += 2
    if s.isspace():
        n += 4
    if s.isalnum():
        n += 8
    if s.isupper():
        n += 16
    if s.islower():
        n += 32
    return n


def s_prefix(s: str, p: str) -> int:
    return int(s.startswith(p)) + 2 * int(s.endswith(p))


def s_replace(s: str, old: str, new: str) -> str:
    return s.replace(old, new)


def s_int_roundtrip(s: str) -> int:
    return int(s) * 2


def s_from_int(n: int) -> str:
    return str(n) + str(n > 0)


def s_fstring(name: str, n: int) -> str:
    return f"{name}={n}; ok={n % 2 == 0}"


def s_ord_sum(s: str) -> int:
    total = 0
    for ch in s:
        total = total * 31 % 1000003 + ord(ch)
    return total


def s_chr_range(a: int, n: int) -> str:
    out = ""
    for i in range(n):
        out += chr(a + i)
    return out


def s_caesar(s: str, k: int) -> str:
    out: list[str] = []
    for ch in s:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        else:
            out.append(ch)
    return "".join(out)


def s_palindrome(s: str) -> bool:
    t = [c for c in s.lower() if c.isalnum()]
    return t == t[::-1]


def s_chars_sorted(s: str) -> list[str]:
    return sorted(s)


# ---- list --------------------------------------------------------------------
def l_sum_neg(xs: list[int]) -> int:
    total = 0
    for i in range(len(xs)):
        total += xs[-1 - i] * (i + 1)
    return total


def l_index(xs: list[int], i: int) -> int:
    return xs[i]


def l_slice(xs: list[int], a: int, b: int, k: int) -> list[int]:
    return xs[a:b:k]


def l_build(n: int) -> list[int]:
    out: list[int] = []
    for i in range(n):
        out.append(i * i)
    out.insert(1, -1)
    out.insert(-1, -2)
    out.extend([7, 8])
    out += [9]
    return out


def l_pop(xs: list[int], i: int) -> list[int]:
    ys = xs.copy()
    a = ys.pop()
    b = ys.pop(i)
    return [a, b] + ys


def l_methods(xs: list[int], v: int) -> int:
    ys = list(xs)
    ys.append(v)
    ys.remove(v)
    return ys.index(v) * 1000 + ys.count(v)


def l_sort(xs: list[int]) -> list[int]:
    ys = xs[:]
    ys.sort()
    zs = sorted(xs, reverse=True)
    return ys + zs


def l_sort_str(xs: list[str]) -> list[str]:
    return sorted(xs) + sorted(xs, reverse=True)


def l_reverse_clear(xs: list[int]) -> int:
    ys = list(xs)
    ys.reverse()
    first = ys[0] if ys else -1
    ys.clear()
    return first * 10 + len(ys)


def l_minmax(xs: list[int]) -> int:
    return max(xs) - min(xs)


def l_float_sum(xs: list[float]) -> float:
    return sum(xs, 0.0) + max(xs)


def l_contains(xs: list[int], v: int) -> bool:
    return v in xs and v + 1 not in xs


def l_compare(a: list[int], b: list[int]) -> int:
    return int(a == b) + 2 * int(a < b) + 4 * int(a >= b)


def l_comprehension(xs: list[int]) -> list[int]:
    return [x * 2 for x in xs if x % 2 == 0] + [x for x in xs if x < 0]


def l_nested(grid: list[list[int]]) -> list[int]:
    return [sum(row) for row in grid] + [len(row) for row in grid if row]


def l_flatten(grid: list[list[int]]) -> list[int]:
    return [x for row in grid for x in row if x != 0]


def l_enumerate(xs: list[str]) -> list[str]:
    return [str(i) + ":" + x for i, x in enumerate(xs, 1)]


def l_zip(a: list[int], b: list[str]) -> dict[str, int]:
    return {k: v for v, k in zip(a, b)}


def l_del(xs: list[int], i: int) -> list[int]:
    ys = list(xs)
    del ys[i]
    ys[0] = ys[-1]
    return ys


def l_repeat(xs: list[int], n: int) -> list[int]:
    return xs * n + n * [0]


def l_any_all(xs: list[int]) -> int:
    return int(any(x > 3 for x in xs)) + 2 * int(all(x > 0 for x in xs)) + 4 * int(any(xs))


def l_mutate_copy(xs: list[int]) -> list[int]:
    ys = xs.copy()
    for i in range(len(ys)):
        ys[i] = ys[i] * ys[i]
    return ys


def l_iterate_while_growing(n: int) -> int:
    xs = [1]
    count = 0
    for x in xs:
        count += x
        if len(xs) < n:
            xs.append(x + 1)
    return count


def l_strs(words: list[str]) -> str:
    longest = ""
    for w in words:
        if len(w) > len(longest):
            longest = w
    return longest + "/" + ",".join(words)


# ---- dict --------------------------------------------------------------------
def d_word_counts(text: str) -> dict[str, int]:
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


def d_lookup(d: dict[str, int], k: str) -> int:
    return d[k]


def d_items(d: dict[str, int]) -> list[str]:
    return [k + "=" + str(v) for k, v in d.items()]


def d_keys_values(d: dict[str, int]) -> int:
    total = 0
    for k in d:
        total += len(k)
    for v in d.values():
        total += v
    return total + len(list(d.keys()))


def d_pop(d: dict[str, int], k: str) -> int:
    e = d.copy()
    a = e.pop(k, -1)
    b = e.setdefault(k, 7)
    return a * 100 + b + len(e)


def d_pop_missing(d: dict[str, int], k: str) -> int:
    e = d.copy()
    return e.pop(k)


def d_del(d: dict[int, int], k: int) -> list[int]:
    e = d.copy()
    del e[k]
    e[k] = 0
    return list(e.keys())


def d_invert(d: dict[str, int]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for k, v in d.items():
        if v not in out:
            out[v] = []
        out[v].append(k)
    return out


def d_augment(keys: list[str]) -> dict[str, int]:
    d: dict[str, int] = {}
    for k in keys:
        if k not in d:
            d[k] = 0
        d[k] += len(k)
    return d


def d_changes_size(d: dict[str, int]) -> int:
    e = d.copy()
    n = 0
    for k in e:
        n += 1
        if n == 2:
            e[k + "!"] = 1
    return n


def d_update_eq(a: dict[str, int], b: dict[str, int]) -> bool:
    c = a.copy()
    c.update(b)
    return c == b or len(c) == len(a)


def d_tuple_keys(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    d: dict[tuple[int, int], int] = {}
    for p in pairs:
        d[p] = d.get(p, 0) + p[0] - p[1]
    return d


# ---- set ---------------------------------------------------------------------
def st_unique(xs: list[int]) -> int:
    seen = set()
    dups = 0
    for x in xs:
        if x in seen:
            dups += 1
        seen.add(x)
    return dups * 100 + len(seen)


def st_sorted(words: list[str]) -> list[str]:
    return sorted(set(words))


def st_ops(xs: list[int], v: int) -> int:
    s = set(xs)
    s.discard(v)
    s.add(v + 1)
    t = {x * 2 for x in xs}
    return len(s) * 100 + len(t) + int(s == t)


def st_remove(s: set[int], v: int) -> list[int]:
    t = s.copy()
    t.remove(v)
    return sorted(t)


# ---- tuple -------------------------------------------------------------------
def t_swap(p: tuple[int, str]) -> tuple[str, int]:
    a, b = p
    return b, a


def t_index(p: tuple[int, int, int], i: int) -> int:
    return p[i] + p[-1]


def t_compare(a: tuple[int, str], b: tuple[int, str]) -> bool:
    return a < b or a == b


def t_minmax_pairs(xs: list[int]) -> tuple[int, int]:
    lo, hi = xs[0], xs[0]
    for x in xs:
        lo, hi = min(lo, x), max(hi, x)
    return lo, hi


def t_sort_pairs(pairs: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return sorted(pairs)


# ---- classes -----------------------------------------------------------------
class Counter:
    total: int
    names: list[str]

    def __init__(self, start: int) -> None:
        self.total = start
        self.names = []

    def add(self, name: str, n: int) -> None:
        self.total += n
        self.names.append(name)

    def summary(self) -> str:
        return ",".join(self.names) + ":" + str(self.total)


class Vec:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def dot(self, o: "Vec") -> int:
        return self.x * o.x + self.y * o.y

    def scaled(self, k: int) -> "Vec":
        return Vec(self.x * k, self.y * k)


class Stack:
    items: list[int]
    label: str = "stack"

    def __init__(self) -> None:
        self.items = []

    def push(self, v: int) -> None:
        self.items.append(v)

    def pop(self) -> int:
        return self.items.pop()


def c_counter(words: list[str]) -> str:
    c = Counter(0)
    for w in words:
        c.add(w, len(w))
    return c.summary()


def c_vectors(xs: list[int]) -> int:
    total = 0
    for i in range(len(xs) - 1):
        a = Vec(xs[i], i)
        b = a.scaled(2)
        total += a.dot(b)
    return total


def c_stack(xs: list[int], pops: int) -> int:
    s = Stack()
    for x in xs:
        s.push(x)
    total = 0
    for _ in range(pops):
        total = total * 10 + s.pop()
    return total + len(s.label)


def c_aliasing(n: int) -> int:
    a = Stack()
    b = a
    b.push(n)
    items = [a, b]
    items[0].push(n + 1)
    return len(a.items) * 100 + int(items[0] is items[1])


# ---- evaluation order, conditions, inference -----------------------------------
def e_index_then_key(xs: list[int], d: dict[str, int]) -> int:
    return xs[5] + d["missing"]

def e_key_then_index(xs: list[int], d: dict[str, int]) -> int:
    return d["missing"] + xs[5]

def e_setitem_value_first(xs: list[int]) -> list[int]:
    ys = [1, 2]
    ys[xs[9]] = xs[8]
    return ys

def e_index_then_div(s: str, i: int) -> str:
    return s[i] * (10 // i)

def e_dict_display_order(d: dict[str, int], k: str) -> dict[str, int]:
    e = {k: 1 // 0, "a": d[k]}
    return e

def e_comprehension_faults(xs: list[int]) -> int:
    return min(xs) - sum([x // 0 for x in xs])

def e_nested_copy(d: dict[str, list[int]], k: str) -> int:
    e = {kk: list(v) for kk, v in d.items()}
    e[k].append(len(e))
    return sum(e[k])

def e_enumerate_unpack(ps: list[tuple[int, str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, (n, s) in enumerate(ps):
        out[s * 2] = n + i
    return out

def e_str_mix(a: str, b: str) -> list[str]:
    return [a + b, a * 2, b[::-1], (a + b)[1:-1], a.replace("", "|"), str(len(a + b))]

def e_str_chain(a: str, b: str, c: str) -> bool:
    return a < b <= c != a

def e_mixed_conditions(xs: list[int], s: str) -> str:
    return (s and s[0]) or "none" if xs or s else "empty"

def e_inferred_while(n: int) -> list[int]:
    out = []
    while len(out) < n:
        out.append(len(out) * 2)
        if len(out) % 3 == 0:
            continue
        out.append(-1)
    return out


# ---- workloads ---------------------------------------------------------------
def w_word_freq(words: list[str], queries: list[str]) -> int:
    """The container benchmark: a dict of word counts, then lookups and a list sum."""
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    hits: list[int] = []
    for q in queries:
        hits.append(counts.get(q, 0))
    return sum(hits) + len(counts)


def w_int_table(n: int) -> int:
    """Container benchmark without boundary costs: list and dict of ints built natively."""
    xs: list[int] = []
    for i in range(n):
        xs.append(i * 7919 % 1000)
    counts: dict[int, int] = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    total = 0
    for x in xs:
        total += counts[x]
    return total


def w_native_words(n: int) -> int:
    """Container benchmark over str keys built natively: word counts, then lookups."""
    words: list[str] = []
    for i in range(n):
        words.append("w" + str(i * 7919 % 2000))
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    total = 0
    for w in words:
        total += counts[w]
    return total + len(counts)
