# expect: ok
# value: ["value 0", "value 14", "value 21", "value 7"]
# tools: lookup
# logging from threads into an in-memory handler.
import logging, threading, io
stream = io.StringIO()
log = logging.getLogger("corpus.threads")
log.addHandler(logging.StreamHandler(stream))
log.setLevel(logging.INFO)
def work(k):
    log.info("value %d", lookup(key=k))
ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
result = sorted(stream.getvalue().splitlines())
