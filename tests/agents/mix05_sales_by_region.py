# value: "best region: north (2630); stored 3 regions"
# stdout: ""
# effects: [["kv_put",{"key":"sales:totals","value":{"east":1520,"north":2630,"south":1960}}]]
# calls: [["kv_get",{"key":"sales:totals"}],["kv_put",{"key":"sales:totals","value":{"east":1520,"north":2630,"south":1960}}],["read_file",{"path":"/data/sales.csv"}]]
# Aggregate sales per region and store the summary.
rows = [line.split(",") for line in read_file(path="/data/sales.csv").strip().splitlines()[1:]]
totals = {}
for region, month, amount in rows:
    totals[region] = totals.get(region, 0) + int(amount)
kv_put(key="sales:totals", value=totals)
best = max(totals.items(), key=lambda kv: kv[1])
result = f"best region: {best[0]} ({best[1]}); stored {len(kv_get(key='sales:totals'))} regions"
