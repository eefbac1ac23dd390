# value: {"language":null,"remaining":["config:theme"]}
# stdout: ""
# effects: [["kv_delete",{"key":"config:language"}]]
# calls: [["kv_delete",{"key":"config:language"}],["kv_get",{"key":"config:language"}],["kv_keys",{"prefix":"config:"}]]
# Remove a stale config key and verify it is gone.
kv_delete(key="config:language")
remaining = kv_keys(prefix="config:")
result = {"remaining": remaining, "language": kv_get(key="config:language")}
