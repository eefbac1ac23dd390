# value: {"attempts":2,"title":"Quarterly report"}
# stdout: "attempt 1 failed: timed out after 5s fetching https://slow.example.com/report\n"
# effects: []
# calls: [["fetch",{"timeout":10,"url":"https://slow.example.com/report"}],["fetch",{"timeout":5,"url":"https://slow.example.com/report"}]]
# Retry a slow fetch with a growing timeout.
url = "https://slow.example.com/report"
page = None
for attempt in range(4):
    try:
        page = fetch(url=url, timeout=5 * (attempt + 1))
        break
    except RuntimeError as e:
        print(f"attempt {attempt + 1} failed: {e}")
result = {"attempts": attempt + 1, "title": page["title"] if page else None}
