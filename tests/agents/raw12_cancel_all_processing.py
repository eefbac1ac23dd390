# inputs: {"customer":"alice"}
# value: {"cancelled":["ORD-1001","ORD-1006"],"now":{"ORD-1001":"cancelled","ORD-1002":"shipped","ORD-1006":"cancelled"}}
# stdout: ""
# effects: [["cancel_order",{"order_id":"ORD-1001"}],["cancel_order",{"order_id":"ORD-1006"}]]
# calls: [["cancel_order",{"order_id":"ORD-1001"}],["cancel_order",{"order_id":"ORD-1006"}],["list_orders",{"customer":"alice"}],["list_orders",{"customer":"alice"}]]
# Cancel every processing order of a customer, then list the orders again.
customer = inputs.get("customer", "alice")
orders = list_orders(customer=customer)
cancelled = []
for o in orders:
    if o["status"] == "processing":
        cancel_order(order_id=o["order_id"])
        cancelled.append(o["order_id"])
result = {"cancelled": cancelled, "now": {o["order_id"]: o["status"] for o in list_orders(customer=customer)}}
