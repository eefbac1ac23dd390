package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// strMethodsProgram parses and formats text as typed helpers do: key=value
// lines split once, URLs told by a tuple of prefixes, words split with a
// limit from either end, counts and prefixes from a position, a zero-padded
// binary byte, test names without their prefix, non-ASCII text included.
const strMethodsProgram = `
from typing import List, Tuple


def parse_setting(line: str) -> Tuple[str, str]:
    key, value = line.split("=", 1)
    return key.strip(), value.strip()


def is_url(word: str) -> bool:
    return word.startswith(("http://", "https://"))


def outer_words(text: str) -> List[str]:
    return text.split(None, 1) + text.rsplit(maxsplit=1)


def count_after(text: str, sub: str, start: int) -> int:
    return text.count(sub, start) + text.startswith(sub, start)


def binary_byte(n: int) -> str:
    digits = ""
    while n > 0:
        digits = str(n % 2) + digits
        n //= 2
    return digits.zfill(8)


def test_name(name: str) -> str:
    head, _, tail = name.removeprefix("test_").partition(".")
    return head.center(9, "*") + tail.removesuffix("y")


def error(call):
    try:
        call()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


result = [parse_setting(" mode = fast = yes "), is_url("https://x"), is_url("ftp://x"),
          outer_words("日本\u3000語 a\x1cb  c "), count_after("é日é日é", "é", -3), binary_byte(5),
          test_name("test_parse.py"), error(lambda: parse_setting("none"))]
`

func TestNativeStrMethods(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, strMethodsProgram, `{}`)
		want := `[["mode", "fast = yes"], true, false, ` +
			`["日本", "語 a\u001cb  c ", "日本` + "\u3000" + `語 a\u001cb", "c"], 3, ` +
			`"00000101", "**parse**p", "ValueError: not enough values to unpack (expected 2, got 1)"]`
		if string(resp.Value) != want {
			t.Fatalf("value %s, want %s (trace %+v)", resp.Value, want, resp.Native)
		}
		for _, name := range []string{"parse_setting", "is_url", "outer_words", "count_after", "binary_byte", "test_name"} {
			if f := nativeEntry(t, resp, name); f.Status != "native" {
				t.Errorf("%s: %+v", name, f)
			}
		}
	})
}
