# value: {"bug":[101],"docs":[102],"other":[104]}
# stdout: ""
# effects: [["comment_issue",{"body":"Triaged: needs reproduction","id":101}]]
# calls: [["comment_issue",{"body":"Triaged: needs reproduction","id":101}],["get_issue",{"id":101}],["list_issues",{"state":"open"}]]
# Triage: label-based routing of open issues with comments for bugs.
routed = {"bug": [], "docs": [], "other": []}
for issue in list_issues(state="open")["issues"]:
    if "bug" in issue["labels"]:
        detail = get_issue(id=issue["id"])
        if not detail["comments"]:
            comment_issue(id=issue["id"], body="Triaged: needs reproduction")
        routed["bug"].append(issue["id"])
    elif "docs" in issue["labels"]:
        routed["docs"].append(issue["id"])
    else:
        routed["other"].append(issue["id"])
result = routed
