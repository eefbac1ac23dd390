# value: {"export":true,"search":true}
# stdout: "export enabled\n"
# effects: [["kv_put",{"key":"feature:export","value":true}]]
# calls: [["kv_get",{"key":"feature:export"}],["kv_get",{"key":"feature:export"}],["kv_get",{"key":"feature:search"}],["kv_put",{"key":"feature:export","value":true}]]
# Only enable the export feature if it is off; then report the flag.
flag = kv_get(key="feature:export")
if not flag:
    kv_put(key="feature:export", value=True)
    print("export enabled")
result = {"export": kv_get(key="feature:export"), "search": kv_get(key="feature:search")}
