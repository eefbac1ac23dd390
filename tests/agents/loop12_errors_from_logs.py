# value: [108,109]
# stdout: ""
# effects: [["create_issue",{"labels":["bug"],"title":"Log error: db timeout"}],["create_issue",{"labels":["bug"],"title":"Log error: disk full"}]]
# calls: [["create_issue",{"labels":["bug"],"title":"Log error: db timeout"}],["create_issue",{"labels":["bug"],"title":"Log error: disk full"}],["read_file",{"path":"/logs/app.log"}]]
# Open an issue for every ERROR line in the log.
log = read_file(path="/logs/app.log")
created = []
for line in log.splitlines():
    if " ERROR " in line:
        msg = line.split(" ERROR ", 1)[1]
        created.append(create_issue(title=f"Log error: {msg}", labels=["bug"])["id"])
result = created
