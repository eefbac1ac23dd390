# expect: ok
# value: 43
# tools: lookup
# Top-level await of a tool call in the program itself.
x = await lookup(key=6)
result = x + 1
