# value: ["a", "b", "c"]
import asyncio

async def main():
    return await asyncio.gather(sleep(ms=5, value="a"), sleep(ms=5, value="b"), sleep(ms=5, value="c"))

result = asyncio.run(main())
