# value: ["a", "b", "c"]
errors = []
for m in ["a", "b", "c"]:
    try:
        fail(message=m)
    except RuntimeError as e:
        errors.append(str(e))
result = errors
