# error: ToolResultError: unexpected country in Lima - Wikipedia
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Lima"}]]
# The agent raises its own error when a result looks wrong.
class ToolResultError(Exception):
    pass

page = fetch(url="https://en.wikipedia.org/wiki/Lima")
if "Peru" in page["text"]:
    raise ToolResultError(f"unexpected country in {page['title']}")
result = page["title"]
