# expect: ok
# value: [7, 14, 21]
# tools: lookup
# asyncio.TaskGroup of tool calls.
import asyncio
async def one(k):
    return await lookup(key=k)
async def main():
    async with asyncio.TaskGroup() as tg:
        tasks = [tg.create_task(one(k)) for k in (1, 2, 3)]
    return [t.result() for t in tasks]
result = asyncio.run(main())
