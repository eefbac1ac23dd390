# expect: timeout
# deadline: 1s
# Call an effectful tool in a tight loop and swallow every exception: the
# deadline must stop the program (a timeout, not an error it could catch),
# and no call may start once the context is done.
while True:
    try:
        emit(value=1)
    except BaseException:
        pass
