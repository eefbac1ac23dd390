# expect: ok
# value: "timed out"
# tools: sleep
# asyncio.wait_for around a tool call that takes too long: TimeoutError at the await.
import asyncio
async def main():
    try:
        await asyncio.wait_for(sleep(ms=2000, value=1), timeout=0.05)
    except asyncio.TimeoutError:
        return "timed out"
result = asyncio.run(main())
