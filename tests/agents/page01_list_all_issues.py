# value: [101,102,104,105,106,107]
# stdout: ""
# effects: []
# calls: [["list_issues",{"cursor":"after-104","state":"open"}],["list_issues",{"cursor":null,"state":"open"}]]
# Walk every page of open issues.
issues = []
cursor = None
while True:
    page = list_issues(state="open", cursor=cursor)
    issues.extend(page["issues"])
    cursor = page["next_cursor"]
    if cursor is None:
        break
result = [i["id"] for i in issues]
