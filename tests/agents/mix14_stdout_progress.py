# value: 191.49
# stdout: "[1/3] ORD-1001: processing (1 items)\n[2/3] ORD-1003: processing (1 items)\n[3/3] ORD-1005: processing (2 items)\n"
# effects: []
# calls: [["get_order",{"order_id":"ORD-1001"}],["get_order",{"order_id":"ORD-1003"}],["get_order",{"order_id":"ORD-1005"}]]
# Print progress while checking orders.
ids = ["ORD-1001", "ORD-1003", "ORD-1005"]
total = 0
for n, oid in enumerate(ids):
    o = get_order(order_id=oid)
    total += o["total"]
    print(f"[{n + 1}/{len(ids)}] {oid}: {o['status']} ({len(o['items'])} items)")
result = round(total, 2)
