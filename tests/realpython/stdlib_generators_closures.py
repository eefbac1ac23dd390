# expect: ok
# value: [4, 1, 20, "point 1,2", "list head 1 rest 2", "other"]
# Plain language: generators, closures, comprehensions, match.
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
inc = counter()
[inc() for _ in range(3)]
def gen():
    x = yield 1
    yield x * 2
g = gen()
first = next(g)
second = g.send(10)
def describe(v):
    match v:
        case {"type": "point", "x": x, "y": y}:
            return f"point {x},{y}"
        case [a, *rest]:
            return f"list head {a} rest {len(rest)}"
        case _:
            return "other"
result = [inc(), first, second, describe({"type": "point", "x": 1, "y": 2}), describe([1, 2, 3]), describe(5)]
