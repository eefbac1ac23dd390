# expect: ok
# value: [0, 1, 4, 9, 16]
# asyncio without tools: tasks, sleep, gather.
import asyncio
async def square(n):
    await asyncio.sleep(0.001 * n)
    return n * n
async def main():
    return await asyncio.gather(*[square(n) for n in range(5)])
result = asyncio.run(main())
