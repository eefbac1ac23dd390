# value: {"README.md":11,"changelog.md":6,"guide.md":5}
# stdout: ""
# effects: []
# calls: [["list_dir",{"path":"/docs"}],["read_file",{"path":"/docs/README.md"}],["read_file",{"path":"/docs/changelog.md"}],["read_file",{"path":"/docs/guide.md"}]]
# For each file in /docs, count its lines.
counts = {}
for name in list_dir(path="/docs"):
    counts[name] = len(read_file(path=f"/docs/{name}").splitlines())
result = counts
