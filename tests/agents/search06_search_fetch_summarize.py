# value: "Refund policy: Orders can be refunded within 30 days. Shipped orders must ..."
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://acme.example.com/policies/refunds"}],["search",{"query":"refund policy shipped orders"}],["summarize",{"max_words":10,"text":"Orders can be refunded within 30 days. Shipped orders must be returned first. Refunds take 5 business days."}]]
# Search, fetch the best hit, and summarise it.
hits = search(query="refund policy shipped orders")
best = hits[0]
page = fetch(url=best["url"])
summary = summarize(text=page["text"], max_words=10)
result = f"{best['title']}: {summary}"
