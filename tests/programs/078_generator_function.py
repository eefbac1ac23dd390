# value: [0, 7, 14]
def gen():
    for i in range(3):
        yield lookup(key=i)
result = list(gen())
