# value: {"count":2,"thread":["Confirmed on 1.3.0","Reproduced on Linux too"]}
# stdout: ""
# effects: [["comment_issue",{"body":"Reproduced on Linux too","id":105}]]
# calls: [["comment_issue",{"body":"Reproduced on Linux too","id":105}],["get_issue",{"id":105}]]
# Leave a triage comment and show the full thread.
comment_issue(id=105, body="Reproduced on Linux too")
thread = get_issue(id=105)["comments"]
result = {"count": len(thread), "thread": thread}
