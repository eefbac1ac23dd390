# expect: ok
# value: [7, "RuntimeError", 14]
# tools: fail, lookup
# gather(return_exceptions=True) keeps a tool's error as a value.
import asyncio
async def main():
    out = await asyncio.gather(lookup(key=1), fail(message="no"), lookup(key=2), return_exceptions=True)
    return [type(v).__name__ if isinstance(v, BaseException) else v for v in out]
result = asyncio.run(main())
