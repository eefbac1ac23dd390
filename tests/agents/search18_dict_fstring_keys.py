# value: {"go":{"chars":93,"title":"Tutorial: Getting started with generics"},"python":{"chars":149,"title":"asyncio - Asynchronous I/O"},"rust":{"chars":100,"title":"What Is Ownership? - The Rust Programming Language"}}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html"}],["fetch",{"url":"https://docs.python.org/3/library/asyncio.html"}],["fetch",{"url":"https://go.dev/doc/tutorial/generics"}]]
# Build a comparison table of language docs.
docs = {
    "python": "https://docs.python.org/3/library/asyncio.html",
    "go": "https://go.dev/doc/tutorial/generics",
    "rust": "https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html",
}
table = {}
for lang, url in docs.items():
    page = fetch(url=url)
    table[lang] = {"title": page["title"], "chars": len(page["text"])}
result = table
