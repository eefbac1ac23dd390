package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// numericBuiltinsProgram uses round(), pow(), bin() and int(text, 2) as
// algorithm collections do: a conversion rounded to two places, a modular
// exponent and inverse, the bits of a number as text and read back. Each
// function runs natively, including the ties (2.675 is below its tie, 0.5
// and 2.5 go to the even neighbour) and CPython's own ValueError messages.
const numericBuiltinsProgram = `
def celsius_to_fahrenheit(celsius: float, ndigits: int = 2) -> float:
    return round((celsius * 9 / 5) + 32, ndigits)


def round_places(x: float, places: int) -> float:
    return round(x, places)


def nearest(x: float) -> int:
    return round(x)


def modular_exponential(base: int, power: int, mod: int) -> int:
    return pow(base, power, mod)


def flip_bits(n: int) -> int:
    bits = bin(n)[2:]
    flipped = ""
    for c in bits:
        flipped += "1" if c == "0" else "0"
    return int(flipped, 2)


def error(call):
    try:
        call()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


result = [celsius_to_fahrenheit(37.5), round_places(2.675, 2), round_places(-0.4, 0), nearest(0.5), nearest(2.5),
          nearest(-3.5), round_places(1234.5, -2), modular_exponential(4, 13, 497), modular_exponential(3, -1, 7),
          modular_exponential(2, 10, -7), flip_bits(10), bin(-5),
          error(lambda: modular_exponential(2, -1, 4)), error(lambda: modular_exponential(2, 3, 0)),
          error(lambda: nearest(float("nan")))]
`

func TestNativeNumericBuiltins(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, numericBuiltinsProgram, `{}`)
		want := `[99.5, 2.67, -0.0, 0, 2, -4, 1200.0, 445, 5, -5, 5, "-0b101", ` +
			`"ValueError: base is not invertible for the given modulus", ` +
			`"ValueError: pow() 3rd argument cannot be 0", "ValueError: cannot convert float NaN to integer"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		// A call native code raises in is computed again by CPython, for CPython's traceback: those
		// (one NaN, two ValueErrors of pow) are the only calls counted as falling back.
		raised := map[string]int{"celsius_to_fahrenheit": 0, "round_places": 0, "nearest": 1, "modular_exponential": 2,
			"flip_bits": 0}
		for name, n := range raised {
			if f := nativeEntry(t, resp, name); f.Status != "native" || f.Fallbacks != n {
				t.Errorf("%s: %+v, want %d fallbacks", name, f, n)
			}
		}
	})
}
