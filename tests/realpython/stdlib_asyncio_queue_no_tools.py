# expect: ok
# value: [0, 1, 2]
# asyncio.Queue and Event without tools.
import asyncio
async def main():
    q = asyncio.Queue()
    done = asyncio.Event()
    seen = []
    async def consumer():
        while True:
            item = await q.get()
            if item is None:
                done.set()
                return
            seen.append(item)
    c = asyncio.create_task(consumer())
    for i in range(3):
        await q.put(i)
    await q.put(None)
    await done.wait()
    await c
    return seen
result = asyncio.run(main())
