# value: "Alice Martin is now on the pro plan"
# stdout: ""
# effects: [["kv_put",{"key":"user:alice","value":{"credits":120,"email":"alice@example.com","name":"Alice Martin","plan":"pro"}}]]
# calls: [["kv_get",{"key":"user:alice"}],["kv_get",{"key":"user:alice"}],["kv_put",{"key":"user:alice","value":{"credits":120,"email":"alice@example.com","name":"Alice Martin","plan":"pro"}}]]
# Upgrade a user's plan, then re-read the record to show the new state.
user = kv_get(key="user:alice")
user["plan"] = "pro"
kv_put(key="user:alice", value=user)
updated = kv_get(key="user:alice")
result = f"{updated['name']} is now on the {updated['plan']} plan"
