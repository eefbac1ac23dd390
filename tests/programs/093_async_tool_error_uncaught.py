# error: RuntimeError: broken
import asyncio

async def main():
    await fail(message="broken")

asyncio.run(main())
