# value: "caught: boom"
try:
    a = fail(message="boom")
    b = lookup(key=1)
except RuntimeError as e:
    a = "caught: " + str(e)
result = a
