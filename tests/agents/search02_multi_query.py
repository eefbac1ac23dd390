# value: {"go generics":"An Introduction To Generics","python asyncio":"Coroutines and Tasks","rust ownership":"What Is Ownership? - The Rust Programming Language"}
# stdout: ""
# effects: []
# calls: [["search",{"query":"go generics"}],["search",{"query":"python asyncio"}],["search",{"query":"rust ownership"}]]
# Look up several topics independently.
topics = ["go generics", "rust ownership", "python asyncio"]
top = {}
for topic in topics:
    hits = search(query=topic)
    top[topic] = hits[0]["title"] if hits else None
result = top
