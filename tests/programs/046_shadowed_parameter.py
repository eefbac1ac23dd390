# value: [2, "s"]
def apply(echo, v):
    return echo(value=v)
result = [apply(lambda value: value + 1, 1), sleep(ms=1, value="s")]
