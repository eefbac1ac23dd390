# value: ["2026-11-30 10:03:00 INFO stop","2026-11-30 10:04:00 INFO agent ran"]
# stdout: ""
# effects: [["write_file",{"append":true,"content":"2026-11-30 10:04:00 INFO agent ran\n","path":"/logs/app.log"}]]
# calls: [["read_file",{"path":"/logs/app.log"}],["write_file",{"append":true,"content":"2026-11-30 10:04:00 INFO agent ran\n","path":"/logs/app.log"}]]
# Append an entry to the log and show the tail.
write_file(path="/logs/app.log", content="2026-11-30 10:04:00 INFO agent ran\n", append=True)
lines = read_file(path="/logs/app.log").splitlines()
result = lines[-2:]
