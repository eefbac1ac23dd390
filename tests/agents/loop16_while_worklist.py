# value: ["Paris - Wikipedia","Tokyo - Wikipedia","Lima - Wikipedia"]
# stdout: "visiting Paris\nvisiting Tokyo\nvisiting Lima\n"
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Lima"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Paris"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}]]
# Work through a queue of pages with a while loop, printing progress.
todo = ["https://en.wikipedia.org/wiki/Paris", "https://en.wikipedia.org/wiki/Tokyo",
        "https://en.wikipedia.org/wiki/Lima"]
titles = []
while todo:
    url = todo.pop(0)
    print("visiting", url.rsplit("/", 1)[1])
    titles.append(fetch(url=url)["title"])
result = titles
