# value: "done"
# emitted: [7, 14, 21]
for k in [1, 2, 3]:
    emit(value=lookup(key=k))
result = "done"
