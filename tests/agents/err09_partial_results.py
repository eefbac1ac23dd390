# value: {"failed":["Atlantis"],"ok":["Paris - Wikipedia","Tokyo - Wikipedia"]}
# stdout: "2 ok, 1 failed\n"
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Atlantis"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Paris"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}]]
# Fetch several URLs and keep partial results when some fail.
urls = ["https://en.wikipedia.org/wiki/Paris", "https://en.wikipedia.org/wiki/Atlantis",
        "https://en.wikipedia.org/wiki/Tokyo"]
ok, failed = [], []
for u in urls:
    try:
        ok.append(fetch(url=u)["title"])
    except Exception as exc:
        failed.append(u.rsplit("/", 1)[1])
print(f"{len(ok)} ok, {len(failed)} failed")
result = {"ok": ok, "failed": failed}
