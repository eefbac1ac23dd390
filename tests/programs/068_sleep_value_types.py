# value: {"a": [1, 2.5, null, true, "s"]}
result = sleep(ms=1, value={"a": [1, 2.5, None, True, "s"]})
