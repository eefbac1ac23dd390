# value: [0, 7, 14, 21, 28]
import asyncio
limit = asyncio.Semaphore(2)

async def bounded(k):
    async with limit:
        return await lookup(key=k)

result = await asyncio.gather(*(bounded(k) for k in range(5)))
