# value: {"migrated":true,"mirrors":["https://mirror1.example.com","https://mirror2.example.com"],"retries":5,"version":"1.3.0"}
# stdout: ""
# effects: [["write_file",{"content":"{\"migrated\": true, \"mirrors\": [\"https://mirror1.example.com\", \"https://mirror2.example.com\"], \"retries\": 5, \"version\": \"1.3.0\"}","path":"/config/settings.json"}]]
# calls: [["read_file",{"path":"/config/settings.json"}],["read_file",{"path":"/config/settings.json"}],["write_file",{"content":"{\"migrated\": true, \"mirrors\": [\"https://mirror1.example.com\", \"https://mirror2.example.com\"], \"retries\": 5, \"version\": \"1.3.0\"}","path":"/config/settings.json"}]]
import json

# Migrate settings: bump retries, write it back, re-read and validate.
settings = json.loads(read_file(path="/config/settings.json"))
settings["retries"] = settings["retries"] + 2
settings["migrated"] = True
write_file(path="/config/settings.json", content=json.dumps(settings, sort_keys=True))
check = json.loads(read_file(path="/config/settings.json"))
assert check["migrated"], "migration did not stick"
result = check
