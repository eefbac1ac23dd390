# value: {"alice":"light","bob":"dark","carol":"light"}
# stdout: ""
# effects: [["kv_put",{"key":"pref:alice","value":{"theme":"light"}}],["kv_put",{"key":"pref:bob","value":{"theme":"dark"}}],["kv_put",{"key":"pref:carol","value":{"theme":"light"}}]]
# calls: [["kv_get",{"key":"pref:alice"}],["kv_get",{"key":"pref:bob"}],["kv_get",{"key":"pref:carol"}],["kv_put",{"key":"pref:alice","value":{"theme":"light"}}],["kv_put",{"key":"pref:bob","value":{"theme":"dark"}}],["kv_put",{"key":"pref:carol","value":{"theme":"light"}}]]
# Store a setting per user, then read every setting back in a loop.
users = ["alice", "bob", "carol"]
for u in users:
    kv_put(key=f"pref:{u}", value={"theme": "light" if u != "bob" else "dark"})
prefs = {}
for u in users:
    prefs[u] = kv_get(key=f"pref:{u}")["theme"]
result = prefs
