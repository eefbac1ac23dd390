# value: 3
# stdout: ""
# effects: [["write_file",{"content":"- #101 Crash on empty directory\n- #102 Document --dry-run\n- #104 Add Windows support","path":"/reports/issues.md"}]]
# calls: [["list_issues",{"state":"open"}],["read_file",{"path":"/reports/issues.md"}],["write_file",{"content":"- #101 Crash on empty directory\n- #102 Document --dry-run\n- #104 Add Windows support","path":"/reports/issues.md"}]]
# Write a markdown report of open issues, then read the report back.
issues = list_issues(state="open")["issues"]
lines = [f"- #{i['id']} {i['title']}" for i in issues]
write_file(path="/reports/issues.md", content="\n".join(lines))
result = read_file(path="/reports/issues.md").count("\n") + 1
