"""Text helpers as their authors write them (test_str_methods.py): counting and
searching from a position, prefixes given as a tuple, `line.split(",", 1)` and
`rsplit(".", 1)` parsers, words split with a limit, zero-padded binary numbers,
`removeprefix("test_")`, partitions of key=value lines, padded table cells,
expanded tabs and ASCII case changes."""
from typing import List, Tuple


def count_from(text: str, sub: str, start: int) -> int:
    return text.count(sub, start)


def count_between(text: str, sub: str, start: int, end: int) -> int:
    return text.count(sub, start, end)


def count_vowels_after(text: str, start: int) -> int:
    total = 0
    for vowel in "aeioué":
        total += text.count(vowel, start)
    return total


def is_palindrome(text: str) -> bool:
    cleaned = "".join(text.split())
    return cleaned == cleaned[::-1]


def is_url(word: str) -> bool:
    return word.startswith(("http://", "https://"))


def is_image(name: str) -> bool:
    return name.endswith((".png", ".jpg", ".jpeg"))


def starts_at(text: str, prefix: str, start: int) -> bool:
    return text.startswith(prefix, start)


def ends_within(text: str, suffix: str, start: int, end: int) -> bool:
    return text.endswith(suffix, start, end)


def has_any_prefix(text: str, prefixes: Tuple[str, ...]) -> bool:
    return text.startswith(prefixes)


def has_any_suffix_from(text: str, prefixes: Tuple[str, ...], start: int) -> bool:
    return text.endswith(prefixes, start)


def match_word_at(text: str, start: int, end: int) -> bool:
    return text.startswith(("ab", "日本", "", "😀"), start, end)


def parse_key_value(line: str) -> Tuple[str, str]:
    key, value = line.split("=", 1)
    return key.strip(), value.strip()


def split_fields(line: str, sep: str, maxsplit: int) -> List[str]:
    return line.split(sep, maxsplit)


def split_words(text: str, maxsplit: int) -> List[str]:
    return text.split(None, maxsplit)


def first_word(text: str) -> str:
    parts = text.split(maxsplit=1)
    return parts[0] if parts else ""


def csv_row(line: str, maxsplit: int) -> List[str]:
    return [field.strip() for field in line.split(sep=",", maxsplit=maxsplit)]


def rsplit_fields(line: str, sep: str, maxsplit: int) -> List[str]:
    return line.rsplit(sep, maxsplit)


def rsplit_words(text: str, maxsplit: int) -> List[str]:
    return text.rsplit(None, maxsplit)


def last_words(text: str) -> List[str]:
    return text.rsplit()


def file_extension(path: str) -> str:
    parts = path.rsplit(".", 1)
    return parts[1] if len(parts) == 2 else ""


def words_from_right(text: str, sep: str) -> List[str]:
    return text.rsplit(sep)


def to_binary_byte(number: int) -> str:
    digits = ""
    n = abs(number)
    while n > 0:
        digits = str(n % 2) + digits
        n //= 2
    sign = "-" if number < 0 else ""
    return (sign + digits).zfill(8)


def zero_pad(text: str, width: int) -> str:
    return text.zfill(width)


def strip_test_prefix(name: str) -> str:
    return name.removeprefix("test_")


def strip_affixes(name: str, prefix: str, suffix: str) -> str:
    return name.removeprefix(prefix).removesuffix(suffix)


def is_number(text: str) -> bool:
    return text.isnumeric()


def count_decimal_tokens(text: str) -> int:
    return sum(1 for word in text.split() if word.isdecimal())


def key_value(line: str) -> Tuple[str, str, str]:
    return line.partition("=")


def head_tail(path: str, sep: str) -> Tuple[str, str]:
    head, _, tail = path.rpartition(sep)
    return head, tail


def expand(text: str, tabsize: int) -> str:
    return text.expandtabs(tabsize)


def expand_default(text: str) -> str:
    return text.expandtabs()


def swap(text: str) -> str:
    return text.swapcase()


def title_case(text: str) -> str:
    return text.title()


def capitalize_sentence(text: str) -> str:
    return text.capitalize()


def table_row(cells: List[str], width: int) -> str:
    out: List[str] = []
    for i, cell in enumerate(cells):
        if i == 0:
            out.append(cell.ljust(width))
        elif i % 2 == 1:
            out.append(cell.rjust(width, "."))
        else:
            out.append(cell.center(width, "*"))
    return "|".join(out)


def centered(text: str, width: int, fill: str) -> str:
    return text.center(width, fill)


def find_from(text: str, sub: str, start: int) -> int:
    return text.find(sub, start)


def rfind_in(text: str, sub: str, start: int, end: int) -> int:
    return text.rfind(sub, start, end)


def last_index_of(text: str, sub: str) -> int:
    return text.rindex(sub)


def occurrences(text: str, sub: str) -> List[int]:
    found: List[int] = []
    if not sub:
        return found
    i = text.find(sub)
    while i != -1:
        found.append(i)
        i = text.find(sub, i + len(sub))
    return found


def strip_scheme(url: str) -> str:
    for scheme in ("http://", "https://"):
        if url.startswith(scheme):
            return url.removeprefix(scheme)
    return url


def non_empty_lines(text: str, keepends: bool) -> List[str]:
    return [line for line in text.splitlines(keepends=keepends) if line.strip()]


def lines(text: str) -> List[str]:
    return text.splitlines()


def replace_first(text: str, sub: str, count: int) -> str:
    return text.replace(sub, "<>", count)


def index_between(text: str, sub: str, start: int, end: int) -> int:
    return text.index(sub, start, end) + text.rindex(sub, start)


def prefix_between(text: str, prefix: str, start: int, end: int) -> bool:
    return text.startswith(prefix, start, end)


def suffix_from(text: str, suffix: str, start: int) -> bool:
    return text.endswith(suffix, start)


def pad_all(text: str, width: int) -> List[str]:
    return [text.ljust(width, "é"), text.rjust(width), text.center(width), text.ljust(width)]
