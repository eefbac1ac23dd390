# expect: ok
# value: ["hello, world", ["  Hello", " World  "], "a-b-c", "**abc**", "strasse", true, "00x", "Title Case Here", "tab sep", ["one", " ", "two"], "name"]
# str methods.
s = "  Hello, World  "
result = [s.strip().lower(), s.split(","), "-".join("abc"), "abc".center(7, "*"), "Straße".casefold(), "a1b2".isalnum(), "x".zfill(3), "title case here".title(), "tab\tsep".expandtabs(4), "one two".partition(" "), "prefix_name".removeprefix("prefix_")]
