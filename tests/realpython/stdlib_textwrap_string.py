# expect: ok
# value: [["The quick brown fox", "jumps over the lazy", "dog The quick brown", "fox jumps over the", "lazy dog"], "a\n  b\n", "The quick brown fox [...]", "tim likes pie", "Hello World"]
# textwrap and string.
import textwrap, string
text = "The quick brown fox jumps over the lazy dog " * 2
result = [textwrap.wrap(text, 20), textwrap.dedent("    a\n      b\n"), textwrap.shorten(text, 30), string.Template("$who likes $what").substitute(who="tim", what="pie"), string.capwords("hello world")]
