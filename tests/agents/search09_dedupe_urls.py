# value: ["Agents that write code","Coroutines and Tasks","asyncio - Asynchronous I/O"]
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://docs.python.org/3/library/asyncio-task.html"}],["fetch",{"url":"https://docs.python.org/3/library/asyncio.html"}],["fetch",{"url":"https://news.example.com/ai-agents"}],["search",{"query":"asyncio TaskGroup"}],["search",{"query":"python 3.11"}],["search",{"query":"python asyncio"}]]
# Run overlapping queries and fetch each distinct URL once.
queries = ["python asyncio", "asyncio TaskGroup", "python 3.11"]
urls = []
for q in queries:
    for hit in search(query=q):
        if hit["url"] not in urls:
            urls.append(hit["url"])
titles = [fetch(url=u)["title"] for u in urls]
result = sorted(titles)
