# value: 35
import asyncio
result = await asyncio.wait_for(lookup(key=5), timeout=30)
