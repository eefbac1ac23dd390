# expect: ok
# value: [0, 7, 14, 21]
# tools: lookup
# An async generator yielding tool results.
import asyncio
async def values(n):
    for k in range(n):
        yield await lookup(key=k)
async def main():
    return [v async for v in values(4)]
result = asyncio.run(main())
