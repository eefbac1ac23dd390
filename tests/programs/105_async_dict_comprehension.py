# value: {"1": 7, "2": 14}
import asyncio
keys = [1, 2]
values = await asyncio.gather(*[lookup(key=k) for k in keys])
result = {str(k): v for k, v in zip(keys, values)}
