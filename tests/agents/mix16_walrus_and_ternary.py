# value: "14094034"
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}],["search",{"query":"tokyo population"}]]
# Conditional follow-up using the walrus operator.
if (hits := search(query="tokyo population")):
    page = fetch(url=hits[0]["url"])
    result = page["text"].split("Population: ")[1].split(".")[0]
else:
    result = "no hits"
