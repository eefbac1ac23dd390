# value: {"broken":["https://news.example.com/missing-page"],"titles":["Agents that write code","Programmatic tool calling"]}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://news.example.com/ai-agents"}],["fetch",{"url":"https://news.example.com/missing-page"}],["fetch",{"url":"https://news.example.com/tool-calling"}]]
# Crawl one level of links from a news page, skipping broken ones.
start = fetch(url="https://news.example.com/ai-agents")
titles = [start["title"]]
broken = []
for link in start["links"]:
    try:
        titles.append(fetch(url=link)["title"])
    except RuntimeError as err:
        broken.append(link)
result = {"titles": titles, "broken": broken}
