# expect: ok
# value: [["a", "b"], "unset"]
# contextvars across asyncio tasks.
import asyncio, contextvars
var = contextvars.ContextVar("var", default="unset")
async def task(v):
    var.set(v)
    await asyncio.sleep(0)
    return var.get()
async def main():
    return await asyncio.gather(task("a"), task("b")), var.get()
result = asyncio.run(main())
