# value: [14, 21]
class Box:
    def __init__(self, v):
        self.v = v
b = Box(lookup(key=2))
result = [b.v, lookup(key=3)]
