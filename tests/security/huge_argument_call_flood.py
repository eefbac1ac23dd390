# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Calls a known tool again and again with arguments just under the 1 MiB
# request limit, swallowing every error. Each call the host traces keeps its
# arguments: the trace is charged against the execution's host memory
# budget, so the flood ends with `limit` after some 16 MiB, not after 10,000
# calls and 10 GiB.
big = "a" * ((1 << 20) - 100)
while True:
    try:
        echo(x=big)
    except BaseException:
        pass
