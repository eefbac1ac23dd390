# value: {"Tutorial: Getting started with generics":["An Introduction To Generics"],"asyncio - Asynchronous I/O":["Coroutines and Tasks"]}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://docs.python.org/3/library/asyncio-task.html"}],["fetch",{"url":"https://docs.python.org/3/library/asyncio.html"}],["fetch",{"url":"https://go.dev/blog/intro-generics"}],["fetch",{"url":"https://go.dev/doc/tutorial/generics"}]]
# For each language, fetch the docs and their linked pages.
roots = ["https://docs.python.org/3/library/asyncio.html", "https://go.dev/doc/tutorial/generics"]
tree = {}
for root in roots:
    page = fetch(url=root)
    tree[page["title"]] = [fetch(url=link)["title"] for link in page["links"]]
result = tree
