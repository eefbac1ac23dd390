# expect: ok
# value: [[2, 3], [1, 4], [1], {"x": 1, "y": 2, "z": 3}, {"a": 0, "b": 0}, {"y": 2, "z": 3}]
# Set and dict operations.
a, b = {1, 2, 3}, {2, 3, 4}
d = {"x": 1} | {"y": 2}
d |= {"z": 3}
result = [sorted(a & b), sorted(a ^ b), sorted(a - b), d, dict.fromkeys("ab", 0), {k: v for k, v in sorted(d.items()) if v > 1}]
