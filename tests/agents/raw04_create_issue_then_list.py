# value: {"config_issues":[108],"created":108,"visible":true}
# stdout: ""
# effects: [["create_issue",{"body":"acme crashes without settings.json","labels":["bug","config"],"title":"Crash when config is missing"}]]
# calls: [["create_issue",{"body":"acme crashes without settings.json","labels":["bug","config"],"title":"Crash when config is missing"}],["list_issues",{"label":"config","state":"open"}]]
# File a bug, then list open bugs to make sure it shows up.
new = create_issue(title="Crash when config is missing", body="acme crashes without settings.json", labels=["bug", "config"])
config_issues = list_issues(state="open", label="config")
ids = [i["id"] for i in config_issues["issues"]]
result = {"created": new["id"], "visible": new["id"] in ids, "config_issues": ids}
