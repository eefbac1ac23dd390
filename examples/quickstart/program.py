# An agent-style program: independent lookups (run in parallel with PLM),
# one dependent call, and an effectful emit that runs exactly once, in order.
rows = []
for key in inputs["keys"]:
    rows.append(lookup(key=key))
slow = sleep(ms=50, value="slept")
total = sum(rows)
emit(value={"total": total})
print("rows:", rows)
result = {"rows": rows, "total": total, "slow": slow, "echo": echo(total=total)}
