# value: ["name 'missing' is not defined", 4, 14]
x = lookup(key=2)
try:
    y = lookup(key=missing)
except NameError as e:
    result = [str(e), e.__traceback__.tb_lineno, x]
