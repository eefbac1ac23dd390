# expect: ok
# value: [[3, 4], [1, 2], true]
# pickle round trip in memory.
import pickle
data = {"a": [1, 2, (3, 4)], "b": {1, 2}}
back = pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
result = [back["a"][2], sorted(back["b"]), back == data]
