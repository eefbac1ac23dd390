# value: [7, 14, 21]
import asyncio
values = []
for next_done in asyncio.as_completed([lookup(key=k) for k in (1, 2, 3)]):
    values.append(await next_done)
result = sorted(values)
