# expect: ok
# value: "in time"
# tools: sleep
# asyncio.wait_for around a tool call that finishes in time.
import asyncio
async def main():
    return await asyncio.wait_for(sleep(ms=10, value="in time"), timeout=5)
result = asyncio.run(main())
