# value: {"bug":3,"docs":2,"enhancement":1,"good first issue":1,"network":1}
# stdout: ""
# effects: []
# calls: [["list_issues",{"cursor":"after-104"}],["list_issues",{"cursor":null}]]
from collections import Counter

# Count labels over all open issues.
counts = Counter()
cursor = None
while True:
    page = list_issues(cursor=cursor)
    for issue in page["issues"]:
        counts.update(issue["labels"])
    cursor = page["next_cursor"]
    if not cursor:
        break
result = dict(sorted(counts.items()))
