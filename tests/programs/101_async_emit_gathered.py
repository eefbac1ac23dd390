# value: [1, 2]
# emitted: ["a", "b"]
import asyncio
first = await emit(value="a")
second = await emit(value="b")
result = [first, second]
