# value: [7, 14, 21]
async def lookups(keys):
    for k in keys:
        yield await lookup(key=k)

result = [v async for v in lookups([1, 2, 3])]
