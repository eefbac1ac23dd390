# value: {"content":null,"errors":["404 Not Found: https://mirror1.example.com/acme-1.3.0.tar.gz","404 Not Found: https://mirror2.example.com/acme-1.3.0.tar.gz"]}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://mirror1.example.com/acme-1.3.0.tar.gz"}],["fetch",{"url":"https://mirror2.example.com/acme-1.3.0.tar.gz"}],["read_file",{"path":"/config/settings.json"}]]
import json

# Try each mirror from the config until one answers.
config = json.loads(read_file(path="/config/settings.json"))
errors = []
content = None
for mirror in config["mirrors"]:
    try:
        content = fetch(url=mirror + "/acme-1.3.0.tar.gz")
        break
    except RuntimeError as e:
        errors.append(str(e))
result = {"content": content, "errors": errors}
