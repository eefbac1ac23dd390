# expect: ok
# value: "done"
# Reach bootstrap's globals through a traceback and print what is there.
try:
    1 / 0
except ZeroDivisionError as e:
    tb = e.__traceback__
    g = tb.tb_frame.f_globals
    f = tb.tb_frame
    while f.f_back is not None:
        f = f.f_back
    print(sorted(f.f_globals))
result = 'done'
