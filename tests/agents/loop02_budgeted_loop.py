# value: {"answer":"https://en.wikipedia.org/wiki/Tokyo","searches":1}
# stdout: ""
# effects: []
# calls: [["search",{"query":"tokyo bay"}]]
# Keep researching until the budget runs out or an answer is found.
budget = 3
queries = ["tokyo bay", "capital of japan", "japan population"]
answer = None
used = 0
while used < budget and answer is None:
    hits = search(query=queries[used])
    used += 1
    for h in hits:
        if "Tokyo" in h["title"]:
            answer = h["url"]
            break
result = {"answer": answer, "searches": used}
