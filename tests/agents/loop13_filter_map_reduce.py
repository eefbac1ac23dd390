# value: {"credits":120,"plans":["free","free"]}
# stdout: ""
# effects: []
# calls: [["kv_get",{"key":"user:alice"}],["kv_get",{"key":"user:carol"}],["read_file",{"path":"/data/users.json"}]]
# Active users' plans and total credits.
import json

users = json.loads(read_file(path="/data/users.json"))
active = [u["name"] for u in users if u["active"]]
records = [kv_get(key=f"user:{name}") for name in active]
result = {"plans": [r["plan"] for r in records], "credits": sum(r["credits"] for r in records)}
