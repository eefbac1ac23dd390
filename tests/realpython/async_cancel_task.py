# expect: ok
# value: "cancelled"
# tools: sleep
# Cancelling a task awaiting a slow tool call.
import asyncio
async def main():
    task = asyncio.create_task(sleep(ms=5000))
    await asyncio.sleep(0.02)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return "cancelled"
result = asyncio.run(main())
