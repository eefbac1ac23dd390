# value: "rejected"
# stdout: ""
# effects: []
# calls: [["search",{"q":"python"}]]
# A tool called with a wrong keyword gets a clear error.
try:
    search(q="python")
    result = "accepted"
except RuntimeError as e:
    result = "rejected"
