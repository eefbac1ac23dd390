# value: 42
# stdout: ""
# effects: [["kv_put",{"key":"counter:visits","value":42}]]
# calls: [["kv_get",{"key":"counter:visits"}],["kv_get",{"key":"counter:visits"}],["kv_put",{"key":"counter:visits","value":42}]]
# Increment a visit counter and read it back.
count = kv_get(key="counter:visits")
kv_put(key="counter:visits", value=count + 1)
result = kv_get(key="counter:visits")
