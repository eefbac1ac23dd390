package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// tryFinallyProgram leaves try ... finally as typed code does: a retry loop
// whose finally counts attempts while break and continue leave the try, a
// lookup returning from the try (its value computed before finally changes
// the name), and a finally whose return replaces a ZeroDivisionError.
const tryFinallyProgram = `from typing import Dict, List


def retries(fail_until: int) -> List[int]:
    tries = 0
    got: List[int] = []
    while True:
        try:
            if tries < fail_until:
                raise RuntimeError("not yet")
            got.append(tries)
            break
        except RuntimeError:
            continue
        finally:
            tries += 1
    got.append(tries)
    return got


def price_of(prices: Dict[str, int], name: str) -> int:
    price = -1
    try:
        price = prices[name]
        return price
    except KeyError:
        return 0
    finally:
        price = 1000


def safe_div(a: int, b: int) -> int:
    try:
        return a // b
    finally:
        if b == 0:
            return 0


result = [retries(3), price_of({"tea": 3}, "tea"), price_of({}, "tea"), safe_div(7, 2), safe_div(7, 0)]
`

func TestNativeTryFinallyJumpsRunNative(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, tryFinallyProgram, `{}`)
		expectRun(t, resp, `[[3, 4], 3, 0, 3, 0]`, []string{"retries", "price_of", "safe_div"}, nil)
		for _, name := range []string{"retries", "price_of", "safe_div"} {
			if f := nativeEntry(t, resp, name); f.Fallbacks != 0 {
				t.Errorf("%s fell back to CPython: %+v", name, f)
			}
		}
	})
}
