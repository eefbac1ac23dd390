# expect: ok
# value: 4
# stdout: "Grüße, 世界, 😀\nβββ\n"
# Printing non-ASCII text.
print("Gr\u00fc\u00dfe, \u4e16\u754c, \U0001f600")
print("\u03b2" * 3)
result = len("\U0001f600".encode())
