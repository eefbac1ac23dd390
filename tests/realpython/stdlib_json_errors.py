# expect: ok
# value: ["Expecting property name enclosed in double quotes", 1, 9]
# json.JSONDecodeError carries its position.
import json
try:
    json.loads('{"a": 1,}')
except json.JSONDecodeError as e:
    result = [e.msg, e.lineno, e.colno]
