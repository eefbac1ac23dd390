# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Makes an effectful tool keep large values in the host (Emit) for as long
# as it is let, ignoring every refusal. Emitted values are part of the
# execution's host memory budget: once it is spent the tool is refused and
# the program is stopped with `limit`, long before 10,000 values of 1 MiB.
import _spine

request = '{"tool": "emit", "args": {"value": "' + "e" * 900000 + '"}}'
while True:
    _spine.call(request)
