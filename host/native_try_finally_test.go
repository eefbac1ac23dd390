package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// tryFinallyProgram leaves try ... finally as typed code does: a retry loop
// whose finally counts attempts while break and continue leave the try, a
// lookup returning from the try (its value computed before finally changes
// the name), and a finally whose return replaces a ZeroDivisionError
// (the mean of no values).
const tryFinallyProgram = `from typing import Dict, List


def retries(fail_until: int) -> List[int]:
    attempts: List[int] = []
    for attempt in range(10):
        try:
            if attempt < fail_until:
                raise RuntimeError("not yet")
            break
        except RuntimeError:
            continue
        finally:
            attempts.append(attempt)
    return attempts


def price_of(prices: Dict[str, int], name: str) -> int:
    price = -1
    try:
        price = prices[name]
        return price
    except KeyError:
        return 0
    finally:
        price = 1000


def mean_or_zero(values: List[int]) -> int:
    try:
        return sum(values) // len(values)
    finally:
        if not values:
            return 0


result = [retries(3), price_of({"tea": 3}, "tea"), price_of({}, "tea"), mean_or_zero([1, 2, 4]), mean_or_zero([])]
`

func TestNativeTryFinallyJumpsRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, tryFinallyProgram, `{}`)
		expectRun(t, resp, `[[0, 1, 2, 3], 3, 0, 2, 0]`, []string{"retries", "price_of", "mean_or_zero"}, nil)
		for _, name := range []string{"retries", "price_of", "mean_or_zero"} {
			if f := nativeEntry(t, resp, name); f.Fallbacks != 0 {
				t.Errorf("%s fell back to CPython: %+v", name, f)
			}
		}
	})
}
