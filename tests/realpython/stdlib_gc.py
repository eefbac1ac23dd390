# expect: ok
# value: [true, true, 3]
# gc: collect a reference cycle, thresholds, enable state.
import gc
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
del a, b
collected = gc.collect()
result = [collected >= 2, gc.isenabled(), len(gc.get_threshold())]
