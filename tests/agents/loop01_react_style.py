# value: "The Seine is a river in ..."
# stdout: "0: search -\u003e 2 hits\n1: fetch -\u003e Seine - Wikipedia\n2: summarize\n"
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Seine"}],["search",{"query":"seine river"}],["summarize",{"max_words":6,"text":"The Seine is a river in northern France, 777 km long. It flows through Paris into the English Channel."}]]
# A ReAct-style loop: the plan decides the next tool from the last observation.
plan = [("search", "seine river"), ("fetch", None), ("summarize", None)]
observation = None
trace = []
for step, (action, arg) in enumerate(plan):
    if action == "search":
        observation = search(query=arg)
        trace.append(f"{step}: search -> {len(observation)} hits")
    elif action == "fetch":
        observation = fetch(url=observation[0]["url"])
        trace.append(f"{step}: fetch -> {observation['title']}")
    else:
        observation = summarize(text=observation["text"], max_words=6)
        trace.append(f"{step}: summarize")
print("\n".join(trace))
result = observation
