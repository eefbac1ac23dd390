# error: RuntimeError: stopped at bad
# emitted: [{"m": "ok"}]
for m in ["ok", "bad"]:
    if m == "bad":
        fail(message="stopped at " + m)
    emit(value=echo(m=m))
