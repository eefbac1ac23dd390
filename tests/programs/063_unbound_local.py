# error: UnboundLocalError: cannot access local variable 'x' where it is not associated with a value
def f(flag):
    if flag:
        x = 1
    return lookup(key=x)
result = f(True)
f(False)
