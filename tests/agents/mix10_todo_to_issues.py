# value: {"made":[108,109,110],"todo_open":[108,109,110]}
# stdout: ""
# effects: [["create_issue",{"labels":["todo"],"title":"Buy milk"}],["create_issue",{"labels":["todo"],"title":"Review pr 42"}],["create_issue",{"labels":["todo"],"title":"Write release notes"}]]
# calls: [["create_issue",{"labels":["todo"],"title":"Buy milk"}],["create_issue",{"labels":["todo"],"title":"Review pr 42"}],["create_issue",{"labels":["todo"],"title":"Write release notes"}],["list_issues",{"label":"todo"}],["list_issues",{"state":"all"}],["read_file",{"path":"/notes/todo.txt"}]]
# Turn todo lines into issues unless one with that title exists.
todo = read_file(path="/notes/todo.txt").splitlines()
existing = {i["title"] for i in list_issues(state="all")["issues"]}
made = []
for item in todo:
    title = item.capitalize()
    if title not in existing:
        made.append(create_issue(title=title, labels=["todo"])["id"])
result = {"made": made, "todo_open": [i["id"] for i in list_issues(label="todo")["issues"]]}
