# value: {"a": 1, "b": "two", "c": [1, 2], "d": {"k": null}, "e": [3, 4]}
r = echo(a=1, b="two", c=[1, 2], d={"k": None}, e=(3, 4))
result = r
