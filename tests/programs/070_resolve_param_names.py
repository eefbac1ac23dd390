# value: {"handle": 1, "name": "x", "value": 2}
result = echo(name="x", handle=1, value=2)
