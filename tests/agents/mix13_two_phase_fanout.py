# value: {"asyncio":"Coroutines and Tasks","generics":"An Introduction To Generics","ownership":"What Is Ownership? - The Rust Programming Language"}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html"}],["fetch",{"url":"https://docs.python.org/3/library/asyncio-task.html"}],["fetch",{"url":"https://go.dev/blog/intro-generics"}],["search",{"query":"asyncio"}],["search",{"query":"generics"}],["search",{"query":"ownership"}]]
# Phase 1: search each topic; phase 2: fetch each first hit.
topics = ["asyncio", "generics", "ownership"]
firsts = [search(query=t)[0]["url"] for t in topics]
titles = [fetch(url=u)["title"] for u in firsts]
result = dict(zip(topics, titles))
