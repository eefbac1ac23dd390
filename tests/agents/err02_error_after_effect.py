# error: RuntimeError: order ORD-9999 not found
# stdout: ""
# effects: [["write_file",{"content":"started","path":"/tmp/marker"}]]
# calls: [["get_order",{"order_id":"ORD-9999"}],["write_file",{"content":"started","path":"/tmp/marker"}]]
# Write a marker, then fail on a missing order; the write already happened.
write_file(path="/tmp/marker", content="started")
order = get_order(order_id="ORD-9999")
result = order
