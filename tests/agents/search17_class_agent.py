# value: {"agent":"scout","notes":["https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html","https://docs.python.org/3/library/asyncio.html","https://en.wikipedia.org/wiki/Seine"]}
# stdout: ""
# effects: []
# calls: [["search",{"query":"asyncio gather"}],["search",{"query":"rust ownership"}],["search",{"query":"seine river"}]]
# A tiny agent class with memory.
class ResearchAgent:
    def __init__(self, name):
        self.name = name
        self.notes = []

    def look_up(self, query):
        hits = search(query=query)
        if hits:
            self.notes.append(hits[0]["url"])
        return len(hits)

    def report(self):
        return {"agent": self.name, "notes": self.notes}

agent = ResearchAgent("scout")
for q in ["rust ownership", "asyncio gather", "seine river"]:
    agent.look_up(q)
result = agent.report()
