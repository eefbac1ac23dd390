# value: "The Seine is a river ..."
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Seine"}],["search",{"query":"seine river france"}],["summarize",{"max_words":5,"text":"The Seine is a river in northern France, 777 km long. It flows through Paris into the English Channel."}]]
# Each step needs the previous result: a true chain.
hits = search(query="seine river france")
page = fetch(url=hits[0]["url"])
linked = fetch(url=page["links"][0]) if page["links"] else page
summary = summarize(text=linked["text"], max_words=5)
result = summary
