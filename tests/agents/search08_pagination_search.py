# value: {"pages":2,"urls":["https://en.wikipedia.org/wiki/Canberra","https://en.wikipedia.org/wiki/Lima","https://en.wikipedia.org/wiki/Paris","https://en.wikipedia.org/wiki/Tokyo"]}
# stdout: ""
# effects: []
# calls: [["search",{"page":1,"query":"capital population lies"}],["search",{"page":2,"query":"capital population lies"}],["search",{"page":3,"query":"capital population lies"}]]
# Collect search results across pages until a page comes back empty.
query = "capital population lies"
seen = []
page_no = 1
while True:
    batch = search(query=query, page=page_no)
    if not batch:
        break
    seen.extend(r["url"] for r in batch)
    page_no += 1
result = {"pages": page_no - 1, "urls": seen}
