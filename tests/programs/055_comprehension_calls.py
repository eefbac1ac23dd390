# value: [[0, 7, 14, 21], {"a": {"k": "a"}, "b": {"k": "b"}}, 21]
squares = [lookup(key=k) for k in range(4)]
table = {k: echo(k=k) for k in "ab"}
result = [squares, table, sum(lookup(key=k) for k in [1, 2])]
