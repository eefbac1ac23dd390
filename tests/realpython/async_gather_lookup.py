# expect: ok
# value: [0, 7, 14, 21, 28]
# tools: lookup
# asyncio.gather of tool calls: each call is awaitable in async code.
import asyncio
async def main():
    return await asyncio.gather(*[lookup(key=k) for k in range(5)])
result = asyncio.run(main())
