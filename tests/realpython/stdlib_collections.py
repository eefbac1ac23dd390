# expect: ok
# value: [[["i", 4], ["s", 4]], {"a": [1, 3], "b": [2]}, [2, 3, 4], ["b", "a"], {"x": 1, "y": 2}, [1, 3]]
# collections: Counter, defaultdict, deque, OrderedDict, namedtuple, ChainMap.
from collections import Counter, defaultdict, deque, OrderedDict, namedtuple, ChainMap
c = Counter("mississippi")
d = defaultdict(list)
for k, v in [("a", 1), ("b", 2), ("a", 3)]:
    d[k].append(v)
q = deque([1, 2, 3], maxlen=3)
q.append(4)
od = OrderedDict(a=1, b=2)
od.move_to_end("a")
P = namedtuple("P", "x y")
cm = ChainMap({"a": 1}, {"a": 2, "b": 3})
result = [c.most_common(2), dict(d), list(q), list(od), P(1, 2)._asdict(), [cm["a"], cm["b"]]]
