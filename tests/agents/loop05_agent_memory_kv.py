# value: ["go generics","rust ownership"]
# stdout: "skip go generics\n"
# effects: [["kv_put",{"key":"agent:seen","value":["go generics"]}],["kv_put",{"key":"agent:seen","value":["go generics","rust ownership"]}]]
# calls: [["kv_get",{"key":"agent:seen"}],["kv_get",{"key":"agent:seen"}],["kv_put",{"key":"agent:seen","value":["go generics","rust ownership"]}],["kv_put",{"key":"agent:seen","value":["go generics"]}],["search",{"query":"go generics"}],["search",{"query":"rust ownership"}]]
# Remember what was searched in the key-value store, skipping repeats.
seen = kv_get(key="agent:seen") or []
for q in ["go generics", "rust ownership", "go generics"]:
    if q in seen:
        print(f"skip {q}")
        continue
    hits = search(query=q)
    seen.append(q)
    kv_put(key="agent:seen", value=seen)
result = kv_get(key="agent:seen")
