# value: {"msg": "item 5!", "pct": "5%"}
n = 5
r = echo(msg=f"item {n}!", pct="%d%%" % n)
result = r
