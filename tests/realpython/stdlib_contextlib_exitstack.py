# expect: ok
# value: ["cb", 2, 1, 0]
# contextlib.ExitStack closes in reverse order.
import contextlib
order = []
class R:
    def __init__(self, n): self.n = n
    def __enter__(self): return self
    def __exit__(self, *a): order.append(self.n)
with contextlib.ExitStack() as stack:
    for n in range(3):
        stack.enter_context(R(n))
    stack.callback(order.append, "cb")
result = order
