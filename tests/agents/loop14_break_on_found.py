# value: 105
# stdout: ""
# effects: []
# calls: [["get_issue",{"id":101}],["get_issue",{"id":102}],["get_issue",{"id":103}],["get_issue",{"id":104}],["get_issue",{"id":105}]]
# Find the first open issue mentioning a keyword.
keyword = inputs.get("keyword", "exit")
found = None
for issue_id in range(101, 108):
    issue = get_issue(id=issue_id)
    if keyword in issue["body"].lower():
        found = issue_id
        break
result = found
