# value: "Coroutines and Tasks"
# stdout: "search rejected the arguments\n"
# effects: []
# calls: [["search",{"q":"python asyncio"}],["search",{"query":"python asyncio"}]]
# The agent guesses a wrong keyword, reads the error, and retries with the right one.
try:
    hits = search(q="python asyncio")
except RuntimeError as e:
    print("search rejected the arguments")
    hits = search(query="python asyncio")
result = hits[0]["title"]
