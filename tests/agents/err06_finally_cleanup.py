# value: {"data":null,"lock":""}
# stdout: ""
# effects: [["write_file",{"content":"1","path":"/tmp/lock"}],["write_file",{"content":"","path":"/tmp/lock"}]]
# calls: [["read_file",{"path":"/data/missing.csv"}],["read_file",{"path":"/tmp/lock"}],["write_file",{"content":"","path":"/tmp/lock"}],["write_file",{"content":"1","path":"/tmp/lock"}]]
# Write a lock file, do work that fails, and clean up in finally.
write_file(path="/tmp/lock", content="1")
try:
    data = read_file(path="/data/missing.csv")
except RuntimeError:
    data = None
finally:
    write_file(path="/tmp/lock", content="")
result = {"data": data, "lock": read_file(path="/tmp/lock")}
