# expect: ok
# value: 42
# Top-level await without tools.
import asyncio
await asyncio.sleep(0)
async def twice(x):
    return 2 * x
result = await twice(21)
