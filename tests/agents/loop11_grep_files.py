# value: ["guide.md: document the --dry-run flag.","guide.md: add a troubleshooting section."]
# stdout: ""
# effects: []
# calls: [["list_dir",{"path":"/docs"}],["read_file",{"path":"/docs/README.md"}],["read_file",{"path":"/docs/changelog.md"}],["read_file",{"path":"/docs/guide.md"}]]
import re

# Find TODO lines in every doc.
todos = []
for name in list_dir(path="/docs"):
    text = read_file(path="/docs/" + name)
    todos += [f"{name}: {m}" for m in re.findall(r"TODO: (.*)", text)]
result = todos
