# value: ["https://docs.python.org/3/library/asyncio-task.html","https://docs.python.org/3/library/asyncio.html"]
# stdout: ""
# effects: [["write_file",{"content":"{\"query\": \"asyncio\", \"hits\": [\"https://docs.python.org/3/library/asyncio-task.html\", \"https://docs.python.org/3/library/asyncio.html\"]}","path":"/cache/asyncio.json"}]]
# calls: [["read_file",{"path":"/cache/asyncio.json"}],["search",{"query":"asyncio"}],["write_file",{"content":"{\"query\": \"asyncio\", \"hits\": [\"https://docs.python.org/3/library/asyncio-task.html\", \"https://docs.python.org/3/library/asyncio.html\"]}","path":"/cache/asyncio.json"}]]
import json

# Store a JSON document as a file, then parse it back.
doc = {"query": "asyncio", "hits": [h["url"] for h in search(query="asyncio")]}
write_file(path="/cache/asyncio.json", content=json.dumps(doc))
result = json.loads(read_file(path="/cache/asyncio.json"))["hits"]
