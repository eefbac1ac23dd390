# value: [1, 2, 3, 4, 5, 6, 7, 8]
values = []
values.append(sleep(ms=5, value=1))
values.append(sleep(ms=5, value=2))
values.append(sleep(ms=5, value=3))
values.append(sleep(ms=5, value=4))
values.append(sleep(ms=5, value=5))
values.append(sleep(ms=5, value=6))
values.append(sleep(ms=5, value=7))
values.append(sleep(ms=5, value=8))
result = values
