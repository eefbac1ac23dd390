# value: [["ORD-1001","processing"],["ORD-1002","shipped"],["ORD-1006","cancelled"]]
# stdout: ""
# effects: [["cancel_order",{"order_id":"ORD-1006"}]]
# calls: [["cancel_order",{"order_id":"ORD-1006"}],["list_orders",{"customer":"alice"}],["list_orders",{"customer":"alice"}]]
# Cancel the newest processing order and show the customer's order book.
book = list_orders(customer="alice")
pending = [o for o in book if o["status"] == "processing"]
newest = pending[-1]["order_id"]
cancel_order(order_id=newest)
result = [(o["order_id"], o["status"]) for o in list_orders(customer="alice")]
