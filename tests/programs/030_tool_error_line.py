# value: ["line", 6]
a = lookup(key=1)
b = lookup(key=2)
try:
    c = lookup(key=3)
    d = fail(message="line")
except RuntimeError as e:
    result = [str(e), e.__traceback__.tb_lineno]
