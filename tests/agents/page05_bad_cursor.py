# value: "error: invalid cursor \"page-2\""
# stdout: ""
# effects: []
# calls: [["list_issues",{"cursor":"page-2"}]]
# A malformed cursor is an error the agent reports.
try:
    list_issues(cursor="page-2")
    result = "unexpected"
except RuntimeError as e:
    result = f"error: {e}"
