# Classes, attribute access, method calls, sorting with a key.
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y


def work():
    points = [Point(i % 97, i % 89) for i in range(12000)]
    points.sort(key=Point.norm2)
    return sum(p.x - p.y for p in points[:3000])
