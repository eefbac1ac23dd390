# value: "early"
try:
    raise ValueError("early")
    y = lookup(key=2)
except ValueError as e:
    y = str(e)
result = y
