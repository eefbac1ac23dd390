# value: [7, 14, 21, 28]
import asyncio

async def main():
    queue = asyncio.Queue()
    for k in (1, 2, 3, 4):
        queue.put_nowait(k)
    out = []

    async def worker():
        while not queue.empty():
            k = queue.get_nowait()
            out.append(await lookup(key=k))

    await asyncio.gather(worker(), worker())
    return sorted(out)

result = asyncio.run(main())
