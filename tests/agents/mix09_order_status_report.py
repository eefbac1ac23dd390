# value: {"alice":{"open":2,"spent":285.5},"bob":{"open":1,"spent":54.99},"carol":{"open":1,"spent":129}}
# stdout: ""
# effects: []
# calls: [["list_orders",{"customer":"alice"}],["list_orders",{"customer":"bob"}],["list_orders",{"customer":"carol"}]]
# Status report of every customer's orders.
report = {}
for customer in ["alice", "bob", "carol"]:
    orders = list_orders(customer=customer)
    report[customer] = {
        "open": sum(1 for o in orders if o["status"] == "processing"),
        "spent": round(sum(o["total"] for o in orders), 2),
    }
result = report
