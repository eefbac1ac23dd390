# value: {"ORD-1002":"failed: cannot cancel ORD-1002: it is shipped","ORD-1003":"cancelled"}
# stdout: ""
# effects: [["cancel_order",{"order_id":"ORD-1002"}],["cancel_order",{"order_id":"ORD-1003"}]]
# calls: [["cancel_order",{"order_id":"ORD-1002"}],["cancel_order",{"order_id":"ORD-1003"}]]
# Cancelling a shipped order fails; report it and move on.
outcomes = {}
for oid in ["ORD-1002", "ORD-1003"]:
    try:
        outcomes[oid] = cancel_order(order_id=oid)["status"]
    except RuntimeError as e:
        outcomes[oid] = f"failed: {e}"
result = outcomes
