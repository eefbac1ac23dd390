# expect: ok
# value: ["failed", true]
# logging.exception records the traceback.
import logging, io
buf = io.StringIO()
log = logging.getLogger("corpus.exc")
log.addHandler(logging.StreamHandler(buf))
try:
    1 / 0
except ZeroDivisionError:
    log.exception("failed")
text = buf.getvalue()
result = [text.splitlines()[0], "ZeroDivisionError" in text]
