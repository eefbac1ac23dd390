"""Typed code counting and grouping with collections.defaultdict and Counter,
written as its authors would: `counts: Dict[str, int] = defaultdict(int)`
and `counts[w] += 1`, `groups[key].append(x)` on a defaultdict(list), sets
of neighbours in a graph, `.get` and `in` (which do not insert), reads of
missing keys (which insert for a defaultdict, not for a Counter),
`Counter(words).most_common(n)`, and `dict(d)` to hand the result back.
test_defaultdicts.py compares each with CPython."""
import collections
from collections import Counter, defaultdict
from typing import Dict, List, Set, Tuple


def word_counts(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = defaultdict(int)
    for w in words:
        counts[w] += 1
    return dict(counts)


def group_by_length(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    return dict(groups)


def reads_insert(words: List[str], probe: str) -> List[str]:
    counts: Dict[str, int] = defaultdict(int)
    for w in words:
        counts[w] += 2
    seen = counts[probe]
    before = probe in counts
    missing = counts.get(probe + "?", -1)
    out = [f"{k}={v}" for k, v in counts.items()]
    out.append(f"{seen}/{before}/{missing}/{len(counts)}")
    return out


def get_does_not_insert(words: List[str]) -> Tuple[int, int]:
    counts: Dict[str, int] = defaultdict(int)
    hits = 0
    for w in words:
        if counts.get(w, 0) > 0:
            hits += 1
        counts[w] = counts.get(w, 0) + 1
    return hits, len(counts)


def degree_counts(edges: List[int]) -> List[int]:
    neighbours: Dict[int, Set[int]] = defaultdict(set)
    for i in range(0, len(edges) - 1, 2):
        a, b = edges[i], edges[i + 1]
        neighbours[a].add(b)
        neighbours[b].add(a)
    return sorted(len(neighbours[n]) for n in neighbours)


def connected_from(edges: List[int], start: int) -> List[int]:
    graph: Dict[int, List[int]] = collections.defaultdict(list)
    for i in range(0, len(edges) - 1, 2):
        graph[edges[i]].append(edges[i + 1])
        graph[edges[i + 1]].append(edges[i])
    seen = {start}
    todo = [start]
    order: List[int] = []
    while todo:
        node = todo.pop()
        order.append(node)
        for nxt in graph[node]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return order + [len(graph)]


def letter_totals(words: List[str]) -> Dict[str, float]:
    weights: Dict[str, float] = defaultdict(float)
    for w in words:
        for ch in w:
            weights[ch] += 1.0 / len(w)
    return dict(weights)


def joined_by_initial(words: List[str]) -> Dict[str, str]:
    joined: Dict[str, str] = defaultdict(str)
    for w in words:
        key = w[:1]
        joined[key] += w + ";"
    return dict(joined)


def flags_seen(xs: List[int]) -> List[bool]:
    flags: Dict[int, bool] = defaultdict(bool)
    for x in xs:
        if x % 2 == 0:
            flags[x] = True
    return [flags[x] for x in range(4)]


def most_frequent(xs: List[int]) -> int:
    counts: Dict[int, int] = defaultdict(int)
    for x in xs:
        counts[x] += 1
    if not counts:
        raise ValueError("no values")
    best = xs[0]
    for x in counts:
        if counts[x] > counts[best] or (counts[x] == counts[best] and x < best):
            best = x
    return best


def nested_index(words: List[str]) -> Dict[str, Dict[int, int]]:
    index: Dict[str, Dict[int, int]] = defaultdict(dict)
    for pos, w in enumerate(words):
        index[w][pos] = len(w)
    return dict(index)


def pop_and_clear(xs: List[int], k: int) -> List[int]:
    counts: Dict[int, int] = defaultdict(int)
    for x in xs:
        counts[x % 5] += x
    popped = counts.pop(k)
    total = 0
    for v in counts.values():
        total += v
    keys = sorted(counts.keys())
    counts.clear()
    after = counts[k]
    return [popped, total, len(keys), after, len(counts)]


def bigram_counts(text: str) -> List[Tuple[str, int]]:
    pairs: Dict[str, int] = defaultdict(int)
    for i in range(len(text) - 1):
        pair = text[i:i + 2]
        pairs[pair] += 1
    return sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:5]


def top_words(words: List[str], k: int) -> List[Tuple[str, int]]:
    counts = Counter(words)
    return counts.most_common(k)


def letter_ranking(text: str) -> str:
    letters = Counter(text)
    ranked = letters.most_common()
    missing = letters["?"]
    return "".join(ch for ch, _ in ranked) + f"|{missing}|{'?' in letters}|{len(letters)}"


def tally_lengths(words: List[str]) -> Dict[int, int]:
    seen: Dict[int, int] = collections.Counter(len(w) for w in words)
    seen[0] += 1
    for w in words:
        seen[len(w) % 3] -= 1
    return dict(seen)


def counter_reads(xs: List[int], k: int) -> List[int]:
    c = Counter()
    for x in xs:
        c[x % 4] += x
    return [c[k], len(c), c.get(k + 1, -1), int(k in c)] + [v for _, v in c.most_common(2)]
