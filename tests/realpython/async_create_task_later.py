# expect: ok
# value: {"a": 1}
# tools: echo
# A task created early and awaited later.
import asyncio
async def main():
    task = asyncio.create_task(echo(a=1))
    await asyncio.sleep(0.01)
    return await task
result = asyncio.run(main())
