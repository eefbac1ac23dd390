# value: {"attempts":3,"ready":false}
# stdout: ""
# effects: []
# calls: [["kv_get",{"key":"feature:export"}],["kv_get",{"key":"feature:export"}],["kv_get",{"key":"feature:export"}]]
# Poll a flag a few times (it never changes) with a retry counter.
attempts = 0
ready = False
while attempts < 3 and not ready:
    ready = kv_get(key="feature:export")
    attempts += 1
result = {"ready": ready, "attempts": attempts}
