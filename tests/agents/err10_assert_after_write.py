# error: AssertionError: guide has no TODOs left
# stdout: ""
# effects: [["write_file",{"content":"# Guide\n","path":"/docs/guide.md"}]]
# calls: [["read_file",{"path":"/docs/guide.md"}],["write_file",{"content":"# Guide\n","path":"/docs/guide.md"}]]
# Write, then assert the content: a failing assertion is the program's error.
write_file(path="/docs/guide.md", content="# Guide\n")
text = read_file(path="/docs/guide.md")
assert "TODO" in text, "guide has no TODOs left"
result = text
