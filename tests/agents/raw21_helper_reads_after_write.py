# value: [1,2,3]
# stdout: ""
# effects: [["kv_put",{"key":"count:a","value":1}],["kv_put",{"key":"count:b","value":2}],["kv_put",{"key":"count:a","value":3}]]
# calls: [["kv_get",{"key":"count:a"}],["kv_get",{"key":"count:a"}],["kv_get",{"key":"count:b"}],["kv_put",{"key":"count:a","value":1}],["kv_put",{"key":"count:a","value":3}],["kv_put",{"key":"count:b","value":2}]]
# Each iteration writes a counter, then reads it back through a helper.
def current(name):
    return kv_get(key=f"count:{name}")

seen = []
for name in ["a", "b", "a"]:
    kv_put(key=f"count:{name}", value=len(seen) + 1)
    seen.append(current(name))
result = seen
