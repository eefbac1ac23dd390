# expect: timeout
# mode: stream
# A streamed program that catches the deadline's interrupt (BaseException)
# and spins again, while the call it states next (possibly started early)
# waits for an hour. Catching must not buy time: the host ends it at its
# deadline, cancels what the stream started, and frees its child.
while True:
    try:
        while True:
            pass
    except BaseException:
        pass
a = sleep(ms=3600000, value=1)
result = a
