# expect: ok
# value: ["{\n \"a\": {\n  \"nested\": \"é\"\n },\n \"b\": [\n  1,\n  2.5,\n  null,\n  true\n ]\n}", true]
# json: dumps with options and loads back.
import json
data = {"b": [1, 2.5, None, True], "a": {"nested": "\u00e9"}}
text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False)
result = [text, json.loads(text) == data]
