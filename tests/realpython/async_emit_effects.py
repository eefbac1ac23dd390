# expect: ok
# value: [1, 2, 3, 4]
# tools: emit
# Gathering an effectful tool is the program's choice: each runs once.
import asyncio
async def main():
    return sorted(await asyncio.gather(*[emit(value=i) for i in range(4)]))
result = asyncio.run(main())
