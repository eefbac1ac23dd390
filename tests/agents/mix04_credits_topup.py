# value: {"alice":120,"bob":15,"carol":50}
# stdout: ""
# effects: [["kv_put",{"key":"user:carol","value":{"credits":50,"email":"carol@example.com","name":"Carol Diaz","plan":"free"}}]]
# calls: [["kv_get",{"key":"user:alice"}],["kv_get",{"key":"user:alice"}],["kv_get",{"key":"user:bob"}],["kv_get",{"key":"user:bob"}],["kv_get",{"key":"user:carol"}],["kv_get",{"key":"user:carol"}],["kv_keys",{"prefix":"user:"}],["kv_put",{"key":"user:carol","value":{"credits":50,"email":"carol@example.com","name":"Carol Diaz","plan":"free"}}]]
# Top up users without credits, then report everyone's credits.
names = [k.split(":")[1] for k in kv_keys(prefix="user:")]
for name in names:
    user = kv_get(key=f"user:{name}")
    if user["credits"] == 0:
        user["credits"] = 50
        kv_put(key=f"user:{name}", value=user)
result = {n: kv_get(key=f"user:{n}")["credits"] for n in names}
