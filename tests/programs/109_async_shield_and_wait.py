# value: [7, 14]
import asyncio

async def main():
    done, pending = await asyncio.wait([asyncio.ensure_future(lookup(key=k)) for k in (1, 2)])
    return sorted(t.result() for t in done) if not pending else None

result = asyncio.run(main())
