# expect: ok
# value: "fast"
# tools: sleep
# asyncio.as_completed over tool calls: the first to complete comes first;
# the slow call left pending is cancelled when the program ends.
import asyncio
async def main():
    for fut in asyncio.as_completed([sleep(ms=5000, value="slow"), sleep(ms=1, value="fast")]):
        return await fut
result = asyncio.run(main())
