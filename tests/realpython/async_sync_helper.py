# expect: ok
# value: 42
# tools: lookup
# A sync helper called from async code calls the tool synchronously.
import asyncio
def helper(k):
    return lookup(key=k) * 2
async def main():
    return helper(3)
result = asyncio.run(main())
