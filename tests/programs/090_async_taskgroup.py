# value: [7, 14]
import asyncio

async def main():
    async with asyncio.TaskGroup() as tg:
        first = tg.create_task(lookup(key=1))
        second = tg.create_task(lookup(key=2))
    return [first.result(), second.result()]

result = await main()
