# value: {"followups":["An Introduction To Generics"],"title":"Tutorial: Getting started with generics"}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://go.dev/blog/intro-generics"}],["fetch",{"url":"https://go.dev/doc/tutorial/generics"}],["search",{"query":"go generics tutorial"}]]
# Only dig deeper when the first hit looks relevant.
hits = search(query="go generics tutorial")
if hits and "generics" in hits[0]["title"].lower():
    page = fetch(url=hits[0]["url"])
    followups = [fetch(url=l)["title"] for l in page["links"]]
    result = {"title": page["title"], "followups": followups}
else:
    result = None
