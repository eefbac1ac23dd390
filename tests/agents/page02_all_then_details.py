# value: {"101":0,"105":1,"107":0}
# stdout: ""
# effects: []
# calls: [["get_issue",{"id":101}],["get_issue",{"id":105}],["get_issue",{"id":107}],["list_issues",{"cursor":"after-103","state":"all"}],["list_issues",{"cursor":"after-106","state":"all"}],["list_issues",{"cursor":null,"state":"all"}]]
# List all issues (every state), then load each bug's details.
cursor, everything = None, []
while True:
    resp = list_issues(state="all", cursor=cursor)
    everything += resp["issues"]
    if not resp["next_cursor"]:
        break
    cursor = resp["next_cursor"]
bugs = [i for i in everything if "bug" in i["labels"]]
details = [get_issue(id=b["id"]) for b in bugs]
result = {d["id"]: len(d["comments"]) for d in details}
