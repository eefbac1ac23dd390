# expect: ok
# value: [3, 10000000000, 120, 12, 12, 5.0, 24, true]
# operator and math.
import operator, math
rows = [{"n": "b", "v": 2}, {"n": "a", "v": 3}]
result = [sorted(rows, key=operator.itemgetter("n"))[0]["v"], math.isqrt(10**20 + 1), math.comb(10, 3), math.gcd(84, 36), math.lcm(4, 6), round(math.hypot(3, 4), 3), math.prod([1, 2, 3, 4]), math.isclose(0.1 + 0.2, 0.3)]
