# value: {"guide_lines":5,"todo":["review PR 42","write release notes"]}
# stdout: ""
# effects: [["write_file",{"content":"review PR 42\nwrite release notes\n","path":"/notes/todo.txt"}]]
# calls: [["read_file",{"path":"/docs/guide.md"}],["read_file",{"path":"/notes/todo.txt"}],["read_file",{"path":"/notes/todo.txt"}],["write_file",{"content":"review PR 42\nwrite release notes\n","path":"/notes/todo.txt"}]]
# Update the todo list and read both the todo list and the guide.
todo = read_file(path="/notes/todo.txt")
write_file(path="/notes/todo.txt", content=todo.replace("buy milk\n", ""))
result = {"todo": read_file(path="/notes/todo.txt").splitlines(), "guide_lines": len(read_file(path="/docs/guide.md").splitlines())}
