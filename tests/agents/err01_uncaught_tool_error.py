# error: RuntimeError: no such file: /config/missing.json
# stdout: ""
# effects: []
# calls: [["read_file",{"path":"/config/missing.json"}]]
# Read a config file that does not exist: the error propagates.
settings = read_file(path="/config/missing.json")
result = settings
