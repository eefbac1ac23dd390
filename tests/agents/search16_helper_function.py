# value: {"capital of France":["Paris - Wikipedia","Canberra - Wikipedia"],"capital of Japan":["Tokyo - Wikipedia","Canberra - Wikipedia"]}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Canberra"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Canberra"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Paris"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}],["search",{"query":"capital of France"}],["search",{"query":"capital of Japan"}]]
# A helper that wraps search + fetch, used for several questions.
def research(question, max_pages=2):
    hits = search(query=question)[:max_pages]
    return [fetch(url=h["url"])["title"] for h in hits]

answers = {q: research(q) for q in ["capital of France", "capital of Japan"]}
result = answers
