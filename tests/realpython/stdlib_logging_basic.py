# expect: ok
# value: ["INFO:corpus:shown 1", "WARNING:corpus:careful"]
# logging to a StringIO handler with a formatter and levels.
import logging, io
buf = io.StringIO()
log = logging.getLogger("corpus")
h = logging.StreamHandler(buf)
h.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
log.addHandler(h)
log.setLevel(logging.INFO)
log.debug("hidden")
log.info("shown %d", 1)
log.warning("careful")
result = buf.getvalue().splitlines()
