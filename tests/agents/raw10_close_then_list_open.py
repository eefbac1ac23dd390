# value: [101,104,105]
# stdout: "closed #102: Document --dry-run\nclosed #106: Typo in README\n"
# effects: [["close_issue",{"comment":"docs sweep","id":102}],["close_issue",{"comment":"docs sweep","id":106}]]
# calls: [["close_issue",{"comment":"docs sweep","id":102}],["close_issue",{"comment":"docs sweep","id":106}],["list_issues",{"label":"docs","state":"open"}],["list_issues",{"state":"open"}]]
# Close every documentation issue, then list what is still open.
docs = list_issues(state="open", label="docs")["issues"]
for issue in docs:
    close_issue(id=issue["id"], comment="docs sweep")
    print(f"closed #{issue['id']}: {issue['title']}")
still_open = list_issues(state="open")
result = [i["id"] for i in still_open["issues"]]
