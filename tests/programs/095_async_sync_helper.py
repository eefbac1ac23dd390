# value: [8, 15]
def plus_one(k):
    return lookup(key=k) + 1

async def main():
    return [plus_one(1), plus_one(2)]

result = await main()
