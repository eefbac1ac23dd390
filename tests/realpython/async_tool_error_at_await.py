# expect: ok
# value: "boom"
# tools: fail
# A tool's error is raised at its await, catchable there.
import asyncio
async def main():
    pending = fail(message="boom")
    try:
        await pending
    except RuntimeError as e:
        return str(e)
result = asyncio.run(main())
