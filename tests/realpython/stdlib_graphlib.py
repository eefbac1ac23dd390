# expect: ok
# value: ["a", true, ["a", "b", "c", "d"]]
# graphlib.TopologicalSorter.
from graphlib import TopologicalSorter
ts = TopologicalSorter({"b": {"a"}, "c": {"b"}, "d": {"a"}})
order = list(ts.static_order())
result = [order[0], order.index("b") < order.index("c"), sorted(order)]
