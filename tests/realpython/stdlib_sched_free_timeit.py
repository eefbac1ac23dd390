# expect: ok
# value: [true, true]
# timeit runs a statement; only the shape of its answer is compared.
import timeit
t = timeit.timeit("sum(range(100))", number=100)
result = [isinstance(t, float), t >= 0]
