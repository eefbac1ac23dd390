# expect: ok
# value: [23416728348467685, 1024, 5040, "int", "other", 42, true]
# functools: lru_cache, partial, reduce, singledispatch, cached_property.
import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
@functools.singledispatch
def kind(x):
    return "other"
@kind.register
def _(x: int):
    return "int"
class C:
    @functools.cached_property
    def value(self):
        return 42
result = [fib(80), functools.partial(pow, 2)(10), functools.reduce(lambda a, b: a * b, range(1, 8)), kind(1), kind("s"), C().value, fib.cache_info().hits > 0]
