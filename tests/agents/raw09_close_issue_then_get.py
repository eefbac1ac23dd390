# value: {"last_comment":"Fixed in the docs","state":"closed"}
# stdout: ""
# effects: [["close_issue",{"comment":"Fixed in the docs","id":106}]]
# calls: [["close_issue",{"comment":"Fixed in the docs","id":106}],["get_issue",{"id":106}]]
# Close the typo issue with a comment, then fetch it to confirm.
close_issue(id=106, comment="Fixed in the docs")
issue = get_issue(id=106)
result = {"state": issue["state"], "last_comment": issue["comments"][-1]}
