# expect: limit
# A result nested 101 lists deep, one past the default ResultDepth (100):
# the execution ends with the limit status, not an error the program raised.
x = 1
for _ in range(101):
    x = [x]
result = x
