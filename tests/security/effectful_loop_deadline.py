# expect: timeout
# deadline: 1s
# Call an effectful tool in a loop and swallow every exception: the deadline
# must stop the program (a timeout, not an error it could catch), and no call
# may start once the context is done. Some work between calls keeps the loop
# well under the 10,000-call limit, so the deadline is what ends it.
while True:
    try:
        emit(value=1)
        for _ in range(20000):
            pass
    except BaseException:
        pass
