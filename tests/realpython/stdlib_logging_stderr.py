# expect: ok
# value: 20
# stdout: "to stdout\n"
# logging.basicConfig to stderr; the program's stdout stays clean.
import logging
logging.basicConfig(level=logging.INFO)
logging.info("to stderr")
print("to stdout")
result = logging.getLogger().level
