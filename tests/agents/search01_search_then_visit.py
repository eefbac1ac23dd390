# value: [{"title":"Coroutines and Tasks","words":21},{"title":"asyncio - Asynchronous I/O","words":20},{"title":"Agents that write code","words":12}]
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://docs.python.org/3/library/asyncio-task.html"}],["fetch",{"url":"https://docs.python.org/3/library/asyncio.html"}],["fetch",{"url":"https://news.example.com/ai-agents"}],["search",{"query":"python asyncio TaskGroup"}]]
# Research: search, then open the top results.
results = search(query="python asyncio TaskGroup")
pages = []
for r in results:
    page = fetch(url=r["url"])
    pages.append({"title": page["title"], "words": len(page["text"].split())})
result = pages
