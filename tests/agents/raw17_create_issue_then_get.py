# value: "timed out after 5s fetching https://slow.example.com/report"
# stdout: ""
# effects: [["create_issue",{"body":"timed out after 5s fetching https://slow.example.com/report","labels":["network"],"title":"Report fetch failing"}]]
# calls: [["create_issue",{"body":"timed out after 5s fetching https://slow.example.com/report","labels":["network"],"title":"Report fetch failing"}],["fetch",{"url":"https://slow.example.com/report"}],["get_issue",{"id":108}]]
# Open a tracking issue for a failing fetch, then read it back.
try:
    fetch(url="https://slow.example.com/report")
    status = "ok"
except RuntimeError as e:
    status = str(e)
    issue = create_issue(title="Report fetch failing", body=status, labels=["network"])
    status = get_issue(id=issue["id"])["body"]
result = status
