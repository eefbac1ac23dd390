# expect: ok
# value: [10, 80, 150]
# tools: lookup
# Tool calls in nested coroutines.
import asyncio
async def inner(k):
    return await lookup(key=k) + 1
async def middle(k):
    return await inner(k) * 10
async def main():
    return [await middle(k) for k in range(3)]
result = asyncio.run(main())
