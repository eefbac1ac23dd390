# value: [35, {"done": true}]
log = []
try:
    fail(message="x")
except RuntimeError:
    log.append(lookup(key=5))
finally:
    log.append(echo(done=True))
result = log
