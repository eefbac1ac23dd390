# expect: timeout
# Take the deadline's signal away (ignore or default SIGALRM), then spin.
try:
    import signal
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
except ImportError:
    pass
while True:
    pass
