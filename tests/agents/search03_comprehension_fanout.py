# inputs: {"cities":["Paris","Tokyo","Lima"]}
# value: {"Lima":"Lima is the capital of Peru","Paris":"Paris is the capital of France","Tokyo":"Tokyo is the capital of Japan"}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Lima"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Paris"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}]]
# Fetch all capital pages at once.
cities = inputs["cities"]
pages = [fetch(url=f"https://en.wikipedia.org/wiki/{c}") for c in cities]
result = {p["title"].split(" - ")[0]: p["text"].split(".")[0] for p in pages}
