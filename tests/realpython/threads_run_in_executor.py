# expect: ok
# value: 3
# tools: echo
# loop.run_in_executor with a tool call.
import asyncio
async def main():
    loop = asyncio.get_running_loop()
    v = await loop.run_in_executor(None, lambda: echo(k=3))
    return v["k"]
result = asyncio.run(main())
