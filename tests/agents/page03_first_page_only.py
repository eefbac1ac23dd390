# value: {"count":1,"more":false}
# stdout: ""
# effects: []
# calls: [["list_issues",{"state":"closed"}]]
# Peek at the first page of closed issues.
page = list_issues(state="closed")
result = {"count": len(page["issues"]), "more": page["next_cursor"] is not None}
