# value: {"length":32,"ok":true}
# stdout: ""
# effects: [["write_file",{"content":"## Daily report\n- 3 issues open\n","path":"/reports/daily.md"}]]
# calls: [["read_file",{"path":"/reports/daily.md"}],["write_file",{"content":"## Daily report\n- 3 issues open\n","path":"/reports/daily.md"}]]
# Save a report, then read it back to confirm what was written.
report = "## Daily report\n- 3 issues open\n"
write_file(path="/reports/daily.md", content=report)
saved = read_file(path="/reports/daily.md")
result = {"ok": saved == report, "length": len(saved)}
