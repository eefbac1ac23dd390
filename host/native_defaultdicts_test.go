package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// defaultdictsProgram counts and groups with collections.defaultdict as hot
// loops do. A read of a missing key inserts the default, .get and `in` do
// not; a function handing the defaultdict itself back stays Python, so the
// caller still gets a real defaultdict with its default_factory.
const defaultdictsProgram = `from collections import defaultdict
from typing import Dict, List


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


def grouped(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    return groups


g = grouped(["ab"])
result = [word_counts(["the", "cat", "the"]), by_length(["a", "bb", "cc"]), type(g).__name__,
          g.default_factory.__name__, type(word_counts).__name__]
`

func TestNativeDefaultdictsRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, defaultdictsProgram, `{}`)
		want := `[{"size": 3, "probe": 0, "in": 1, "get": -1, "the": 2}, {"1": ["a"], "2": ["bb", "cc"]}, ` +
			`"defaultdict", "list", "NativeFunction"]`
		expectRun(t, resp, want, []string{"word_counts", "by_length"}, map[string]string{"grouped": "DefaultDict"})
	})
}
