# value: "issue 104 is already closed"
# stdout: ""
# effects: [["close_issue",{"id":104}],["close_issue",{"id":104}]]
# calls: [["close_issue",{"id":104}],["close_issue",{"id":104}]]
# Closing an issue twice: the second close fails.
close_issue(id=104)
try:
    close_issue(id=104)
    result = "closed twice?"
except RuntimeError as e:
    result = str(e)
