# value: {"gone":true,"now":"v2"}
# stdout: ""
# effects: [["kv_put",{"key":"cache:page","value":"v1"}],["kv_delete",{"key":"cache:page"}],["kv_put",{"key":"cache:page","value":"v2"}]]
# calls: [["kv_delete",{"key":"cache:page"}],["kv_get",{"key":"cache:page"}],["kv_get",{"key":"cache:page"}],["kv_put",{"key":"cache:page","value":"v1"}],["kv_put",{"key":"cache:page","value":"v2"}]]
# Reset a cache entry: delete it, check, recreate, check.
kv_put(key="cache:page", value="v1")
kv_delete(key="cache:page")
gone = kv_get(key="cache:page") is None
kv_put(key="cache:page", value="v2")
result = {"gone": gone, "now": kv_get(key="cache:page")}
