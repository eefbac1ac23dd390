# expect: ok
# value: ["fast"]
# tools: sleep
# asyncio.wait(FIRST_COMPLETED) over tool calls.
import asyncio
async def main():
    fast = asyncio.ensure_future(sleep(ms=10, value="fast"))
    slow = asyncio.ensure_future(sleep(ms=2000, value="slow"))
    done, pending = await asyncio.wait({fast, slow}, return_when=asyncio.FIRST_COMPLETED)
    for p in pending:
        p.cancel()
    return [d.result() for d in done]
result = asyncio.run(main())
