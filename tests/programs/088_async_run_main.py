# value: {"a": 7, "b": 14}
import asyncio

async def main():
    a = await lookup(key=1)
    b = await lookup(key=2)
    return {"a": a, "b": b}

result = asyncio.run(main())
