# expect: ok
# value: [2, true, "{'k0': [],\n 'k1': [0],\n 'k2': [0, 1],\n 'k3': [0, 1, 2],\n 'k4': [0, 1, 2, 3],\n 'k5': [0, 1, 2, 3, 4]}"]
# copy and pprint.
import copy, pprint
orig = {"a": [1, {"b": 2}]}
deep = copy.deepcopy(orig)
deep["a"][1]["b"] = 3
shallow = copy.copy(orig)
result = [orig["a"][1]["b"], shallow["a"] is orig["a"], pprint.pformat({"k%d" % i: list(range(i)) for i in range(6)}, width=40)]
