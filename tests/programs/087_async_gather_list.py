# value: [0, 7, 14, 21]
import asyncio
result = await asyncio.gather(*[lookup(key=k) for k in range(4)])
