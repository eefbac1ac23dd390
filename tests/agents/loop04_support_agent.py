# inputs: {"customer":"alice"}
# value: ["ORD-1001: refundable","ORD-1002: return it first (Shipped orders must be returned first)","ORD-1006: refundable"]
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://acme.example.com/policies/refunds"}],["get_order",{"order_id":"ORD-1001"}],["get_order",{"order_id":"ORD-1002"}],["get_order",{"order_id":"ORD-1006"}],["list_orders",{"customer":"alice"}]]
# Customer support: answer a refund question for every order of a customer.
policy = fetch(url="https://acme.example.com/policies/refunds")["text"]
answers = []
for o in list_orders(customer=inputs["customer"]):
    order = get_order(order_id=o["order_id"])
    if order["status"] == "shipped":
        answers.append(f"{order['order_id']}: return it first ({policy.split('.')[1].strip()})")
    else:
        answers.append(f"{order['order_id']}: refundable")
result = answers
