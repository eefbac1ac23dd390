"""Sets as their authors use them (typing names, set algebra, iteration, pop,
sets returned), each compiled natively and compared with CPython on its own
answers, order of iteration included (tests/compiler/python/test_sets.py).

replay_ints applies a sequence of set operations given as data, so seeded
random sequences of thousands of operations exercise the whole table:
growth, dummies, pops, clears and the algebra's loops (the test compiles it
for str and tuple members too)."""
from typing import Dict, List, Set, Tuple

def replay_ints(ops: List[Tuple[int, int]]) -> List[int]:
    s: Set[int] = set()
    t: Set[int] = set()
    out: List[int] = []
    for op, v in ops:
        if op == 0:
            s.add(v)
        elif op == 1:
            s.discard(v)
        elif op == 2:
            if s:
                out.append(s.pop())
        elif op == 3:
            t.add(v)
        elif op == 4:
            t.discard(v)
        elif op == 5:
            s = s | t
        elif op == 6:
            s = s & t
        elif op == 7:
            s = s - t
        elif op == 8:
            s = s ^ t
        elif op == 9:
            s |= t
        elif op == 10:
            s &= t
        elif op == 11:
            s -= t
        elif op == 12:
            s ^= t
        elif op == 13:
            s.update(t)
        elif op == 14:
            t = s.copy()
        elif op == 15:
            for x in s:
                out.append(x)
        elif op == 16:
            s.clear()
        elif op == 17:
            s = set(out)
        elif op == 18:
            t = t - s
    for x in s:
        out.append(x)
    for x in t:
        out.append(x)
    return out


def distinct_values(xs: List[int]) -> Set[int]:
    return set(xs)


def common_elements(a: List[int], b: List[int]) -> Set[int]:
    return set(a) & set(b)


def only_in_first(a: List[int], b: List[int]) -> Set[int]:
    return set(a) - set(b)


def in_exactly_one(a: List[int], b: List[int]) -> Set[int]:
    return set(a) ^ set(b)


def union_of(a: List[int], b: List[int]) -> Set[int]:
    return set(a) | set(b)


def union_all(groups: List[List[int]]) -> Set[int]:
    result: Set[int] = set()
    for group in groups:
        result |= set(group)
    return result


def vowels_in(text: str) -> Set[str]:
    return {c for c in text if c in "aeiouéö"}


def first_duplicate(xs: List[int]) -> int:
    seen: Set[int] = set()
    for x in xs:
        if x in seen:
            return x
        seen.add(x)
    return -1


def has_pair_with_sum(xs: List[int], target: int) -> bool:
    seen: Set[int] = set()
    for x in xs:
        if target - x in seen:
            return True
        seen.add(x)
    return False


def drain_in_pop_order(xs: List[int]) -> List[int]:
    pending = set(xs)
    order: List[int] = []
    while pending:
        order.append(pending.pop())
    return order


def words_in_set_order(words: List[str]) -> List[str]:
    return [w for w in set(words)]


def sorted_distinct(xs: List[int]) -> List[int]:
    return sorted(set(xs))


def mirrored_pairs(pairs: List[Tuple[int, int]]) -> Set[Tuple[int, int]]:
    found: Set[Tuple[int, int]] = set()
    for a, b in pairs:
        if (b, a) in found:
            found.discard((b, a))
        else:
            found.add((a, b))
    return found


def visited_cells(moves: str) -> Set[Tuple[int, int]]:
    x, y = 0, 0
    visited = {(0, 0)}
    for m in moves:
        if m == "a":
            x -= 1
        elif m == "b":
            y += 1
        else:
            x += 1
        visited.add((x, y))
    return visited


def reachable(edges: List[Tuple[int, int]], start: int) -> Set[int]:
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        for a, b in edges:
            if a == node and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen


def missing_below(xs: List[int], n: int) -> Set[int]:
    return set(range(n)) - set(xs)


def without(xs: List[int], ys: List[int]) -> Set[int]:
    s = set(xs)
    for y in ys:
        s.discard(y)
    return s


def strict_without(xs: List[int], y: int) -> Set[int]:
    s = set(xs)
    s.remove(y)
    return s


def distinct_chars(text: str) -> int:
    return len(set(text))


def shared_letters(a: str, b: str) -> Set[str]:
    return set(a).intersection(set(b))


def letters_only_in(a: str, b: str) -> Set[str]:
    return set(a).difference(set(b))


def narrowed(a: List[int], b: List[int]) -> Set[int]:
    s = set(a)
    s.intersection_update(set(b))
    return s


def thinned(a: List[int], b: List[int]) -> Set[int]:
    s = set(a)
    s.difference_update(set(b))
    return s


def toggled(a: List[int], b: List[int]) -> Set[int]:
    s = set(a)
    s.symmetric_difference_update(set(b))
    return s


def doubled_members(s: Set[int]) -> List[int]:
    return [x // 2 for x in s]


def merged(a: Set[int], b: Set[int]) -> Set[int]:
    return a | b


def merged_words(a: Set[str], w: str) -> Set[str]:
    t = a.copy()
    t.add(w)
    return t


def dedupe_keep_first(words: List[str]) -> List[str]:
    seen: Set[str] = set()
    out: List[str] = []
    for w in words:
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def neighbours_present(points: List[Tuple[int, int]]) -> int:
    cells = set(points)
    count = 0
    for x, y in cells:
        if (x + 1, y) in cells:
            count += 1
    return count


def same_members(a: List[int], b: List[int]) -> bool:
    return set(a) == set(b)


def keys_as_set(counts: Dict[str, int]) -> Set[str]:
    return {k for k in counts if counts[k] > 0}


def pop_two(xs: List[int]) -> Tuple[int, int]:
    s = set(xs)
    first = s.pop()
    second = s.pop()
    return first, second


def regrown(xs: List[int]) -> Set[int]:
    s = set(xs)
    for x in xs:
        s.discard(x)
        s.add(x)
    s.clear()
    s.update(xs)
    return s


def scaled_by(xs: List[int], k: int) -> List[int]:
    scale = lambda v: v * k
    return [scale(x) for x in xs]


def incremented(xs: List[int]) -> List[int]:
    return list(map(lambda v: v + 1, xs))


def evens(xs: List[int]) -> List[int]:
    return list(filter(lambda v: v % 2 == 0, xs))


def truthy_words(words: List[str]) -> List[str]:
    return list(filter(None, words))


def doubled_total(xs: List[int]) -> int:
    total = 0
    for y in map(lambda v: v * 2, xs):
        total += y
    return total


def count_long(words: List[str], n: int) -> int:
    count = 0
    for w in filter(lambda s: len(s) > n, words):
        count += 1
    return count


def any_negative(xs: List[int]) -> bool:
    negative = lambda v: v < 0
    return any(negative(x) for x in xs)


def all_within(xs: List[int], k: int) -> bool:
    within = lambda v: -k <= v <= k
    return all(within(x) for x in xs)


def combined(a: int, b: int) -> int:
    return (lambda x, y: x * 10 + y)(a, b)


def by_length(words: List[str]) -> List[str]:
    key = lambda s: len(s)
    return sorted(words, key=key)


def joined(xs: List[int]) -> str:
    return ",".join(map(str, xs))


def pairwise_sums(a: List[int], b: List[int]) -> List[int]:
    return list(map(lambda x, y: x + y, a, b))


def distinct_squares(xs: List[int]) -> Set[int]:
    return set(map(lambda v: v * v, xs))


def total_lengths(words: List[str]) -> int:
    return sum(map(len, words))


def clamp_all(xs: List[int], lo: int, hi: int) -> List[int]:
    clamp = lambda v: lo if v < lo else hi if v > hi else v
    return [clamp(x) for x in xs]


def late_bound(xs: List[int]) -> List[int]:
    offset = 1
    shift = lambda v: v + offset
    out = [shift(x) for x in xs]
    offset = 100
    out.append(shift(0))
    return out


def composed(x: int) -> int:
    inc = lambda v: v + 1
    twice = lambda v: inc(inc(v))
    return twice(x)


def largest_gap(xs: List[int]) -> int:
    gaps = list(map(lambda p: p[1] - p[0], zip(xs, xs[1:])))
    return max(gaps) if gaps else 0


def longest_word(words: List[str]) -> str:
    return max(words, key=lambda w: len(w))


def shortest_word(words: List[str]) -> str:
    size = lambda w: len(w)
    return min(words, key=size)


def heaviest(pairs: List[Tuple[int, int]]) -> Tuple[int, int]:
    return max(pairs, key=lambda p: p[1])


def closest_to(xs: List[int], k: int) -> int:
    return min(xs, key=lambda v: abs(v - k))


def constant_display() -> List[int]:
    small = {45, 95, -84, -35, -70}
    return [x for x in small]


def display_with_names(a: int, b: int) -> Set[int]:
    return {a, b, 94, 15, 20, 66, -3, -47, -76, 24}


def constant_pairs_display() -> Set[Tuple[int, int]]:
    return {(1, 2), (2, 1), (0, 0), (-1, -1), (5, 5), (3, -3), (8, 0)}


def folded_arithmetic_display() -> Set[int]:
    return {2 ** 8, -1, -2, 7 * 9, 100 - 1, 3}


def iterate_constant_display() -> List[int]:
    out: List[int] = []
    for v in {45, 95, -84, -35, -70, 2 ** 8}:
        out.append(v)
    return out


def small_display_in_comprehension(k: int) -> List[int]:
    return [v * k for v in {-1, -2}]


def keys_of(counts: Dict[str, int]) -> Set[str]:
    return set(counts)


def copy_of(s: Set[int]) -> Set[int]:
    return set(s)


def index_members(xs: List[int]) -> Set[int]:
    positions: Dict[int, int] = {}
    for i, x in enumerate(xs):
        positions[x] = i
    return set(positions)
