# value: [21, {"a": 1}]
args = {"key": 3}
result = [lookup(**args), echo(**{"a": 1})]
