# value: 14
import asyncio

async def main():
    async with asyncio.timeout(30):
        return await lookup(key=2)

result = asyncio.run(main())
