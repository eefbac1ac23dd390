# inputs: {"kind": {"x": 6}}
# value: 42
match inputs["kind"]:
    case "a":
        r = lookup(key=1)
    case {"x": x}:
        r = lookup(key=x)
    case _:
        r = fail(message="unknown")
result = r
