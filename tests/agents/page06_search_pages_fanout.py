# value: [["Canberra","Lima","Paris"],["Tokyo"],[]]
# stdout: ""
# effects: []
# calls: [["search",{"page":1,"query":"capital population"}],["search",{"page":2,"query":"capital population"}],["search",{"page":3,"query":"capital population"}]]
# Fetch three result pages of one query.
pages = [search(query="capital population", page=n) for n in range(1, 4)]
result = [[r["url"].rsplit("/", 1)[-1] for r in p] for p in pages]
