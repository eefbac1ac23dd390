# expect: ok
# value: [0, 7, 14, 21, 28, 35, 42, 49, 56, 63]
# tools: lookup
# Producer and consumers over an asyncio.Queue, the consumers calling a tool.
import asyncio
async def main():
    q = asyncio.Queue()
    for k in range(10):
        q.put_nowait(k)
    out = {}
    async def worker():
        while not q.empty():
            k = q.get_nowait()
            out[k] = await lookup(key=k)
    await asyncio.gather(*[worker() for _ in range(3)])
    return [out[k] for k in sorted(out)]
result = asyncio.run(main())
