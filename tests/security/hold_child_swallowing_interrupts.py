# expect: timeout
# Hold the child by catching whatever ends a tool call (BaseException, the
# deadline's interrupt included) and calling again, for ever. Catching must
# not buy time: the execution ends at its deadline, and its child is freed.
n = 0
while True:
    try:
        sleep(ms=3600000)
    except BaseException:
        n += 1
