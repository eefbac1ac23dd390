# value: ["bug","docs","enhancement"]
# stdout: ""
# effects: []
# calls: [["list_issues",{"state":"closed"}],["list_issues",{"state":"open"}]]
# Which issue labels are not used by any closed issue?
open_labels = {l for i in list_issues(state="open")["issues"] for l in i["labels"]}
closed_labels = {l for i in list_issues(state="closed")["issues"] for l in i["labels"]}
result = sorted(open_labels - closed_labels)
