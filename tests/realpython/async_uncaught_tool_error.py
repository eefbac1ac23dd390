# expect: error RuntimeError
# tools: lookup
# A tool error left uncaught in async code ends the program with the tool error's type (RuntimeError by default).
import asyncio
async def main():
    await lookup(key="not a number")
asyncio.run(main())
