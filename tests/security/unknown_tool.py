# expect: ok
# value: {"error": "unknown tool \"read_secrets\""}
# Call a tool that is not in the manifest through _spine directly.
import _spine, json
result = json.loads(_spine.call('{"tool":"read_secrets","args":{}}'))
assert 'error' in result
