"""Set arguments changed in place, as their authors write them: `-> None`
helpers that add to a `seen` set, visited sets threaded through BFS and DFS
helpers, dedupe helpers, the in-place set operators and methods, a set
passed on to another function that changes it, and functions that raise
half way after changing their arguments (lists and dicts too). Each runs
natively and in CPython on sets built with deletions first, so the caller's
table layout matters (tests/compiler/python/test_set_args.py)."""
from typing import Dict, List, Set, Tuple


def add_all(seen: Set[int], xs: List[int]) -> None:
    for x in xs:
        seen.add(x)


def mark_seen(seen: set[str], words: list[str]) -> None:
    for w in words:
        if w not in seen:
            seen.add(w)


def forget(seen: Set[int], xs: List[int]) -> None:
    for x in xs:
        seen.discard(x)


def forget_words(seen: Set[str], words: List[str]) -> None:
    for w in words:
        seen.discard(w)


def remove_known(known: Set[str], word: str) -> None:
    known.remove(word)


def remove_each(s: Set[int], xs: List[int]) -> int:
    removed = 0
    for x in xs:
        s.remove(x)
        removed += 1
    return removed


def take_some(s: Set[int], k: int) -> List[int]:
    taken: List[int] = []
    for _ in range(k):
        taken.append(s.pop())
    return taken


def take_word(words: Set[str]) -> str:
    return words.pop()


def reset(s: Set[str]) -> None:
    s.clear()


def merge_into(target: Set[int], other: Set[int]) -> None:
    target.update(other)


def merge_operator(target: Set[int], other: Set[int]) -> None:
    target |= other


def keep_common(target: Set[int], other: Set[int]) -> None:
    target &= other


def drop_others(target: Set[int], other: Set[int]) -> None:
    target -= other


def toggle_all(target: Set[int], other: Set[int]) -> None:
    target ^= other


def subtract_words(target: Set[str], other: Set[str]) -> None:
    target.difference_update(other)


def intersect_words(target: Set[str], other: Set[str]) -> None:
    target.intersection_update(other)


def toggle_words(target: Set[str], other: Set[str]) -> None:
    target.symmetric_difference_update(other)


def dedupe(xs: List[int], seen: Set[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def dedupe_words(words: List[str], seen: Set[str]) -> List[str]:
    unique = []
    for w in words:
        if w in seen:
            continue
        seen.add(w)
        unique.append(w)
    return unique


def record_pairs(pairs: Set[Tuple[int, str]], xs: List[int], tag: str) -> None:
    for x in xs:
        pairs.add((x, tag))


def visit(node: int, edges: List[Tuple[int, int]], visited: Set[int]) -> None:
    visited.add(node)
    for a, b in edges:
        if a == node and b not in visited:
            visit(b, edges, visited)


def reachable_count(start: int, edges: List[Tuple[int, int]], visited: Set[int]) -> int:
    before = len(visited)
    visit(start, edges, visited)
    return len(visited) - before


def bfs_order(start: int, edges: List[Tuple[int, int]], visited: Set[int]) -> List[int]:
    order = [start]
    visited.add(start)
    i = 0
    while i < len(order):
        node = order[i]
        i += 1
        for a, b in edges:
            if a == node and b not in visited:
                visited.add(b)
                order.append(b)
    return order


def add_then_forget_half(seen: Set[int], xs: List[int]) -> int:
    add_all(seen, xs)
    forget(seen, xs[::2])
    return len(seen)


def grow_then_thin(s: Set[int], n: int) -> None:
    for i in range(n):
        s.add(i * 7919 - 40)
    for i in range(0, n, 2):
        s.discard(i * 7919 - 40)


def new_letters(seen: Set[str], text: str) -> int:
    count = 0
    for ch in text:
        if ch not in seen:
            seen.add(ch)
            count += 1
    return count


def add_while_iterating(s: Set[int]) -> None:
    for x in s:
        if x % 2 == 0:
            s.add(x + 1001)


def add_until_negative(s: Set[int], xs: List[int]) -> None:
    for x in xs:
        if x < 0:
            raise ValueError(f"negative value: {x}")
        s.add(x)


def take_then_divide(s: Set[int], d: int) -> int:
    x = s.pop()
    return x // d


def replace_member(s: Set[int], old: int, new: int) -> bool:
    if old in s:
        s.remove(old)
        s.add(new)
        return True
    return False


def keep_at_least(s: Set[int], lo: int) -> None:
    for x in list(s):
        if x < lo:
            s.discard(x)


def merge_both_ways(a: Set[int], b: Set[int]) -> None:
    a |= b
    b.add(len(a))


def note_lengths(lengths: List[int], counts: Dict[str, int], words: List[str]) -> None:
    for w in words:
        counts[w] = counts.get(w, 0) + 1
        lengths.append(len(w))
    lengths.pop(len(words))


def append_then_store(xs: List[int], k: int) -> None:
    xs.append(k)
    xs[k] = 0


def bump_known(counts: Dict[str, int], words: List[str]) -> None:
    for w in words:
        counts[w] += 1


def seen_and_counted(seen: Set[str], counts: Dict[str, int], words: List[str]) -> None:
    for w in words:
        seen.add(w)
        counts[w] = len(w) // (len(w) - 3)
