# value: "ORD-1005"
# stdout: ""
# effects: []
# calls: [["get_order",{"order_id":"ORD-1001"}],["get_order",{"order_id":"ORD-1003"}],["get_order",{"order_id":"ORD-1005"}]]
# Find the largest order with max() and a lambda key that calls a tool.
ids = ["ORD-1001", "ORD-1003", "ORD-1005"]
biggest = max(ids, key=lambda i: get_order(order_id=i)["total"])
result = biggest
