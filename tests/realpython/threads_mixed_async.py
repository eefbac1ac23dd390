# expect: ok
# value: [0, 7, 14, 21]
# tools: lookup
# asyncio.to_thread runs a sync tool call in a worker thread.
import asyncio
async def main():
    return await asyncio.gather(*[asyncio.to_thread(lambda k=k: lookup(key=k)) for k in range(4)])
result = asyncio.run(main())
