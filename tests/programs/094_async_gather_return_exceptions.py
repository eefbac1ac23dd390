# value: [7, "RuntimeError", 21]
import asyncio
out = await asyncio.gather(lookup(key=1), fail(message="x"), lookup(key=3), return_exceptions=True)
result = [type(v).__name__ if isinstance(v, Exception) else v for v in out]
