# value: {"x": {"word": "x"}, "y": {"word": "y"}}
out = {}
for word in ("x", "y"):
    out[word] = echo(word=word)
result = out
