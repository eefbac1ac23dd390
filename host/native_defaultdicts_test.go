package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// defaultdictsProgram counts and groups with collections.defaultdict and
// Counter as hot loops do. A defaultdict read of a missing key inserts the
// default, a Counter's answers 0, .get and `in` do not insert; a function
// handing the defaultdict itself back stays Python, so the caller still gets
// a real defaultdict with its default_factory.
const defaultdictsProgram = `from collections import Counter, defaultdict
from typing import Dict, List, Tuple


def word_counts(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = defaultdict(int)
    for w in words:
        counts[w] += 1
    probe = counts["zz"]
    return {"size": len(counts), "probe": probe, "in": int("zz" in counts), "get": counts.get("yy", -1),
            "the": counts["the"]}


def by_length(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    return dict(groups)


def top(words: List[str], k: int) -> List[Tuple[str, int]]:
    counts = Counter(w.lower() for w in words)
    return counts.most_common(k) + [("?", counts["?"]), ("size", len(counts))]


def grouped(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    return groups


g = grouped(["ab"])
result = [word_counts(["the", "cat", "the"]), by_length(["a", "bb", "cc"]), top(["b", "A", "B", "a", "c"], 2),
          type(g).__name__, g.default_factory.__name__, type(word_counts).__name__]
`

func TestNativeDefaultdictsAndCountersRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, defaultdictsProgram, `{}`)
		want := `[{"size": 3, "probe": 0, "in": 1, "get": -1, "the": 2}, {"1": ["a"], "2": ["bb", "cc"]}, ` +
			`[["b", 2], ["a", 2], ["?", 0], ["size", 3]], "defaultdict", "list", "NativeFunction"]`
		expectRun(t, resp, want, []string{"word_counts", "by_length", "top"}, map[string]string{"grouped": "DefaultDict"})
	})
}
