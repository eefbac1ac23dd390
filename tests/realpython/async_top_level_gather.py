# expect: ok
# value: 28
# tools: sleep
# Top-level await of a gather of sleeps.
import asyncio
values = await asyncio.gather(*[sleep(ms=20, value=i) for i in range(8)])
result = sum(values)
