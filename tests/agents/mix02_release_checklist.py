# value: {"after":["closed"],"closed":[101],"mentioned":[101]}
# stdout: ""
# effects: [["close_issue",{"comment":"Released in 1.3.0","id":101}]]
# calls: [["close_issue",{"comment":"Released in 1.3.0","id":101}],["fetch",{"url":"https://acme.example.com/releases/1.3.0"}],["get_issue",{"id":101}],["get_issue",{"id":101}]]
# Release checklist: read the changelog, check issues mentioned in notes.
import re

notes = fetch(url="https://acme.example.com/releases/1.3.0")["text"]
mentioned = [int(n) for n in re.findall(r"issue (\d+)", notes)]
states = {n: get_issue(id=n)["state"] for n in mentioned}
to_close = [n for n, s in states.items() if s == "open"]
for n in to_close:
    close_issue(id=n, comment="Released in 1.3.0")
result = {"mentioned": mentioned, "closed": to_close, "after": [get_issue(id=n)["state"] for n in mentioned]}
