# value: [7, 14, 21]
import asyncio

async def main():
    tasks = [asyncio.create_task(lookup(key=k)) for k in (1, 2, 3)]
    return [await t for t in tasks]

result = asyncio.run(main())
