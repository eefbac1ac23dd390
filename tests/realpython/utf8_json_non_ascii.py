# expect: ok
# value: ["{\"name\": \"J\\u00fcrgen\", \"city\": \"\\u6771\\u4eac\"}", "{\"name\": \"Jürgen\", \"city\": \"東京\"}", {"name": "Jürgen", "city": "東京"}]
# json with non-ASCII text, escaped and not.
import json
data = {"name": "J\u00fcrgen", "city": "\u6771\u4eac"}
result = [json.dumps(data), json.dumps(data, ensure_ascii=False), data]
