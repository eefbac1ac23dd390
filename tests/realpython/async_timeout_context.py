# expect: ok
# value: "cut"
# tools: sleep
# asyncio.timeout() as a context manager around a slow tool call.
import asyncio
async def main():
    try:
        async with asyncio.timeout(0.05):
            await sleep(ms=3000)
    except TimeoutError:
        return "cut"
result = asyncio.run(main())
