# expect: ok
# A result nested exactly 100 lists deep, the default ResultDepth: allowed,
# so the depth check is not one stricter than documented.
x = 1
for _ in range(100):
    x = [x]
result = x
assert str(result) == '[' * 100 + '1' + ']' * 100
