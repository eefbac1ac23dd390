# inputs: {"order_id":"ORD-1003"}
# value: {"after":"cancelled","before":"processing","order_id":"ORD-1003"}
# stdout: "Order ORD-1003 is processing\n"
# effects: [["cancel_order",{"order_id":"ORD-1003","reason":"customer request"}]]
# calls: [["cancel_order",{"order_id":"ORD-1003","reason":"customer request"}],["get_order",{"order_id":"ORD-1003"}],["get_order",{"order_id":"ORD-1003"}]]
# Cancel an order and confirm its status afterwards.
order_id = inputs["order_id"]
before = get_order(order_id=order_id)
print(f"Order {order_id} is {before['status']}")
cancel_order(order_id=order_id, reason="customer request")
after = get_order(order_id=order_id)
result = {"order_id": order_id, "before": before["status"], "after": after["status"]}
