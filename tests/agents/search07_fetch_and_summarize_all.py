# value: ["Version 1.3.0 adds --dry-run and fixes a crash ...","Version 1.2.0 adds sync --delete and speeds up ..."]
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://acme.example.com/releases/1.2.0"}],["fetch",{"url":"https://acme.example.com/releases/1.3.0"}],["summarize",{"max_words":8,"text":"Version 1.2.0 adds sync --delete and speeds up large trees (issue 103)."}],["summarize",{"max_words":8,"text":"Version 1.3.0 adds --dry-run and fixes a crash on empty directories (issue 101)."}]]
# Summarise every release note page.
urls = ["https://acme.example.com/releases/1.3.0", "https://acme.example.com/releases/1.2.0"]
notes = []
for url in urls:
    page = fetch(url=url)
    notes.append(summarize(text=page["text"], max_words=8))
result = notes
