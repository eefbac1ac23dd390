# expect: ok
# value: [0, 7, 14, 21, 28, 35]
# tools: lookup
# A semaphore limits how many tool calls are in flight.
import asyncio
async def main():
    sem = asyncio.Semaphore(2)
    async def one(k):
        async with sem:
            return await lookup(key=k)
    return await asyncio.gather(*[one(k) for k in range(6)])
result = asyncio.run(main())
