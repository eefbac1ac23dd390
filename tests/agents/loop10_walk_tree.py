# value: ["/config/settings.json","/data/sales.csv","/data/users.json","/docs/README.md","/docs/changelog.md","/docs/guide.md","/logs/app.log","/notes/todo.txt"]
# stdout: ""
# effects: []
# calls: [["list_dir",{"path":"/"}],["list_dir",{"path":"/config"}],["list_dir",{"path":"/data"}],["list_dir",{"path":"/docs"}],["list_dir",{"path":"/logs"}],["list_dir",{"path":"/notes"}]]
# Walk the whole file tree recursively with a helper.
def walk(path):
    found = []
    for entry in list_dir(path=path):
        full = path.rstrip("/") + "/" + entry.rstrip("/")
        if entry.endswith("/"):
            found.extend(walk(full))
        else:
            found.append(full)
    return found

result = walk("/")
