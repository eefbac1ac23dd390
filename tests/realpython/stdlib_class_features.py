# expect: ok
# value: ["Vec(4, 6)", 52, true, "n", false]
# Classes: properties, slots, dunder methods, class methods, super.
class Vec:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __eq__(self, o):
        return (self.x, self.y) == (o.x, o.y)
    def __repr__(self):
        return f"Vec({self.x}, {self.y})"
    @property
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    @classmethod
    def zero(cls):
        return cls(0, 0)
class Named(Vec):
    __slots__ = ("name",)
    def __init__(self, name, x, y):
        super().__init__(x, y)
        self.name = name
v = Vec(1, 2) + Vec(3, 4)
result = [repr(v), v.norm2, Vec.zero() == Vec(0, 0), Named("n", 1, 1).name, hasattr(v, "__dict__")]
